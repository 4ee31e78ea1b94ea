#include "asm_statements.h"

#include "asm_directives.h"
#include "asm_policy.h"
#include "asm_text.h"
#include "failure.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/MC/MCAsmInfo.h"
#include "llvm/MC/MCParser/AsmLexer.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <optional>

using namespace llvm;

namespace llvmplug {

namespace {

constexpr std::uint64_t Saturated = ~std::uint64_t(0);

std::uint64_t add(std::uint64_t a, std::uint64_t b) { return SaturatingAdd(a, b); }
std::uint64_t times(std::uint64_t a, std::uint64_t b) { return SaturatingMultiply(a, b); }
std::uint64_t power2(std::uint64_t n) { return n >= 63 ? Saturated : std::uint64_t(1) << n; }

// Arguments that name a table entry or a register number: far above any
// real use, far below what a table resized to it would cost.
constexpr std::uint64_t MaxSmallNumber = std::uint64_t(1) << 31;
// What the words of an option directive may run to (.arch armv8.2-a+crc...).
constexpr unsigned MaxWords = 64;
// What one assembled statement may cost besides its text: MC's warning and
// "while in macro instantiation" note for it (a .rept body of one warning
// statement repeated a million times is a million diagnostics).
constexpr std::uint64_t DiagnosticBytes = 256;

bool isOperand(StringRef text) { return text.contains(AsmOperand); }

// What MC lexes a token from, for messages.
std::string shown(const AsmToken &token) {
  if (token.is(AsmToken::EndOfStatement) || token.is(AsmToken::Eof))
    return "the end of the statement";
  StringRef text = token.getString();
  if (isOperand(text))
    return "an inline asm operand";
  return "'" + text.take_front(40).str() + (text.size() > 40 ? "...'" : "'");
}

// Where the next statement starts when the current one stops at `stop`:
// after the newline or separator there, or after the line when a comment
// starts there (LexLineComment reads to the end of the line).
const char *nextStatement(const MCAsmInfo &info, StringRef buffer, const char *stop) {
  const char *end = buffer.end();
  auto afterLine = [&](const char *p) {
    while (p != end && *p != '\n' && *p != '\r')
      ++p;
    if (p == end)
      return end;
    return p + 1 + (*p == '\r' && p + 1 != end && p[1] == '\n');
  };
  if (stop == end)
    return end;
  if (*stop == '\n' || *stop == '\r')
    return afterLine(stop);
  StringRef separator = info.getSeparatorString();
  if (!separator.empty() && StringRef(stop, end - stop).starts_with(separator))
    return stop + separator.size();
  return afterLine(stop);
}

// Where the statement starting at `start` stops for a parser that reads it
// raw (AsmLexer::LexUntilEndOfStatement: the first comment string,
// separator or newline, strings and C comments notwithstanding).
const char *rawStop(const MCAsmInfo &info, StringRef buffer, const char *start) {
  AsmLexer raw(info);
  raw.setBuffer(buffer, start);
  return raw.LexUntilEndOfStatement().end();
}

class Reader {
public:
  Reader(StringRef text, const AsmTarget &target, const std::string &where)
      : target(target), where(where), buffer(text.str()), lexer(*target.info) {
    lexer.setLexMasmIntegers(target.masmIntegers);
    lexer.setBuffer(StringRef(buffer.data(), buffer.size()));
  }

  AsmFacts run() {
    lex();
    while (!tok.is(AsmToken::Eof))
      statement();
    if (!repeats.empty())
      refuse("a .rept without its .endr");
    // A Hexagon packet left open around a bad instruction hangs its
    // assembler (LLVM 23.1.1; found by tests/campaigns/campaign_asm.py): braces close
    // within their text, on every target.
    if (braces)
      refuse("a '{' without its '}' (an open Hexagon packet hangs its assembler)");
    return std::move(facts);
  }

private:
  // ---- the lexer, as AsmParser::Lex drives it ----

