#include "diagnostics.h"

#include "failure.h"

#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace llvmplug {

std::string reportDiagnostic(const DiagnosticInfo &info) {
  std::string text;
  raw_string_ostream os(text);
  DiagnosticPrinterRawOStream printer(os);
  info.print(printer);
  switch (info.getSeverity()) {
  case DS_Error:
    throw Failure(LLVMPLUG_ERROR_CODEGEN, "error: " + text);
  case DS_Warning:
    return "warning: " + text + "\n";
  case DS_Remark:
    return "remark: " + text + "\n";
  case DS_Note:
    return "note: " + text + "\n";
  }
  return text + "\n";
}

} // namespace llvmplug
