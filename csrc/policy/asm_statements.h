// asm_statements.h: one assembler text read statement by statement with
// LLVM's own lexer (llvm/MC/MCParser/AsmLexer.h) and the target's
// MCAsmInfo, each directive checked against its row in asm_directives.def.
//
// Why LLVM's lexer: comment strings, '@' and '#', statement separators,
// integer syntaxes and C comments differ per target; a hand-written scan
// drifts from them (".file /**/ 4294967295" hid a number from one). The
// reader drives the lexer as AsmParser::parseStatement does: it consumes the
// first token before looking for ':' or '=', treats a quoted name as the
// statement's name, toggles '@' in identifiers where the ELF parser toggles
// it (.type, .symver), and refuses what it cannot mirror: a directive that
// leaves tokens behind (MC would start a new statement there), a directive
// name inside an instruction (a target parser that stops early would run
// it), a statement whose end a raw-text scan (LexUntilEndOfStatement, which
// some parsers use) would place elsewhere, and a .rept whose body MC's body
// scanner would delimit differently.
//
// It reports what the module-wide checks need (asm_policy.cpp): bytes the
// text may expand to, symbol definitions and the expressions that use them.
#ifndef LLVMPLUG_ASM_STATEMENTS_H
#define LLVMPLUG_ASM_STATEMENTS_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>
#include <vector>

namespace llvm {
class MCAsmInfo;
}

namespace llvmplug {

// What the reader needs to know of the target and the text's dialect.
struct AsmTarget {
  const llvm::MCAsmInfo *info = nullptr;
  std::uint32_t architecture = 0; // asmscope bits (asm_directives.h)
  std::uint32_t format = 0;
  bool alignInBytes = true;   // .align N pads to N bytes (else to 2^N)
  bool machO = false;         // .rept bodies substitute $0-$9, $n and $$
  bool masmIntegers = false;  // x86 Intel dialect: AsmPrinter lexes 10h, 1010b...
  std::uint64_t sizeUnit = 1; // .space/.fill sizes must be multiples of it (4 on AMDGPU)
};

// An expression as the checks see it: its tokens, bracket depth and the
// names it refers to (symbols, registers and words alike).
struct AsmExpression {
  std::uint64_t terms = 0;
  std::uint64_t depth = 0;
  std::vector<std::string> names;
  bool localLabel = false; // refers to a directional label ("1f", "1b")
  bool location = false;   // refers to '.', the location counter
};

struct AsmDefinition {
  std::string name; // a symbol made a variable (.set, =, .equ, .equiv, .weakref)
  AsmExpression value;
};

struct AsmFacts {
  std::uint64_t expansion = 0;            // bytes of padding, fill and repeated text, at most
  std::vector<AsmDefinition> definitions; // in text order
  std::vector<std::string> labels;        // other symbols it defines (labels, .comm)
  struct Use {
    AsmExpression expression;
    std::uint64_t times; // how often .rept assembles it
  };
  std::vector<Use> uses; // every expression MC evaluates
};

// Reads `text` for `target` (a NUL in it is a space to MC's lexer, as in
// module asm; AsmPrinter cuts inline asm at one before). Throws Failure prefixed with `where`:
// LLVMPLUG_ERROR_OPTION for what the safe policy refuses, naming the directive or construct,
// LLVMPLUG_ERROR_LIMIT for a size, count or expression beyond the limits.
AsmFacts readAsmText(llvm::StringRef text, const AsmTarget &target, const std::string &where);

} // namespace llvmplug

#endif