  void lex() {
    tok = lexer.Lex();
    while (tok.is(AsmToken::Comment)) // AsmParser::Lex skips C comments
      tok = lexer.Lex();
    if (tok.is(AsmToken::Error))
      refuse("text MC's lexer rejects (" + lexer.getErr() + ")");
    if (tok.is(AsmToken::BackSlash))
      refuse("a '\\' outside a string (macro syntax)");
    if (tok.is(AsmToken::LCurly))
      ++braces;
    else if (tok.is(AsmToken::RCurly) && braces)
      --braces;
  }

  bool atEnd() const { return tok.is(AsmToken::EndOfStatement) || tok.is(AsmToken::Eof); }

  // The statement must end here; MC would start a new statement at any
  // token a directive's parser leaves. `raw`: its parser may read the line
  // raw, so a raw scan must end it at the same place.
  void end() { finish(nullptr, false); }
  void finish(const char *start, bool raw) {
    if (!atEnd())
      refuse(shown(tok) + " after the operands of '" + directive + "'");
    if (raw)
      agreesWithRawScan(start);
    if (tok.is(AsmToken::EndOfStatement))
      lex();
  }

  void comma() {
    if (!tok.is(AsmToken::Comma))
      refuse(shown(tok) + " in '" + directive + "' where a ',' belongs");
    lex();
  }

  // ---- refusals ----

  [[noreturn]] void refuse(const std::string &what) const { refuseAsm(where, what); }

  [[noreturn]] void unbounded(const std::string &what) const {
    throw Failure(LLVMPLUG_ERROR_LIMIT,
                  where + ": the " + what + " of '" + directive +
                      "' is not a plain number, so llvmplug cannot bound what the assembler makes of it "
                      "(under the safe policy sizes, counts and indexes are integer literals)");
  }

  void expand(std::uint64_t bytes) { facts.expansion = add(facts.expansion, times(bytes, multiplier)); }

  // Bytes of padding or fill, in the target's unit (asm_directives.def: AMDGPU).
  void emitted(std::uint64_t bytes) {
    if (bytes % target.sizeUnit)
      refuse("'" + directive + "' of " + std::to_string(bytes) +
             " bytes on a target whose assembler hangs on "
             "code that is not whole " +
             std::to_string(target.sizeUnit) + "-byte words (LLVM 23.1.1)");
    expand(bytes);
  }

  // ---- operands ----

  // A plain integer literal, followed by ',' or the end: the value MC reads
  // (parseAbsoluteExpression of one integer token is that token's value).
  std::uint64_t literal(const char *what, std::uint64_t max = Saturated) {
    if (!tok.is(AsmToken::Integer) && !tok.is(AsmToken::BigNum))
      unbounded(what);
    APInt value = tok.getAPIntVal();
    lex();
    if (!atEnd() && !tok.is(AsmToken::Comma))
      unbounded(what);
    std::uint64_t result = value.getActiveBits() > 64 ? Saturated : value.getZExtValue();
    if (result > max)
      throw Failure(LLVMPLUG_ERROR_LIMIT, where + ": the " + what + " of '" + directive + "' is " +
                                              std::to_string(result) + ", more than llvmplug's limit of " +
                                              std::to_string(max) + " under the safe policy");
    return result;
  }

  void signedLiteral(const char *what) {
    if (tok.is(AsmToken::Minus))
      lex();
    literal(what, MaxSmallNumber);
  }

  // A symbol name: an identifier (quoted names and operands are refused
  // where a symbol is defined).
  std::string symbol(bool defines) {
    if (!tok.is(AsmToken::Identifier))
      refuse(shown(tok) + " where '" + directive + "' takes a symbol name");
    std::string name = tok.getString().str();
    if (defines && isOperand(name))
      refuse("an inline asm operand as the symbol '" + directive + "' defines");
    if (defines && StringRef(name).contains('@'))
      refuse("the symbol name '" + name + "' with an '@' in a definition");
    lex();
    return name;
  }

