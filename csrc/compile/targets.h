// targets.h: the backends this copy carries, and llc's way of picking one.
//
// The set is fixed at build time (LLVMPLUG_TARGETS in CMake, default all):
// cmake/LLVMPlugLLVM.cmake links their libraries and generates the list
// that initializeTargets() registers.
#ifndef LLVMPLUG_TARGETS_H
#define LLVMPLUG_TARGETS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/TargetParser/Triple.h"

#include <string>
#include <vector>

namespace llvm {
class MCSubtargetInfo;
class Module;
class Target;
} // namespace llvm

namespace llvmplug {

// Register every linked backend with LLVM's TargetRegistry: target info, MC
// layer, code generator, assembly printer and, where the backend has one,
// its assembly parser (inline assembly). Call once, with the runtime lock.
void initializeTargets();

// The names of the linked backends, as in LLVMPLUG_TARGETS ("X86", "NVPTX").
std::vector<std::string> linkedTargets();

struct TargetChoice {
  llvm::Triple triple;
  const llvm::Target *target;
};

// Choose the target as llc does: the requested triple (the call's target or
// -mtriple), else the module's, else the host's; then -march, if given,
// picks the backend by name and overrides the triple's architecture (so a
// module without a triple and -march=nvptx64 compiles for NVPTX). Throws
// Failure(LLVMPLUG_ERROR_TARGET) for an unknown triple or -march, and
// Failure(LLVMPLUG_ERROR_OPTION) for a -march that names another
// architecture or backend than a requested triple (it may repeat it).
TargetChoice chooseTarget(llvm::StringRef requested, llvm::StringRef moduleTriple, llvm::StringRef march);

// LLVM only warns on stderr about an unknown CPU or CPU feature and then
// ignores it, so a compile for the wrong CPU would be a silent wrong result.
// Check a CPU, tuning CPU and features (-mcpu, -mtune, -mattr) against the
// target's tables; `where` is added to the message. Features are
// "+name"/"-name". Throws Failure(LLVMPLUG_ERROR_TARGET).
void checkCPUAndFeatures(const llvm::Triple &triple, const llvm::Target &target, llvm::StringRef cpu,
                         llvm::StringRef tuneCPU, llvm::ArrayRef<std::string> features,
                         llvm::StringRef where);

// The same for the "target-cpu", "tune-cpu" and "target-features"
// attributes of every function of `module`, and the CPU and features of its
// module asm, with one difference: a "-name" feature the target does not
// know is removed rather than refused. It disables nothing, and older
// clangs list features under names LLVM 23 dropped (clang 19 puts
// -experimental-smmpm in every RISC-V function); LLVM would print a warning
// for each. An unknown CPU or "+name" is refused as for the flags.
void checkFunctionTargets(llvm::Module &module, const llvm::Triple &triple, const llvm::Target &target);

// closestNames (messages.h) over the CPUs `info` knows.
std::string closestCPUs(const llvm::MCSubtargetInfo &info, llvm::StringRef cpu);

// The vendor, OS and environment of `triple` that LLVM parses as unknown
// although the text names something ("environment 'gnuu'"): Triple reads a
// typo as "unknown" and the compile silently targets a generic system.
std::vector<std::string> unknownComponents(llvm::StringRef triple);

// llvmplug_target_info's JSON for one triple ("" means the host's), with
// "unknown_components" from unknownComponents.
std::string describeTarget(llvm::StringRef triple);

} // namespace llvmplug

#endif
