#include "asm_policy.h"

#include "failure.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/MCAsmInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Target/TargetMachine.h"

#include <algorithm>
#include <limits>
#include <optional>
#include <string>

using namespace llvm;

namespace llvmplug {

namespace {

constexpr std::uint64_t Unbounded = std::numeric_limits<std::uint64_t>::max();

std::uint64_t add(std::uint64_t a, std::uint64_t b) { return a > Unbounded - b ? Unbounded : a + b; }
std::uint64_t times(std::uint64_t a, std::uint64_t b) {
  return a && b > Unbounded / a ? Unbounded : a * b;
}
std::uint64_t power2(std::uint64_t n) { return n >= 63 ? Unbounded : std::uint64_t(1) << n; }

enum class Kind {
  Reads,      // reads a host file
  Writes,     // writes a host file
  Prints,     // prints to the process's stdout
  Macro,      // macro machinery: can build directive names and repeat text
  Repeat,     // .rept N: the body N times
  Fill,       // N units of output
  Org,        // moves the location counter to N: up to N bytes of padding
  AlignPow2,  // pads to 2^N
  AlignBytes, // pads to N
  AlignTarget,// .align: N or 2^N as the target reads it
  Bundle,     // pads every later instruction
  Index,      // a table entry N: MC resizes the table to N+1 entries
};

struct Directive {
  const char *name;
  Kind kind;
  unsigned unit = 1; // bytes per count, at most (Fill)
};

// Every directive of LLVM 23's MC (AsmParser, DarwinAsmParser and the
// targets' parsers) that touches the host or makes output or text that is
// not in proportion to its own size. The others are linear in their text.
const Directive Directives[] = {
    {".incbin", Kind::Reads},
    {".include", Kind::Reads},
    {".secure_log_unique", Kind::Writes},
    {".secure_log_reset", Kind::Writes},
    {".print", Kind::Prints},
    {".macro", Kind::Macro},
    {".endm", Kind::Macro},
    {".endmacro", Kind::Macro},
    {".purgem", Kind::Macro},
    {".exitm", Kind::Macro},
    {".irp", Kind::Macro},
    {".irpc", Kind::Macro},
    {".altmacro", Kind::Macro},
    {".noaltmacro", Kind::Macro},
    {".macros_on", Kind::Macro},
    {".macros_off", Kind::Macro},
    {".rept", Kind::Repeat},
    {".rep", Kind::Repeat},
    {".fill", Kind::Fill, 8}, // size is clamped to 8
    {".space", Kind::Fill},
    {".skip", Kind::Fill},
    {".zero", Kind::Fill},
    {".nops", Kind::Fill},
    {".ds", Kind::Fill, 16},  // .ds, .ds.b ... .ds.x (12 bytes)
    {".dcb", Kind::Fill, 16}, // .dcb, .dcb.b ... .dcb.x
    {".org", Kind::Org},
    {".p2align", Kind::AlignPow2},
    {".p2alignw", Kind::AlignPow2},
    {".p2alignl", Kind::AlignPow2},
    {".balign", Kind::AlignBytes},
    {".balignw", Kind::AlignBytes},
    {".balignl", Kind::AlignBytes},
    {".align", Kind::AlignTarget},
    {".align32", Kind::AlignTarget},
    {".bundle_align_mode", Kind::Bundle},
    {".file", Kind::Index, 256}, // .file N "name": the DWARF file table
    {".cv_file", Kind::Index, 256},
    {".cv_func_id", Kind::Index, 256},
    {".cv_inline_site_id", Kind::Index, 256},
};

bool isWordChar(char c) { return isAlnum(c) || c == '_'; }
// What MC's lexer may take into one identifier.
bool isIdentifierChar(char c) { return isAlnum(c) || c == '_' || c == '.' || c == '$' || c == '@' || c == '?'; }

const char *why(Kind kind) {
  switch (kind) {
  case Kind::Reads:
    return "it reads a file of the host";
  case Kind::Writes:
    return "it writes a file of the host";
  case Kind::Prints:
    return "it prints to the process's standard output";
  default:
    return "assembler macros can build directive names and repeat text";
  }
}

[[noreturn]] void refuse(const std::string &where, const std::string &what) {
  throw Failure(LLVMPLUG_ERROR_OPTION, where + ": the safe policy refuses " + what +
                                           "; Plugin(policy=\"all\") assembles it as LLVM does");
}

[[noreturn]] void unbounded(const std::string &where, const std::string &what) {
  throw Failure(LLVMPLUG_ERROR_LIMIT, where + ": " + what +
                                          ", so llvmplug cannot bound what the assembler makes of it "
                                          "(under the safe policy counts must be decimal or 0x literals)");
}

// The count after a directive as MC reads it, when it is a plain literal:
// decimal (a leading 0 is octal to MC, whose value is then smaller) or 0x
// hex, followed by the end of the argument: a separator, or what is a
// comment on some target ('#', '@', '//') and on the others an error, or a
// '/' (a division only makes it smaller). nullopt for anything else (an
// expression, a symbol, another base). Saturates at Unbounded.
std::optional<std::uint64_t> literal(StringRef rest, bool &none, StringRef ends = ",;\n\r#@/") {
  rest = rest.ltrim(" \t");
  none = rest.empty() || rest.front() == '\n' || rest.front() == '\r' || rest.front() == ';';
  if (none)
    return std::nullopt;
  unsigned radix = 10;
  if (rest.starts_with_insensitive("0x")) {
    radix = 16;
    rest = rest.drop_front(2);
  }
  size_t digits = 0;
  std::uint64_t value = 0;
  for (; digits < rest.size(); ++digits) {
    char c = rest[digits];
    unsigned digit;
    if (isDigit(c))
      digit = c - '0';
    else if (radix == 16 && isHexDigit(c))
      digit = hexDigitValue(c);
    else
      break;
    value = add(times(value, radix), digit);
  }
  if (!digits)
    return std::nullopt;
  StringRef after = rest.drop_front(digits).ltrim(" \t");
  if (!after.empty() && !ends.contains(after.front()))
    return std::nullopt;
  return value;
}

// The depth of brackets plus runs of unary operators, as MC's recursive
// expression parser would descend.
void checkExpressionDepth(StringRef text, const std::string &where) {
  unsigned depth = 0, run = 0;
  for (char c : text) {
    if (c == '(' || c == '[' || c == '{')
      ++depth;
    else if ((c == ')' || c == ']' || c == '}') && depth)
      --depth;
    if (c == '-' || c == '~' || c == '!' || c == '+')
      ++run;
    else if (c != ' ' && c != '\t')
      run = 0;
    if (depth + run > MaxAsmExpressionDepth)
      throw Failure(LLVMPLUG_ERROR_LIMIT, where + ": an assembler expression nests more than " +
                                              std::to_string(MaxAsmExpressionDepth) +
                                              " levels deep (llvmplug's limit under the safe policy)");
  }
}

// AsmPrinter substitutes inline asm operands into the text before MC reads
// it: $N, ${N:modifier}, and $( $| $) for dialect variants; $$ is a '$'.
// An operand glued to a word that has a '.' could complete a directive name
// ("$0" printing a symbol named "bin" after ".inc"), so such a word is
// refused. ${:uid}, ${:comment} and ${:private} print a number, a comment
// marker and the private prefix (.L), none of which completes a directive.
// Returns whether the text refers to operands at all.
bool checkOperandEscapes(StringRef text, const std::string &where) {
  bool operands = false;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '$')
      continue;
    if (i + 1 < text.size() && text[i + 1] == '$') {
      ++i;
      continue;
    }
    operands = true;
    if (text.substr(i + 1).starts_with("{:"))
      continue;
    size_t start = i;
    while (start && isIdentifierChar(text[start - 1]))
      --start;
    if (text.slice(start, i).contains('.'))
      refuse(where, "an inline asm operand glued to '" + text.slice(start, i).str() +
                        "' (it could complete a directive name)");
  }
  return operands;
}

