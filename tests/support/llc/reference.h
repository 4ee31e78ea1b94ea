// reference.h: what refllc and refopt share: reading the module as llc and
// opt read it, the -repeat timing loop, and writing the output.
#ifndef REFTOOLS_REFERENCE_H
#define REFTOOLS_REFERENCE_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/CodeGen/CommandFlags.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

#include <chrono>
#include <memory>
#include <optional>
#include <string>

// Parses `input` as llc and opt do: once the parser has read the module's
// triple, the target is chosen (-mtriple, else the module's, else the
// host's; -march by name) and `makeMachine` makes the target machine, whose
// data layout the module is parsed with. -mtriple also becomes the module's
// triple. On failure, prints why on stderr (prefixed `tool: `) and returns null.
inline std::unique_ptr<llvm::Module>
parseForTarget(const char *tool, llvm::MemoryBufferRef input, llvm::LLVMContext &context, llvm::StringRef mtriple,
               llvm::function_ref<llvm::TargetMachine *(const llvm::Triple &, const llvm::Target &)> makeMachine,
               std::unique_ptr<llvm::TargetMachine> &machine) {
  using namespace llvm;
  std::string error;
  auto setDataLayout = [&](StringRef moduleTriple, StringRef) -> std::optional<std::string> {
    Triple triple(mtriple.empty() ? moduleTriple.str() : Triple::normalize(mtriple));
    if (triple.getTriple().empty())
      triple.setTriple(sys::getDefaultTargetTriple());
    const Target *target = TargetRegistry::lookupTarget(codegen::getMArch(), triple, error);
    if (!target)
      return std::nullopt;
    machine.reset(makeMachine(triple, *target));
    return machine->createDataLayout().getStringRepresentation();
  };
  SMDiagnostic parseError;
  std::unique_ptr<Module> module = parseIR(input, parseError, context, ParserCallbacks(setDataLayout));
  if (!module || !machine) {
    parseError.print(tool, errs());
    errs() << tool << ": " << error << "\n";
    return nullptr;
  }
  if (!mtriple.empty())
    module->setTargetTriple(Triple(Triple::normalize(mtriple)));
  return module;
}

// Writes `data` to `path` ("-": stdout), keeping the file only when it is
// whole. Returns 0, or 1 after printing "TOOL: why" on stderr.
inline int writeOutput(const char *tool, llvm::StringRef path, llvm::ArrayRef<char> data) {
  std::error_code ec;
  llvm::ToolOutputFile out(path, ec, llvm::sys::fs::OF_None);
  if (ec) {
    llvm::errs() << tool << ": " << ec.message() << "\n";
    return 1;
  }
  out.os() << llvm::StringRef(data.data(), data.size());
  out.keep();
  return 0;
}

// Runs `once(buffer)` `count` times, each into a buffer of its own, and
// prints the mean time per run as "TOOL: mean of N: X us" on stderr. Returns
// the first non-zero status of a run, else 0.
template <class Once> int repeatAndTime(const char *tool, unsigned count, Once once) {
  auto start = std::chrono::steady_clock::now();
  for (unsigned i = 0; i < count; ++i) {
    llvm::SmallVector<char, 0> again;
    if (int status = once(again))
      return status;
  }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  llvm::errs() << tool << ": mean of " << count << ": " << llvm::format("%.1f", seconds / count * 1e6) << " us\n";
  return 0;
}

#endif
