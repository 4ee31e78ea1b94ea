// machine.h: the one description of the machine a compile builds for.
//
// Whole compiles, each part of a split compile and every ThinLTO stage build
// a TargetMachine; they all build it from a MachineSpec, read once from the
// options in force (LLVM's codegen flags and llc's own, llcflags.h), so that
// no path can configure the machine differently from the others.
#ifndef LLVMPLUG_MACHINE_H
#define LLVMPLUG_MACHINE_H

#include "llvm/Support/CodeGen.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Triple.h"

#include <memory>
#include <optional>
#include <string>

namespace llvm {
class Target;
class TargetMachine;
} // namespace llvm

namespace llvmplug {

struct LlcFlags;

struct MachineSpec {
  llvm::Triple triple;
  std::string cpu, features; // -mcpu, -mattr
  llvm::TargetOptions options;
  std::optional<llvm::Reloc::Model> relocModel;
  std::optional<llvm::CodeModel::Model> codeModel;
  llvm::CodeGenOptLevel codegenLevel = llvm::CodeGenOptLevel::Default;
};

// The machine for `triple` as the options in force (the lock held) and
// llc's flags describe it, generating code at `codegenLevel`.
MachineSpec describeMachine(const llvm::Triple &triple, const LlcFlags &llc,
                            llvm::CodeGenOptLevel codegenLevel);

// `target`'s machine as `spec` describes it. Throws
// Failure(LLVMPLUG_ERROR_TARGET) when the target makes none.
std::unique_ptr<llvm::TargetMachine> createMachine(const llvm::Target &target, const MachineSpec &spec);

} // namespace llvmplug

#endif