// The worst-case expansion of one asm text, in bytes; throws for what the
// rules refuse.
std::uint64_t costOf(StringRef text, const AsmRules &rules, const std::string &where) {
  std::string lower = text.lower();
  std::uint64_t repeat = 1, output = 0;
  bool repeats = false;
  for (size_t dot = lower.find('.'); dot != std::string::npos; dot = lower.find('.', dot + 1)) {
    StringRef at = StringRef(lower).substr(dot);
    for (const Directive &directive : Directives) {
      StringRef name = directive.name;
      if (!at.starts_with(name) || (at.size() > name.size() && isWordChar(at[name.size()])))
        continue;
      StringRef token = at.take_while(isIdentifierChar);
      std::string spelled = text.substr(dot, token.size()).str();
      bool none = false;
      std::optional<std::uint64_t> count = literal(text.substr(dot + token.size()), none);
      switch (directive.kind) {
      case Kind::Reads:
      case Kind::Writes:
      case Kind::Prints:
      case Kind::Macro:
        refuse(where, "the assembler directive '" + spelled + "' (" + why(directive.kind) + ")");
      case Kind::Bundle:
        unbounded(where, "'" + spelled + "' pads every later instruction");
      case Kind::Repeat:
        if (!count)
          unbounded(where, "the count of '" + spelled + "' is not a plain number");
        repeats = true;
        repeat = times(repeat, std::max<std::uint64_t>(*count, 1)); // .rept 0 multiplies nothing away
        break;
      case Kind::Index: {
        // Only the numbered form indexes a table (.file "name" does not);
        // a number MC reads that is not a plain literal cannot be bounded.
        StringRef argument = text.substr(dot + token.size()).ltrim(" \t");
        count = literal(argument, none, ",;\n\r#@/\"");
        if (count)
          output = add(output, times(*count, directive.unit));
        else if (!argument.empty() && isDigit(argument.front()))
          unbounded(where, "the number of '" + spelled + "' is not a plain literal");
        break;
      }
      default:
        if (none) { // e.g. ARM's bare .align (to 4 bytes)
          output = add(output, 16);
          break;
        }
        if (!count)
          unbounded(where, "the size of '" + spelled + "' is not a plain number");
        switch (directive.kind) {
        case Kind::Fill:
          output = add(output, times(*count, directive.unit));
          break;
        case Kind::Org:
        case Kind::AlignBytes:
          output = add(output, *count);
          break;
        case Kind::AlignPow2:
          output = add(output, power2(*count));
          break;
        default: // AlignTarget
          output = add(output, rules.alignInBytes ? *count : power2(*count));
          break;
        }
      }
    }
  }
  if (repeats) {
    // What a .rept body still substitutes although no macro is defined
    // (AsmParser::expandMacro): \() vanishes, \@ is a number, and on Mach-O
    // $0-$9, $n and $$ are replaced. Any of them could splice a name.
    // (\+, the iteration count of newer GNU assemblers, is refused too.)
    if (text.contains("\\()") || text.contains("\\@") || text.contains("\\+"))
      refuse(where, "'\\()', '\\@' and '\\+' in asm that uses .rept (they splice text inside its body)");
    if (rules.machO)
      for (size_t i = text.find('$'); i != StringRef::npos; i = text.find('$', i + 1))
        if (i + 1 < text.size() && (isDigit(text[i + 1]) || text[i + 1] == 'n' || text[i + 1] == '$'))
          refuse(where, "'$" + std::string(1, text[i + 1]) +
                            "' in Mach-O asm that uses .rept (it is substituted inside its body)");
  }
  checkExpressionDepth(text, where);
  return add(repeat > 1 ? times(text.size(), repeat) : 0, times(output, repeat));
}

