// target_checks.h: what the module says about its target, against the
// target it is compiled for, checked before any code is generated.
//
// A module is written for one target. Compiled for another, it either stops
// inside a backend with a fatal error that names neither the function nor
// the clash (AArch64's "unsupported calling convention", any backend's
// "Cannot select: intrinsic %llvm.nvvm..."), which poisons an in-process
// copy, or compiles quietly into something else (X86 reads ptx_kernel as
// the C convention). These checks name the function and what belongs to
// which target instead, or warn where the result may still work.
#ifndef LLVMPLUG_TARGET_CHECKS_H
#define LLVMPLUG_TARGET_CHECKS_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace llvm {
class DataLayout;
class Module;
class TargetMachine;
class Triple;
} // namespace llvm

namespace llvmplug {

// A warning line when the module names a target triple other than the one
// it is compiled for (clang's -Woverride-module): another architecture, OS,
// environment or object format. "" when they agree or the module names none.
std::string overriddenTriple(llvm::StringRef moduleTriple, const llvm::Triple &chosen);

// The module's `target datalayout` against the target's, as llc would
// silently replace it. Throws Failure(LLVMPLUG_ERROR_TARGET) where they
// disagree on what IR text bakes in (byte order, the size of a pointer in an
// address space the module names, where allocas, code and globals live),
// and Failure(LLVMPLUG_ERROR_PARSE) for a layout LLVM cannot read; returns
// a warning line where only the alignment of a type differs; "" otherwise
// (and for a module without a layout). The module's layout is first
// upgraded for its own triple, as LLVM's readers upgrade an older one.
std::string checkDataLayout(llvm::StringRef moduleLayout, llvm::StringRef moduleTriple,
                            const llvm::Triple &triple, const llvm::DataLayout &target);

// Every function's calling convention, every call's, and every target
// intrinsic the module calls, against `triple`'s backend: a convention the
// backend was not measured to compile (calling_conventions.inc), or another
// target's, and another target's intrinsic (llvm.nvvm.* for x86) are
// Failure(LLVMPLUG_ERROR_TARGET) naming the function.
void checkTargetSpecifics(const llvm::Module &module, const llvm::Triple &triple);

// For NVPTX and AMDGPU, whose output is marked for the target machine's CPU
// (PTX's .target, the code object's e_flags) whatever the functions say: a
// warning line naming the functions whose "target-cpu" differs from it and
// the -mcpu to pass; "" otherwise.
std::string gpuCpuMismatch(const llvm::Module &module, const llvm::TargetMachine &machine,
                           llvm::StringRef requestedCPU);

// Under the safe policy: a module whose code generation would read a file of
// this machine because its IR names it. BPF's BTF writer (BTFDebug::
// populateFileContent) copies each line of a DIFile without `source:` from
// `directory/filename` on the host into .BTF.ext's line info, so IR could
// carry any readable file (or block on a FIFO) into the object. Such a file
// that exists here is Failure(LLVMPLUG_ERROR_OPTION) naming it: then the
// output never depends on this machine's files, with or without the kernel
// sandbox (which makes the read fail, as for a file that does not exist).
void refuseHostFileReads(const llvm::Module &module, const llvm::Triple &triple);

} // namespace llvmplug

#endif