  // An expression up to a ',' at the top level or the end. Its tokens,
  // bracket depth and names are recorded as a use; `data` refuses tokens no
  // expression has.
  AsmExpression expression(bool data) {
    AsmExpression expression;
    std::uint64_t depth = 0, unary = 0;
    bool operand = true; // whether a unary operator may come next
    bool afterInteger = false;
    while (!atEnd() && !(depth == 0 && tok.is(AsmToken::Comma))) {
      if (afterInteger && tok.is(AsmToken::Identifier) &&
          (tok.getString().equals_insensitive("f") || tok.getString().equals_insensitive("b")))
        expression.localLabel = true;
      afterInteger = tok.is(AsmToken::Integer);
      switch (tok.getKind()) {
      case AsmToken::LParen:
      case AsmToken::LBrac:
      case AsmToken::LCurly:
        ++depth;
        operand = true;
        break;
      case AsmToken::RParen:
      case AsmToken::RBrac:
      case AsmToken::RCurly:
        if (depth)
          --depth;
        operand = false;
        break;
      case AsmToken::Identifier:
      case AsmToken::String:
        if (!data)
          notDirectiveName(tok);
        expression.names.push_back(tok.getIdentifier().str()); // a quoted name is a symbol's
        operand = false;
        break;
      case AsmToken::Minus:
      case AsmToken::Plus:
      case AsmToken::Tilde:
      case AsmToken::Exclaim:
        if (operand)
          ++unary;
        operand = true;
        break;
      case AsmToken::Equal:
      case AsmToken::HashDirective:
        if (data)
          refuse(shown(tok) + " in an operand of '" + directive + "'");
        operand = true;
        break;
      case AsmToken::Dot:
        expression.location = true;
        operand = false;
        break;
      default:
        operand = !(tok.is(AsmToken::Integer) || tok.is(AsmToken::BigNum) || tok.is(AsmToken::Real));
        break;
      }
      if (!operand)
        unary = 0;
      expression.terms = add(expression.terms, 1);
      expression.depth = std::max(expression.depth, depth + unary);
      if (expression.depth > MaxAsmExpressionDepth)
        throw Failure(LLVMPLUG_ERROR_LIMIT, where + ": an assembler expression nests more than " +
                                                std::to_string(MaxAsmExpressionDepth) +
                                                " levels deep (llvmplug's limit under the safe policy)");
      if (expression.terms > MaxAsmExpressionTerms)
        throw Failure(LLVMPLUG_ERROR_LIMIT, where + ": an assembler expression has more than " +
                                                std::to_string(MaxAsmExpressionTerms) +
                                                " terms (llvmplug's limit under the safe policy; MC "
                                                "evaluates expressions recursively)");
      lex();
    }
    return expression;
  }

  void use(AsmExpression expression) { facts.uses.push_back({std::move(expression), multiplier}); }

  // Expressions separated by commas, to the end (none at all is allowed);
  // without `symbols`, expressions that need no relocation.
  void expressions(bool symbols) {
    while (!atEnd()) {
      if (tok.is(AsmToken::Comma))
        refuse("an empty operand of '" + directive + "'");
      AsmExpression value = expression(/*data=*/true);
      if (!symbols && (!value.names.empty() || value.location))
        refuse("a symbol or '.' in an operand of '" + directive + "' on this target (" +
               findAsmDirective(directive, target.architecture, target.format)->reason + ")");
      use(std::move(value));
      if (!atEnd())
        comma();
    }
    end();
  }

  void define(const std::string &name, AsmExpression value) {
    // Mach-O's streamer crashes on a symbol defined as a directional label
    // no label follows ("x = 1f"; LLVM 23.1.1, SIGSEGV).
    if (value.localLabel)
      refuse("a local label reference ('1f', '1b') in the definition of '" + name + "'");
    facts.uses.push_back({value, multiplier});
    facts.definitions.push_back({name, std::move(value)});
  }

  // A register of a CFI directive: %name, name or a DWARF number.
  void cfiRegister() {
    if (tok.is(AsmToken::Integer)) {
      literal("register number", MaxSmallNumber);
      return;
    }
    if (tok.is(AsmToken::Percent))
      lex();
    if (!tok.is(AsmToken::Identifier))
      refuse(shown(tok) + " where '" + directive + "' takes a register");
    lex();
  }

