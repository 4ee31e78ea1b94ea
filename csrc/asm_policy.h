// asm_policy.h: the safe policy over assembler text in the IR (module asm
// and inline asm in function bodies).
//
// Why: LLVM hands that text to its MC assembler (AsmPrinter::emitInlineAsm
// when generating code; ModuleSymbolTable::CollectAsmSymbols, for module
// asm, when writing bitcode's symbol table, building a ThinLTO summary or
// deciding whether a module may be split), and the assembler reads host
// files (.incbin, .include), writes them (.secure_log_unique), prints
// (.print), sizes tables by a number (.file N, .cv_func_id N) and expands
// text without bound (.rept, macros, .fill/.space and alignment padding). A
// module is input like any other, so under the safe policy its assembler
// text is checked before LLVM sees it.
//
// Why a check of the text and not a hook in LLVM: LLVM 23's SourceMgr does
// take a vfs::FileSystem, and the MCContext of our own emit could be given
// an empty one, but the assembler that CollectAsmSymbols builds has a
// SourceMgr of its own that no caller can reach, and .rept expands inside
// the parser with no callback at all. Only the text is ours to look at
// before any of that runs, so the text is what is checked.
// The check is built to fail closed:
//  - directive names are found wherever a '.' starts them, case-insensitively,
//    in comments and strings too (a false alarm there costs a refusal, a miss
//    would cost the host);
//  - nothing may build a directive name: macros (.macro, .irp, .irpc,
//    .altmacro...) are refused, and so are the substitutions a .rept body
//    still performs (\(), \@, \+, and $0-$9/$n/$$ on Mach-O), and inline asm
//    operands glued to a word ("$0" printing a symbol named "bin" after
//    ".inc"), and symbol operands whose names are not plain identifiers;
//  - every count that makes output or repeats text is a plain decimal or 0x
//    literal (else LimitError: it cannot be bounded without evaluating it),
//    and the worst case (every .rept count multiplied, every alignment at
//    its largest padding) must stay within MaxAsmExpansion.
// Targets without an MC assembly parser (NVPTX, SPIR-V...) never parse asm
// text: it is printed as it is, and not checked.
#ifndef LLVMPLUG_ASM_POLICY_H
#define LLVMPLUG_ASM_POLICY_H

#include "llvmplug.h"

#include <cstdint>

namespace llvm {
class Function;
class Module;
class TargetMachine;
} // namespace llvm

namespace llvmplug {

// What the assembler text of one module may expand to, in bytes, all of it
// together: text repeated by .rept (text size times the counts), and bytes of
// .fill/.space/.skip/.zero/.org/.ds/.dcb/.nops and alignment padding.
constexpr std::uint64_t MaxAsmExpansion = std::uint64_t(64) << 20;
// Deepest nesting of brackets and unary operators in an assembler
// expression (MC's expression parser recurses on both).
constexpr unsigned MaxAsmExpressionDepth = 1000;

struct AsmRules {
  bool check = false;       // the safe policy, for a target that assembles asm text
  bool alignInBytes = true; // .align N pads to N bytes (else to 2^N)
  bool machO = false;       // .rept bodies substitute $0-$9, $n and $$
};

// The rules for compiles under `policy` for the target of `machine`.
AsmRules asmRulesFor(llvmplug_policy policy, const llvm::TargetMachine &machine);

// Check the module asm and every inline asm call in the module's
// materialised functions, each call site counted (inlining and unrolling copy
// them). Throws Failure: LLVMPLUG_ERROR_OPTION for what the safe policy
// refuses (naming the directive or construct), LLVMPLUG_ERROR_LIMIT for a
// count that is not a literal or a total beyond MaxAsmExpansion.
void checkModuleAsm(const llvm::Module &module, const AsmRules &rules);

// The same for the inline asm of one function (a lazily loaded function,
// when it is materialised).
void checkFunctionAsm(const llvm::Function &function, const AsmRules &rules);

} // namespace llvmplug

#endif
