// machine_cache.h: TargetMachines kept between compiles of one copy.
//
// Creating a TargetMachine (and checking the CPU and features against the
// target's tables first) is a large part of the fixed cost of a small
// compile. A machine is configured by the triple, the optimisation level,
// the asm-verbose flag and, through LLVM's cl::opts, everything else (CPU,
// features, TargetOptions, relocation and code model). So an idle machine is
// reused only for the same key, and every idle machine is forgotten whenever
// any option changes (sticky or per call): callers that change options call
// forgetMachines() with the runtime lock held exclusively, and compiles with
// per-call options never return their machine to the cache.
//
// A machine is never shared: take() removes it from the cache, so two
// threads never use one machine at once; the Lease gives it back.
#ifndef LLVMPLUG_MACHINE_CACHE_H
#define LLVMPLUG_MACHINE_CACHE_H

#include <cstdint>
#include <memory>
#include <string>

namespace llvm {
class TargetMachine;
}

namespace llvmplug {

// A machine in use by one compile; returned to the cache on destruction if
// it is reusable and no option changed since it was taken.
class MachineLease {
public:
  MachineLease() = default;
  MachineLease(std::string key, std::unique_ptr<llvm::TargetMachine> machine, bool reusable);
  MachineLease(MachineLease &&) noexcept;
  MachineLease &operator=(MachineLease &&) = delete;
  ~MachineLease();

  llvm::TargetMachine &operator*() const { return *machine_; }
  llvm::TargetMachine *operator->() const { return machine_.get(); }
  explicit operator bool() const { return machine_ != nullptr; }

  // Stop the machine from going back to the cache (e.g. after an error that
  // may have left it half-used).
  void discard() { reusable_ = false; }

private:
  std::string key_;
  std::unique_ptr<llvm::TargetMachine> machine_;
  bool reusable_ = false;
  std::uint64_t generation_ = 0;
};

// An idle machine for `key`, or nullptr. Safe to call from several threads.
std::unique_ptr<llvm::TargetMachine> takeMachine(const std::string &key);

// Destroy every idle machine; machines leased now are not returned. Call it
// with the runtime lock held exclusively, before an option changes and
// before llvm_shutdown.
void forgetMachines();

// Whether machines are reused at all (LLVMPLUG_NO_MACHINE_CACHE=1 in the
// environment when the copy is loaded turns reuse off, to compare outputs
// and timings against fresh machines).
bool machineCacheEnabled();

} // namespace llvmplug

#endif
