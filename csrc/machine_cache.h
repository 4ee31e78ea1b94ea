// machine_cache.h: TargetMachines, with their codegen pipelines, kept
// between compiles of one copy.
//
// Most of the fixed cost of a small compile is setting up code generation:
// building the legacy pass pipeline of addPassesToEmitFile (about 0.37 ms of
// an empty module's 0.52 ms at -O2), creating the TargetMachine and checking
// the CPU and features against the target's tables. A Machine keeps all of
// it, and its object-file pipeline is run again on the next module, as llc's
// -compile-twice does (codegen passes re-initialise per module; the
// MCContext is reset at the end of each run). Assembly pipelines are not
// reused: the assembly streamer keeps its current section across runs.
//
// What configures a machine: the triple, the optimisation level, the
// asm-verbose flag (the key) and, through LLVM's cl::opts, everything else
// (CPU, features, TargetOptions, relocation and code model, vector library).
// So an idle machine is reused only for the same key, and every idle machine
// is forgotten whenever any option changes (sticky or per call): callers
// that change options call forgetMachines() with the runtime lock held
// exclusively, and a compile with per-call options never returns its machine.
//
// A machine is never shared: takeMachine() removes it from the cache, so two
// threads never use one machine at once; the lease gives it back, unless the
// compile failed (LLVM may have stopped half-way through its pipeline).
#ifndef LLVMPLUG_MACHINE_CACHE_H
#define LLVMPLUG_MACHINE_CACHE_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/Support/CodeGen.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

#include <cstdint>
#include <memory>
#include <string>

namespace llvm {
class Module;
}

namespace llvmplug {

struct Machine {
  explicit Machine(std::unique_ptr<llvm::TargetMachine> target) : target(std::move(target)) {}
  std::unique_ptr<llvm::TargetMachine> target;
  // The codegen pipeline, once built, for `type`, writing to `stream` (over
  // `buffer`). Declared after `target`: destroyed before it.
  llvm::SmallVector<char, 0> buffer;
  std::unique_ptr<llvm::raw_svector_ostream> stream;
  std::unique_ptr<llvm::legacy::PassManager> codegen;
  llvm::CodeGenFileType type = llvm::CodeGenFileType::ObjectFile;
};

// A machine in use by one compile; returned to the cache on destruction if
// it is reusable, no option changed since it was leased, and no exception
// is unwinding through the compile.
class MachineLease {
public:
  MachineLease(std::string key, std::unique_ptr<Machine> machine, bool reusable);
  MachineLease(MachineLease &&) noexcept;
  MachineLease &operator=(MachineLease &&) = delete;
  ~MachineLease();

  llvm::TargetMachine &operator*() const { return *machine_->target; }
  llvm::TargetMachine *operator->() const { return machine_->target.get(); }

  // Generate an object or assembly file for `module` (whose triple and data
  // layout are this machine's), building the codegen pipeline on first use
  // and running it again afterwards. Throws Failure.
  std::string generate(llvm::Module &module, llvm::CodeGenFileType type);

  // Whether this machine may go back to the cache (and so may run a kept
  // pipeline): false for compiles that configure it beyond its key.
  bool reusable() const { return reusable_; }

private:
  std::string key_;
  std::unique_ptr<Machine> machine_;
  bool reusable_;
  std::uint64_t generation_;
  int exceptions_; // std::uncaught_exceptions() when leased
};

// An idle machine for `key`, or nullptr. Safe to call from several threads.
std::unique_ptr<Machine> takeMachine(const std::string &key);

// Destroy every idle machine; machines leased now are not returned. Call it
// with the runtime lock held exclusively, before an option changes and
// before llvm_shutdown.
void forgetMachines();

// Whether machines are reused at all: LLVMPLUG_NO_MACHINE_CACHE=1 in the
// environment of the process that first compiles turns reuse off, to
// compare outputs and timings with fresh machines.
bool machineCacheEnabled();

} // namespace llvmplug

#endif