  // Names and plain numbers only, to the end: what option directives take.
  void words(const char *start) {
    unsigned count = 0;
    for (; !atEnd(); lex()) {
      if (++count > MaxWords)
        refuse("more than " + std::to_string(MaxWords) + " words after '" + directive + "'");
      switch (tok.getKind()) {
      case AsmToken::Identifier:
      case AsmToken::Comma:
      case AsmToken::Plus:
      case AsmToken::Minus:
      case AsmToken::Dot:
      case AsmToken::Equal:
      case AsmToken::Dollar:
      case AsmToken::Real:
        break;
      case AsmToken::Integer:
        if (tok.getAPIntVal().getActiveBits() > 32)
          refuse("the number " + shown(tok) + " after '" + directive + "'");
        break;
      default:
        refuse(shown(tok) + " after '" + directive + "' (it takes names and numbers)");
      }
      notDirectiveName(tok);
    }
    finish(start, /*raw=*/true);
  }

  // A directive's name inside another statement: a parser that stops
  // before the end would run it as a statement of its own.
  void notDirectiveName(const AsmToken &token) {
    StringRef name;
    if (token.is(AsmToken::Identifier))
      name = token.getString();
    else if (token.is(AsmToken::String))
      name = token.getStringContents();
    if (name.starts_with(".") && findAsmDirective(name, target.architecture, target.format))
      refuse("the directive name '" + name.str() + "' inside the statement '" + directive + "'");
  }

  // ---- statements ----

  void statement() {
    const char *start = tok.getLoc().getPointer();
    if (tok.is(AsmToken::EndOfStatement)) {
      lex();
      return;
    }
    ++statements;
    if (tok.is(AsmToken::HashDirective)) { // '# 12 "file.c"': the lexer has read the line
      lex();
      lex();
      lex();
      directive = "#";
      end();
      return;
    }
    // The statement's name, consumed before looking at what follows, as
    // AsmParser::parseStatement does (a comment may sit between a label and
    // its ':').
    bool first = !afterLabel;
    afterLabel = false;
    AsmToken head = tok;
    std::string name;
    switch (head.getKind()) {
    case AsmToken::Identifier:
      name = head.getString().str();
      break;
    case AsmToken::String:
      name = head.getStringContents().str(); // MC takes a quoted name as the name
      break;
    case AsmToken::Integer:
      name = head.getString().str(); // a local label "1:"
      break;
    case AsmToken::Dot:
      refuse("'.' at the start of a statement (an assignment to '.' moves the location counter)");
    case AsmToken::LCurly: // Hexagon packets, BPF's '*(u32 *)...': instructions
    case AsmToken::RCurly:
    case AsmToken::Star:
    case AsmToken::LParen:
      instruction(start, head.getString().str());
      return;
    case AsmToken::Dollar:
    case AsmToken::At: {
      // '$name' or '@name', adjacent: one name to MC.
      lex();
      if ((!tok.is(AsmToken::Identifier) && !tok.is(AsmToken::Integer)) ||
          tok.getLoc().getPointer() != head.getLoc().getPointer() + 1)
        refuse(shown(head) + " at the start of a statement");
      name = head.getString().str() + tok.getString().str();
      break;
    }
    default:
      refuse(shown(head) + " at the start of a statement");
    }
    if (isOperand(name))
      refuse("an inline asm operand at the start of a statement (printed empty, it would leave what "
             "follows as the statement)");
    lex();
    if (tok.is(AsmToken::Colon)) {
      if (StringRef(name).contains('@'))
        refuse("the label '" + name + "' with an '@'");
      facts.labels.push_back(name);
      lex();
      if (tok.is(AsmToken::EndOfStatement))
        lex();
      else
        afterLabel = true;
      return;
    }
    if (tok.is(AsmToken::Equal)) {
      directive = name + " =";
      if (!head.is(AsmToken::Identifier) || name.find('@') != std::string::npos)
        refuse("the assignment to " + shown(head));
      lex();
      AsmExpression value = expression(/*data=*/true);
      end();
      define(name, std::move(value));
      return;
    }
    if (StringRef(name).starts_with(".") && !head.is(AsmToken::Integer)) {
      directiveStatement(start, head, name, first);
      return;
    }
    instruction(start, name);
  }

  // An instruction (or an ARM "name .req reg" and the like): anything the
  // lexer accepts, with the expression limits, no directive name inside and
  // an end a raw scan agrees with.
  void instruction(const char *start, const std::string &mnemonic) {
    directive = mnemonic;
    operands(start);
  }

