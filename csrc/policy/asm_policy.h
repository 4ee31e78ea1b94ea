// asm_policy.h: the safe policy over assembler text in the IR (module asm
// and inline asm in function bodies).
//
// Why: LLVM hands that text to its MC assembler (AsmPrinter::emitInlineAsm
// when generating code; ModuleSymbolTable::CollectAsmSymbols, for module
// asm, when writing bitcode's symbol table, building a ThinLTO summary or
// deciding whether a module may be split), and the assembler reads host
// files (.incbin, .include), writes them (.secure_log_unique), prints
// (.print), sizes tables by a number (.file N), expands text without bound
// (.rept, macros, .fill/.space and alignment padding), evaluates
// expressions recursively (deep or long ones overflow the stack, chains of
// .set grow exponentially, a cycle never ends) and crashes on directives its
// streamers do not expect (.cv_filechecksumoffset, .pseudoprobe; most
// statements on XCOFF and WebAssembly). A module is input like any other, so
// under the safe policy its assembler text is checked before LLVM sees it.
//
// Why a check of the text and not a hook in LLVM: the assembler that
// CollectAsmSymbols builds has a SourceMgr of its own that no caller can
// reach, and .rept expands inside the parser with no callback at all. Only
// the text is ours to look at before any of that runs.
//
// How, failing closed:
//  - inline asm is checked as the assembler will see it: after AsmPrinter's
//    substitutions for the call's dialect (asm_text.h);
//  - it is read with MC's own lexer for the target, statement by statement
//    as MC's parser reads it (asm_statements.h);
//  - every directive is looked up in one reviewed table
//    (asm_directives.def): one it does not allow is an OptionError naming it;
//  - sizes, counts, alignments and table indexes are plain integer literals,
//    their total within MaxAsmExpansion; expressions, symbol definitions and
//    the depth of their dependencies are bounded (LimitError), and a symbol
//    definition may refer only to symbols defined before it, so no cycle
//    can form (this file).
// On WebAssembly, XCOFF (AIX) and GOFF (z/OS) no statement is accepted:
// their streamers crash on ordinary ones (a sweep found 118 crashing
// directive/argument pairs on wasm32, 70 on AIX, among them `.byte x` and
// `.globl x`), and z/OS reads HLASM, which this reader does not model.
// Targets without an MC assembly parser (NVPTX, SPIR-V, XCore) never parse
// asm text: it is printed as it is, and not checked.
#ifndef LLVMPLUG_ASM_POLICY_H
#define LLVMPLUG_ASM_POLICY_H

#include "llvmplug.h"

#include <cstdint>
#include <string>

namespace llvm {
class Function;
class Module;
class TargetMachine;
} // namespace llvm

namespace llvmplug {

// What the assembler text of one module may expand to, in bytes, all of it
// together: text repeated by .rept (text size times the counts), bytes of
// .fill/.space/.skip/.zero/.org/.nops and alignment padding, the sizes of
// .comm/.lcomm symbols and 256 bytes per .file number (MC's line table).
constexpr std::uint64_t MaxAsmExpansion = std::uint64_t(64) << 20;
// Deepest nesting of brackets and unary operators in an assembler
// expression (MC's expression parser recurses on both).
constexpr unsigned MaxAsmExpressionDepth = 1000;
// Most tokens in one expression, the symbols it uses expanded to their
// definitions (MC evaluates the tree recursively, through symbols).
constexpr unsigned MaxAsmExpressionTerms = 4096;
// Longest chain of symbol definitions each using the one before.
constexpr unsigned MaxAsmSymbolDepth = 64;
// Most symbol definitions (.set, =, .equ, .equiv, .weakref) in one module.
constexpr unsigned MaxAsmSymbols = 65536;
// All expression terms MC evaluates in one module, every use counted (each
// .rept iteration and inline asm call).
constexpr std::uint64_t MaxAsmEvaluation = std::uint64_t(16) << 20;

struct AsmRules {
  bool check = false;                           // the safe policy, for a target that assembles asm text
  const llvm::TargetMachine *machine = nullptr; // the compile's: its MCAsmInfo and triple
};

// Every refusal of asm text: Failure(LLVMPLUG_ERROR_OPTION) saying where,
// what, and that policy="all" would assemble it.
[[noreturn]] void refuseAsm(const std::string &where, const std::string &what);

// The rules for compiles under `policy` for the target of `machine`, which
// must outlive them.
AsmRules asmRulesFor(llvmplug_policy policy, const llvm::TargetMachine &machine);

// Check the module asm and every inline asm call in the module's
// materialised functions, each call site counted (inlining and unrolling copy
// them). Throws Failure: LLVMPLUG_ERROR_OPTION for what the safe policy
// refuses (naming the directive or construct), LLVMPLUG_ERROR_LIMIT for a
// size, count or expression beyond the limits above.
void checkModuleAsm(const llvm::Module &module, const AsmRules &rules);

// The same for the inline asm of one function (a lazily loaded function,
// when it is materialised); the module's check runs again before code
// generation with every function.
void checkFunctionAsm(const llvm::Function &function, const AsmRules &rules);

} // namespace llvmplug

#endif
