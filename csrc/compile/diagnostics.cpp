#include "diagnostics.h"

#include "failure.h"

#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/LLVMContext.h"
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

namespace {

struct KeepWarnings : DiagnosticHandler {
  std::string &warnings;
  explicit KeepWarnings(std::string &warnings) : warnings(warnings) {}
  bool handleDiagnostics(const DiagnosticInfo &info) override {
    warnings += reportDiagnostic(info);
    return true;
  }
};

} // namespace

DiagnosedContext::DiagnosedContext() {
  context.setDiagnosticHandler(std::make_unique<KeepWarnings>(warnings), /*RespectFilters=*/true);
}

struct HeldErrors::Handler : DiagnosticHandler {
  std::string errors;
  DiagnosticHandler *before = nullptr;
  bool handleDiagnostics(const DiagnosticInfo &info) override {
    if (info.getSeverity() != DS_Error)
      return before && before->handleDiagnostics(info);
    raw_string_ostream os(errors);
    DiagnosticPrinterRawOStream printer(os);
    if (!errors.empty())
      os << "; ";
    info.print(printer);
    return true;
  }
};

HeldErrors::HeldErrors(LLVMContext &context) : context_(context), saved_(context.getDiagnosticHandler()) {
  auto handler = std::make_unique<Handler>();
  handler->before = saved_.get();
  mine_ = handler.get();
  context.setDiagnosticHandler(std::move(handler));
}

HeldErrors::~HeldErrors() { context_.setDiagnosticHandler(std::move(saved_), /*RespectFilters=*/true); }

const std::string &HeldErrors::errors() const { return mine_->errors; }

void HeldErrors::check() const {
  if (!mine_->errors.empty())
    throw Failure(LLVMPLUG_ERROR_CODEGEN, "error: " + mine_->errors);
}

} // namespace llvmplug