  void operands(const char *start) {
    while (!atEnd()) {
      if (tok.is(AsmToken::Comma)) {
        lex();
        continue;
      }
      use(expression(/*data=*/false));
    }
    finish(start, /*raw=*/true);
  }

  // Where a raw scan of the statement (LexUntilEndOfStatement) would start
  // the next statement must be where the lexer starts it. Called at the
  // statement's end.
  void agreesWithRawScan(const char *start) {
    StringRef whole(buffer.data(), buffer.size());
    const char *stop = tok.is(AsmToken::Eof) ? whole.end() : tok.getLoc().getPointer();
    if (nextStatement(*target.info, whole, rawStop(*target.info, whole, start)) !=
        nextStatement(*target.info, whole, stop))
      refuse("a statement that a raw scan of its line ends elsewhere ('" + directive +
             "' with a comment or string holding a separator, comment or newline)");
  }

  void directiveStatement(const char *start, const AsmToken &head, const std::string &name, bool first) {
    directive = name;
    const AsmDirective *row = findAsmDirective(name, target.architecture, target.format);
    if (!row)
      refuse("the assembler directive '" + name + "': it is not on llvmplug's allow-list of directives");
    if (row->rule == AsmRule::Refused)
      refuse("the assembler directive '" + name + "' (" + row->reason + ")");
    switch (row->rule) {
    case AsmRule::Refused:
      break;
    case AsmRule::None:
      finish(start, /*raw=*/true);
      break;
    case AsmRule::Words:
    case AsmRule::CfiStart:
      words(start);
      break;
    case AsmRule::Symbols:
      for (;;) {
        symbol(/*defines=*/false);
        if (atEnd())
          break;
        comma();
      }
      finish(start, /*raw=*/true);
      break;
    case AsmRule::Exprs:
      expressions(/*symbols=*/true);
      break;
    case AsmRule::Values:
      expressions(/*symbols=*/false);
      break;
    case AsmRule::Reals:
      reals();
      break;
    case AsmRule::Strings:
      while (!atEnd()) {
        if (!tok.is(AsmToken::String))
          refuse(shown(tok) + " where '" + directive + "' takes a string");
        lex();
        if (tok.is(AsmToken::Comma))
          lex();
      }
      end();
      break;
    case AsmRule::Space: {
      std::uint64_t size = literal("size");
      if (tok.is(AsmToken::Comma)) {
        lex();
        use(expression(true));
      }
      end();
      emitted(size);
      break;
    }
    case AsmRule::Fill: {
      std::uint64_t count = literal("count"), size = 1;
      if (tok.is(AsmToken::Comma)) {
        lex();
        if (!tok.is(AsmToken::Comma))
          size = std::min<std::uint64_t>(literal("size", MaxSmallNumber), 8); // MC clamps it to 8
        if (tok.is(AsmToken::Comma)) {
          lex();
          use(expression(true));
        }
      }
      end();
      emitted(times(count, size));
      break;
    }
    case AsmRule::Nops: {
      std::uint64_t size = literal("size");
      if (tok.is(AsmToken::Comma)) {
        lex();
        literal("control", MaxSmallNumber);
      }
      end();
      emitted(size);
      break;
    }
    case AsmRule::Org: {
      std::uint64_t offset = literal("offset");
      if (tok.is(AsmToken::Comma)) {
        lex();
        use(expression(true));
      }
      end();
      expand(offset);
      break;
    }
    case AsmRule::AlignBytes:
    case AsmRule::AlignPow2:
    case AsmRule::AlignTarget:
      align(row->rule);
      break;
    case AsmRule::Repeat: {
      if (!first || !head.is(AsmToken::Identifier) || StringRef(name) != StringRef(name).lower())
        refuse("'" + name +
               "' after a label, quoted or not in lower case (MC's .rept body scanner "
               "would not see it)");
      std::uint64_t count = std::max<std::uint64_t>(literal("count"), 1); // .rept 0 multiplies nothing away
      end();
      repeats.push_back({count, tok.getLoc().getPointer(), multiplier, statements});
      multiplier = times(multiplier, count);
      break;
    }
    case AsmRule::EndRepeat: {
      if (!first || !head.is(AsmToken::Identifier) || name != ".endr")
        refuse("'" + name +
               "' after a label, quoted or not in lower case (MC's .rept body scanner "
               "would not see it)");
      if (repeats.empty())
        refuse("an '.endr' without its '.rept'");
      Repeat repeat = repeats.back();
      repeats.pop_back();
      StringRef body(repeat.body, start - repeat.body);
      checkRepeatBody(body);
      // The body's text and a diagnostic per statement, assembled `count`
      // times within the enclosing repeats.
      multiplier = repeat.outer;
      std::uint64_t inside = statements - repeat.statements - 1; // not this .endr
      expand(times(add(body.size(), times(inside, DiagnosticBytes)), repeat.count));
      end();
      break;
    }
    case AsmRule::Assign:
      assign();
      break;
    case AsmRule::MipsSet: {
      if (!tok.is(AsmToken::Identifier))
        refuse(shown(tok) + " after '.set'");
      AsmToken option = tok;
      lex();
      if (!tok.is(AsmToken::Comma)) { // .set noreorder, .set arch=mips32r2...
        words(start);
        break;
      }
      if (isOperand(option.getString()) || option.getString().contains('@'))
        refuse("the symbol '" + option.getString().str() + "' defined by '.set'");
      lex();
      AsmExpression value = expression(true);
      end();
      define(option.getString().str(), std::move(value));
      break;
    }
    case AsmRule::Weakref: {
      std::string alias = symbol(/*defines=*/true);
      comma();
      AsmExpression value;
      value.terms = 1;
      value.names.push_back(symbol(false));
      end();
      define(alias, std::move(value));
      break;
    }
    case AsmRule::Comm: {
      std::string name = symbol(/*defines=*/true);
      comma();
      std::uint64_t size = literal("size");
      if (tok.is(AsmToken::Comma)) {
        lex();
        literal("alignment", MaxSmallNumber);
      }
      end();
      facts.labels.push_back(name);
      expand(size);
      break;
    }
    case AsmRule::Type:
      type();
      break;
    case AsmRule::Size:
      symbol(false);
      comma();
      use(expression(true));
      end();
      break;
    case AsmRule::Symver:
      symver();
      break;
    case AsmRule::Section:
      section(start);
      break;
    case AsmRule::SectionSwitch:
      // Subsection 0 only: ARM's ELF streamer crashes on '.rodata 1' (LLVM
      // 23.1.1; found by tests/campaigns/campaign_asm.py).
      if (!atEnd() && literal("subsection", MaxSmallNumber) != 0)
        refuse("a subsection other than 0 in '" + directive + "' (ARM's ELF streamer crashes on one)");
      end();
      break;
    case AsmRule::Ident:
      if (!tok.is(AsmToken::String))
        refuse(shown(tok) + " where '" + directive + "' takes a string");
      lex();
      end();
      break;
    case AsmRule::File:
      file();
      break;
    case AsmRule::Loc:
      loc();
      break;
    case AsmRule::CfiOffset:
      signedLiteral("offset");
      end();
      break;
    case AsmRule::CfiReg:
      cfiRegister();
      end();
      break;
    case AsmRule::CfiRegOffset:
      cfiRegister();
      comma();
      signedLiteral("offset");
      end();
      break;
    case AsmRule::CfiRegReg:
      cfiRegister();
      comma();
      cfiRegister();
      end();
      break;
    case AsmRule::CfiEscape:
      for (;;) {
        literal("byte", 255);
        if (atEnd())
          break;
        comma();
      }
      end();
      break;
    case AsmRule::Insn:
      operands(start);
      break;
    }
  }