bool plainName(StringRef name) {
  return name.empty() ||
         (!isDigit(name.front()) && all_of(name, [](char c) { return isWordChar(c) || c == '$'; }));
}

// Operands AsmPrinter prints by name: globals, also inside constant
// expressions. A name that is not a plain identifier could carry a '.', a
// newline or a quote into the text MC reads (some targets print names
// unquoted).
void checkSymbolOperands(const CallBase &call, const std::string &where) {
  SmallVector<const Constant *, 8> work;
  SmallPtrSet<const Constant *, 8> seen;
  for (const Value *argument : call.args())
    if (auto *constant = dyn_cast<Constant>(argument))
      work.push_back(constant);
  while (!work.empty()) {
    const Constant *constant = work.pop_back_val();
    if (!seen.insert(constant).second)
      continue;
    if (auto *global = dyn_cast<GlobalValue>(constant)) {
      if (!plainName(global->getName()))
        refuse(where, "an inline asm operand naming '" + global->getName().str() +
                          "' (a symbol name that is not a plain identifier is printed into the asm text)");
      continue;
    }
    for (const Value *operand : constant->operands())
      work.push_back(cast<Constant>(operand));
  }
}

class Checker {
public:
  explicit Checker(const AsmRules &rules) : rules(rules) {}

  void function(const Function &function) {
    for (const Instruction &instruction : instructions(function)) {
      auto *call = dyn_cast<CallBase>(&instruction);
      if (!call || !call->isInlineAsm())
        continue;
      auto *code = cast<InlineAsm>(call->getCalledOperand());
      std::string where = "inline asm in function '" + function.getName().str() + "'";
      auto [found, fresh] = costs.try_emplace(code, 0);
      if (fresh) {
        found->second = costOf(code->getAsmString(), rules, where);
        operands[code] = checkOperandEscapes(code->getAsmString(), where);
      }
      if (operands[code])
        checkSymbolOperands(*call, where);
      total = add(total, found->second);
      checkTotal();
    }
  }

