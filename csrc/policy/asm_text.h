// asm_text.h: the text LLVM's assembler reads for an inline asm call, made
// as AsmPrinter makes it (llvm/lib/CodeGen/AsmPrinter/AsmPrinterInlineAsm.cpp,
// EmitInlineAsmStr and PrintSpecial in LLVM 23.1.1).
//
// Why: the string in the IR is not what the assembler reads. AsmPrinter
// drops "$$" to nothing in the Intel dialect (to "$" in the GCC one), keeps
// one variant of "$(a$|b$)", prints operands in place of "$N" and
// "${N:modifier}", the private-label prefix for "${:private}", the comment
// string for "${:comment}" and a counter for "${:uid}", stops at a NUL, and
// wraps Intel text in .intel_syntax/.att_syntax. A check of the IR string
// checks another text (".inc$$bin" is .incbin to an Intel-dialect call).
//
// Operands are not known before code generation (registers, immediates,
// symbol names), so each one becomes the placeholder AsmOperand: one
// identifier the statement checks know. An operand touching a word
// character or a dot on either side is refused here: it could complete a
// directive name (".inc" then a symbol named "bin") or, printing nothing,
// let the text around it join. So is every form AsmPrinter rejects with a
// fatal error (an unknown ${:special}, a bad or out-of-range operand number,
// nested or unterminated variants).
#ifndef LLVMPLUG_ASM_TEXT_H
#define LLVMPLUG_ASM_TEXT_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace llvm {
class DataLayout;
class InlineAsm;
class TargetMachine;
} // namespace llvm

namespace llvmplug {

// What an inline asm operand becomes in the checked text.
constexpr const char *AsmOperand = "__llvmplug_operand";
// What ${:uid} becomes: a counter AsmPrinter prints in decimal, never larger
// than this (so a count made of it is bounded from above).
constexpr const char *AsmUidValue = "99999999";

// The text the assembler reads for `code`, as AsmPrinter prints it for
// `machine`'s target and `layout` (the private prefix). Throws Failure
// (LLVMPLUG_ERROR_OPTION, prefixed with `where`) for what it refuses.
std::string inlineAsmText(const llvm::InlineAsm &code, const llvm::TargetMachine &machine,
                          const llvm::DataLayout &layout, const std::string &where);

} // namespace llvmplug

#endif