  void reals() {
    while (!atEnd()) {
      if (tok.is(AsmToken::Minus) || tok.is(AsmToken::Plus))
        lex();
      bool number = tok.is(AsmToken::Real) || tok.is(AsmToken::Integer);
      bool special = tok.is(AsmToken::Identifier) && (tok.getString().equals_insensitive("inf") ||
                                                      tok.getString().equals_insensitive("infinity") ||
                                                      tok.getString().equals_insensitive("nan"));
      if (!number && !special)
        refuse(shown(tok) + " where '" + directive + "' takes a floating-point literal");
      lex();
      if (!atEnd())
        comma();
    }
    end();
  }

  void align(AsmRule rule) {
    if (atEnd()) { // a bare .align (ARM: 4 bytes)
      end();
      expand(16);
      return;
    }
    std::uint64_t alignment = literal("alignment");
    if (tok.is(AsmToken::Comma)) {
      lex();
      if (!tok.is(AsmToken::Comma) && !atEnd())
        use(expression(true));
      if (tok.is(AsmToken::Comma)) {
        lex();
        literal("maximum");
      }
    }
    end();
    bool bytes = rule == AsmRule::AlignBytes || (rule == AsmRule::AlignTarget && target.alignInBytes);
    expand(bytes ? alignment : power2(alignment));
  }