  void module(const Module &module) {
    // All fragments as one text: a .rept in one may span the next.
    std::string text;
    for (const Module::GlobalAsmFragment &fragment : module.getModuleInlineAsm())
      text += fragment.Asm;
    total = add(total, costOf(text, rules, "module asm"));
    checkTotal();
    for (const Function &function : module)
      if (!function.isMaterializable())
        this->function(function);
  }

private:
  void checkTotal() const {
    if (total > MaxAsmExpansion)
      throw Failure(LLVMPLUG_ERROR_LIMIT,
                    "the module's assembler text may expand to more than " +
                        std::to_string(MaxAsmExpansion >> 20) +
                        " MiB (.rept repetitions, fill and alignment padding, every inline asm call "
                        "counted): llvmplug's limit under the safe policy");
  }

  const AsmRules &rules;
  std::uint64_t total = 0;
  DenseMap<const InlineAsm *, std::uint64_t> costs;
  DenseMap<const InlineAsm *, bool> operands;
};

} // namespace

AsmRules asmRulesFor(llvmplug_policy policy, const TargetMachine &machine) {
  AsmRules rules;
  rules.check = policy == LLVMPLUG_POLICY_SAFE && machine.getTarget().hasMCAsmParser();
  rules.alignInBytes = machine.getMCAsmInfo().getAlignmentIsInBytes();
  rules.machO = machine.getTargetTriple().isOSBinFormatMachO();
  return rules;
}

void checkModuleAsm(const Module &module, const AsmRules &rules) {
  if (rules.check)
    Checker(rules).module(module);
}

void checkFunctionAsm(const Function &function, const AsmRules &rules) {
  if (rules.check)
    Checker(rules).function(function);
}

} // namespace llvmplug
