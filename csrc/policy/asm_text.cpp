#include "asm_text.h"

#include "asm_policy.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/MC/MCAsmInfo.h"
#include "llvm/Target/TargetMachine.h"

#include <vector>

using namespace llvm;

namespace llvmplug {

namespace {

unsigned operandCount(const InlineAsm &code) {
  unsigned count = 0;
  for (const InlineAsm::ConstraintInfo &constraint : code.ParseConstraints())
    if (constraint.Type != InlineAsm::isClobber)
      ++count;
  return count;
}

// Characters that would join an operand to the word before or after it in
// MC's lexer. '$' may precede one (AT&T's "$$$0" is an immediate), '@' may
// follow one ("${0:c}@PLT").
bool joinsBefore(char c) { return isAlnum(c) || c == '_' || c == '.' || c == '?' || c == '@'; }
bool joinsAfter(char c) { return isAlnum(c) || c == '_' || c == '.' || c == '?' || c == '$'; }

} // namespace

std::string inlineAsmText(const InlineAsm &code, const TargetMachine &machine, const DataLayout &layout,
                          const std::string &where) {
  const MCAsmInfo &info = machine.getMCAsmInfo();
  // AsmPrinter reads the string as a C string: a NUL ends it.
  StringRef source = code.getAsmString();
  source = source.take_until([](char c) { return c == 0; });
  bool intel = code.getDialect() == InlineAsm::AD_Intel;
  int printed = intel ? 1 : machine.unqualifiedInlineAsmVariant(); // the variant AsmPrinter keeps
  unsigned operands = operandCount(code);

  std::string out;
  if (source.empty())
    return out; // AsmPrinter prints only the #APP markers
  if (intel)
    out += "\t.intel_syntax\n\t";
  else if (!info.isHLASM())
    out += '\t';

  std::vector<size_t> placeholders; // where each printed operand starts in `out`
  int variant = -1;                 // the $( $| $) region we are in, -1 outside
  auto visible = [&] { return variant == -1 || variant == printed; };
  size_t i = 0;
  while (i < source.size()) {
    char c = source[i];
    if (c == '\n') { // printed in every variant
      out += '\n';
      ++i;
      continue;
    }
    if (c != '$') {
      if (visible())
        out += c;
      ++i;
      continue;
    }
    ++i; // the '$'
    char next = i < source.size() ? source[i] : 0;
    if (next == '$') {
      if (!intel && visible())
        out += '$';
      ++i;
      continue;
    }
    if (next == '(') {
      if (variant != -1)
        refuseAsm(where, "nested $( variants in inline asm (AsmPrinter stops with a fatal error)");
      variant = 0;
      ++i;
      continue;
    }
    if (next == '|') {
      if (variant == -1)
        out += '|';
      else
        ++variant;
      ++i;
      continue;
    }
    if (next == ')') {
      if (variant == -1)
        out += '}';
      else
        variant = -1;
      ++i;
      continue;
    }
    bool braces = next == '{';
    if (braces)
      ++i;
    if (braces && i < source.size() && source[i] == ':') {
      size_t end = source.find('}', i);
      if (end == StringRef::npos)
        refuseAsm(where, "an unterminated ${: in inline asm (AsmPrinter stops with a fatal error)");
      StringRef special = source.slice(i + 1, end);
      i = end + 1;
      if (!visible())
        continue;
      if (special == "private")
        out += layout.getInternalSymbolPrefix();
      else if (special == "comment")
        out += info.getCommentString();
      else if (special == "uid")
        out += AsmUidValue;
      else
        refuseAsm(where, "'${:" + special.str() + "}' in inline asm (AsmPrinter stops with a fatal error)");
      continue;
    }
    size_t digits = i;
    while (digits < source.size() && isDigit(source[digits]))
      ++digits;
    unsigned number;
    if (source.slice(i, digits).getAsInteger(10, number))
      refuseAsm(where, "a '$' in inline asm that is no operand (write '$$' for a '$')");
    i = digits;
    if (braces) {
      if (i < source.size() && source[i] == ':') {
        if (i + 1 >= source.size())
          refuseAsm(where, "a bad ${N:modifier} in inline asm (AsmPrinter stops with a fatal error)");
        i += 2; // the ':' and the modifier character
      }
      if (i >= source.size() || source[i] != '}')
        refuseAsm(where, "a bad ${N} in inline asm (AsmPrinter stops with a fatal error)");
      ++i;
    }
    if (number >= operands)
      refuseAsm(where, "operand $" + std::to_string(number) + " of an inline asm call with " +
                           std::to_string(operands) + " operands");
    if (visible()) {
      placeholders.push_back(out.size());
      out += AsmOperand;
    }
  }
  if (variant != -1)
    refuseAsm(where, "an unterminated $( variant in inline asm (the rest of the text would vanish)");
  if (intel)
    out += "\n\t.att_syntax";
  out += '\n';

  size_t length = StringRef(AsmOperand).size();
  for (size_t start : placeholders) {
    size_t end = start + length, before = start, after = end;
    while (before && joinsBefore(out[before - 1]))
      --before;
    while (after < out.size() && joinsAfter(out[after]))
      ++after;
    if (before != start)
      refuseAsm(where, "an inline asm operand joined to '" + out.substr(before, start - before) +
                           "' before it (it could complete a directive name)");
    if (after != end)
      refuseAsm(where, "an inline asm operand joined to '" + out.substr(end, after - end) +
                           "' after it (printed empty, it would join the text around it)");
  }
  return out;
}

} // namespace llvmplug