  void assign() {
    std::string name = symbol(/*defines=*/true);
    comma();
    AsmExpression value = expression(true);
    end();
    define(name, std::move(value));
  }

  // ELFAsmParser::parseDirectiveType: '@' is an identifier character from
  // the symbol's end until the token after the statement's end (unless '@'
  // starts comments).
  void type() {
    symbol(false);
    bool allowed = lexer.getAllowAtInIdentifier();
    if (!target.info->getCommentString().starts_with("@"))
      lexer.setAllowAtInIdentifier(true);
    if (tok.is(AsmToken::Comma))
      lex();
    if (tok.is(AsmToken::At) || tok.is(AsmToken::Percent) || tok.is(AsmToken::Hash))
      lex();
    if (!tok.is(AsmToken::Identifier) && !tok.is(AsmToken::String))
      refuse(shown(tok) + " where '.type' takes a symbol type");
    lex();
    end();
    lexer.setAllowAtInIdentifier(allowed);
  }

  // ELFAsmParser::parseDirectiveSymver: the version name is lexed with '@'
  // in identifiers.
  void symver() {
    symbol(false);
    if (!tok.is(AsmToken::Comma))
      refuse(shown(tok) + " in '.symver' where a ',' belongs");
    bool allowed = lexer.getAllowAtInIdentifier();
    lexer.setAllowAtInIdentifier(true);
    lex();
    lexer.setAllowAtInIdentifier(allowed);
    if (!tok.is(AsmToken::Identifier) || !tok.getString().contains('@'))
      refuse(shown(tok) + " where '.symver' takes name@version");
    lex();
    if (tok.is(AsmToken::Comma)) {
      lex();
      if (!tok.is(AsmToken::Identifier))
        refuse(shown(tok) + " after '.symver'");
      lex();
    }
    end();
  }

  // Names, flags, @types, group names and plain numbers; Mach-O's parser
  // reads the rest of the line raw, so its end must agree with a raw scan.
  void section(const char *start) {
    unsigned count = 0;
    bool afterName = true; // until the first ','
    for (; !atEnd(); lex()) {
      if (++count > MaxWords)
        refuse("more than " + std::to_string(MaxWords) + " tokens after '" + directive + "'");
      // '.pushsection name, N' is subsection N (as '.rodata N' above).
      if (afterName && tok.is(AsmToken::Comma)) {
        afterName = false;
        lex();
        if (tok.is(AsmToken::Integer) || tok.is(AsmToken::BigNum))
          refuse("a subsection number in '" + directive + "' (ARM's ELF streamer crashes on one)");
        if (atEnd())
          break;
      }
      switch (tok.getKind()) {
      case AsmToken::Identifier:
      case AsmToken::String:
      case AsmToken::Comma:
      case AsmToken::Minus:
      case AsmToken::Plus:
      case AsmToken::At:
      case AsmToken::Percent:
      case AsmToken::Hash:
      case AsmToken::Dot:
      case AsmToken::Dollar:
        break;
      case AsmToken::Integer:
        if (tok.getAPIntVal().getActiveBits() > 31)
          throw Failure(LLVMPLUG_ERROR_LIMIT, where + ": the number " + tok.getString().str() + " in '" +
                                                  directive +
                                                  "' is beyond llvmplug's limit of 2^31 under "
                                                  "the safe policy");
        break;
      default:
        refuse(shown(tok) + " in '" + directive + "' (it takes names, flags and plain numbers)");
      }
    }
    finish(start, /*raw=*/target.format == asmscope::MachO);
  }

