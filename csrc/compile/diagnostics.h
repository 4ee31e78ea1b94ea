// diagnostics.h: what llvmplug makes of one LLVM diagnostic.
//
// The first error ends the call: LLVM would otherwise print it and go on,
// and after some errors it goes on to crash (e.g. "SSE2 register return with
// SSE2 disabled", then a segfault in the x87 stackifier). Like a fatal error,
// the throw unwinds through LLVM frames that run no destructors, so the
// copy's state is suspect afterwards (see runtime.cpp). Warnings, remarks and
// notes become lines of the result's message.
#ifndef LLVMPLUG_DIAGNOSTICS_H
#define LLVMPLUG_DIAGNOSTICS_H

#include "llvm/IR/DiagnosticHandler.h"
#include "llvm/IR/LLVMContext.h"

#include <memory>
#include <string>

namespace llvm {
class DiagnosticInfo;
} // namespace llvm

namespace llvmplug {

// "warning: ...\n" (or remark, note) for `info`; throws
// Failure(LLVMPLUG_ERROR_CODEGEN) for an error.
std::string reportDiagnostic(const llvm::DiagnosticInfo &info);

// The context of one module (or part): its diagnostics go through
// reportDiagnostic, so the first error throws and the rest are kept in
// `warnings` for the result's message. It respects the -pass-remarks*
// filters: otherwise every remark LLVM can produce (e.g. asm-printer's
// instruction counts) reaches the handler.
struct DiagnosedContext {
  DiagnosedContext();
  DiagnosedContext(const DiagnosedContext &) = delete;
  DiagnosedContext &operator=(const DiagnosedContext &) = delete;
  llvm::LLVMContext context;
  std::string warnings;
};

// While alive, errors reported to `context` are kept instead of thrown, for
// calls into LLVM that hold state a throw would strand: SplitModule's value
// map (its handles stay registered on the module's values and crash the
// module's destructor) and the linker's mover. LLVM goes on after such an
// error (a module asm that does not assemble only leaves its symbols out of
// a bitcode symbol table); the caller throws once the call has returned.
// Warnings still reach the handler that was there before.
class HeldErrors {
public:
  explicit HeldErrors(llvm::LLVMContext &context);
  ~HeldErrors();
  HeldErrors(const HeldErrors &) = delete;
  HeldErrors &operator=(const HeldErrors &) = delete;
  // The errors so far, "; "-separated ("" if none).
  const std::string &errors() const;
  // Throws Failure(LLVMPLUG_ERROR_CODEGEN, "error: ...") if there was an error.
  void check() const;

private:
  llvm::LLVMContext &context_;
  std::unique_ptr<llvm::DiagnosticHandler> saved_;
  struct Handler;
  Handler *mine_;
};

} // namespace llvmplug

#endif
