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

#include <string>

namespace llvm {
class DiagnosticInfo;
}

namespace llvmplug {

// "warning: ...\n" (or remark, note) for `info`; throws
// Failure(LLVMPLUG_ERROR_CODEGEN) for an error.
std::string reportDiagnostic(const llvm::DiagnosticInfo &info);

} // namespace llvmplug

#endif