  // AsmParser::parseDirectiveFile: [number] "name" ["name"] [md5 N] [source "text"].
  void file() {
    if (tok.is(AsmToken::Integer) || tok.is(AsmToken::BigNum)) {
      // MC reads the number from this one token and resizes its line table to it.
      APInt index = tok.getAPIntVal();
      expand(times(index.getActiveBits() > 64 ? Saturated : index.getZExtValue(), 256));
      lex();
    }
    if (!tok.is(AsmToken::String))
      refuse(shown(tok) + " where '.file' takes a file name");
    lex();
    if (tok.is(AsmToken::String))
      lex();
    while (!atEnd()) {
      if (tok.is(AsmToken::Identifier) && tok.getString() == "md5") {
        lex();
        if (!tok.is(AsmToken::Integer) && !tok.is(AsmToken::BigNum))
          refuse(shown(tok) + " where '.file' takes an MD5 number");
        lex();
      } else if (tok.is(AsmToken::Identifier) && tok.getString() == "source") {
        lex();
        if (!tok.is(AsmToken::String))
          refuse(shown(tok) + " where '.file' takes source text");
        lex();
      } else {
        refuse(shown(tok) + " in '.file'");
      }
    }
    end();
  }

  // AsmParser::parseDirectiveLoc: file line [column] [option [value]]...
  void loc() {
    literal("file number", MaxSmallNumber);
    unsigned count = 0;
    for (; !atEnd(); lex()) {
      if (++count > MaxWords)
        refuse("more than " + std::to_string(MaxWords) + " tokens after '.loc'");
      if (tok.is(AsmToken::Integer)) {
        if (tok.getAPIntVal().getActiveBits() > 32)
          throw Failure(LLVMPLUG_ERROR_LIMIT, where + ": the number " + tok.getString().str() +
                                                  " in '.loc' is beyond llvmplug's limit of 2^32 under the "
                                                  "safe policy");
      } else if (!tok.is(AsmToken::Identifier)) {
        refuse(shown(tok) + " in '.loc' (it takes plain numbers and option names)");
      }
    }
    end();
  }

  // What MC's .rept body scanner and expansion would see differently from
  // this reader: the substitutions AsmParser::expandMacro still performs
  // in a body (\@, \+, \() and, on Mach-O, $0-$9, $n and $$).
  void checkRepeatBody(StringRef body) const {
    for (const char *escape : {"\\@", "\\+", "\\("})
      if (body.contains(escape))
        refuse("'" + std::string(escape) +
               "' inside a .rept body (MC substitutes it when expanding the body)");
    if (!target.machO)
      return;
    for (size_t i = body.find('$'); i != StringRef::npos; i = body.find('$', i + 1))
      if (i + 1 < body.size() && (isDigit(body[i + 1]) || body[i + 1] == 'n' || body[i + 1] == '$'))
        refuse("'$" + std::string(1, body[i + 1]) +
               "' inside a Mach-O .rept body (MC substitutes it when expanding the body)");
  }

  struct Repeat {
    std::uint64_t count;
    const char *body;         // where the body's text starts
    std::uint64_t outer;      // the multiplier around it
    std::uint64_t statements; // statements read before the body
  };

  const AsmTarget &target;
  const std::string &where;
  std::string buffer; // the lexer's NUL-terminated copy
  AsmLexer lexer;
  AsmToken tok;
  std::string directive; // the statement being read, for messages
  bool afterLabel = false;
  std::vector<Repeat> repeats;
  std::uint64_t multiplier = 1;
  std::uint64_t statements = 0; // statements read so far
  std::uint64_t braces = 0;     // '{' not yet closed
  AsmFacts facts;
};

} // namespace

AsmFacts readAsmText(StringRef text, const AsmTarget &target, const std::string &where) {
  return Reader(text, target, where).run();
}

} // namespace llvmplug
