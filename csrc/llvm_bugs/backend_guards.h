// backend_guards.h: refuse IR that is known to crash or hang an LLVM 23.1.1
// backend, before code generation sees it.
//
// A segfault inside LLVM kills the process that runs it; these are LLVM bugs
// that plausible IR reaches (tests/campaigns/campaign_backends.py found or confirmed
// each, and tests/data/backend_crashers/ keeps a module for each). Each guard
// is a cheap walk over the optimised module that recognises one bug as
// narrowly as it is understood, so that IR the backend handles still
// compiles; what no guard recognises still needs Plugin(isolation="process").
#ifndef LLVMPLUG_BACKEND_GUARDS_H
#define LLVMPLUG_BACKEND_GUARDS_H

namespace llvm {
class Module;
class TargetMachine;
} // namespace llvm

namespace llvmplug {

// Throws Failure(LLVMPLUG_ERROR_TARGET) naming the backend and the LLVM bug
// when `module`, about to be compiled by `machine` to an object (`object`)
// or assembly, is one a guard recognises. Reads only; call it after the IR
// pipeline, right before code generation.
void refuseKnownBackendCrashes(const llvm::Module &module, const llvm::TargetMachine &machine, bool object);

} // namespace llvmplug

#endif
