// option_sharing.h: who may share a copy of LLVM's options, and how per-call
// options are scoped (the contract Triton keeps in LLVMOptions.h).
//
// Every cl::opt is a global of the copy, read by every compile running in
// it. A compile holds the runtime lock (runtime.h) shared or exclusively;
// which one it takes, compileModule decides (compiler.cpp) by this contract:
//
//   per call    Options given to one compile (-mllvm style flags). Compiles
//               holding the lock shared whose per-call options are the same
//               set run together (OptionGroups); another set waits until the
//               copy is idle. Only options of the "value" class
//               (option_policy.h) share this way.
//   sticky      Options kept for every later compile (OptionRegistry::
//               setSticky) and the policy itself change only under the
//               exclusive lock, so every compile reads them alike and may
//               share the copy.
//   run alone   A compile holds the lock exclusively when
//               - a per-call option is beyond "value" (-time-passes, -stats,
//                 -print-*..., allowed only under the "all" policy): such
//                 options write LLVM's process-wide streams and timers;
//               - a sticky option in force is beyond "value"
//                 (OptionRegistry::stickyBeyondValues()), for the same reason;
//               - its target writes options itself (targetWritesOptions):
//                 those options (WrittenByTargets) are reset before and
//                 restored after each compile that runs alone.
//
// With no compile running, every option is at its default plus the sticky
// settings.
#ifndef LLVMPLUG_OPTION_SHARING_H
#define LLVMPLUG_OPTION_SHARING_H

#include "option_registry.h"

#include <condition_variable>
#include <cstddef>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class Triple;
}

namespace llvmplug {

// Options that LLVM's targets themselves write while compiling. Measured
// (every registered option's value snapshotted around compiles of every
// backend, for a dozen CPUs each, tests/test_concurrency.py keeps the
// method): WebAssembly, PowerPC, Hexagon, BPF, AVR and Lanai lowering call
// setMinimumJumpTableEntries(), which assigns the global
// -min-jump-table-entries (2, 64, 5, 13, UINT_MAX, 100), so a PowerPC compile
// changed every later x86 compile of the copy; Hexagon's tiny cores also set
// -disable-const64. Each call that runs alone starts these from their
// default (plus sticky settings) and restores them afterwards, like the
// caller's own options; compiles for the targets that write them run alone
// (targetWritesOptions), so no compile reads them while one writes.
inline constexpr const char *WrittenByTargets[] = {"min-jump-table-entries", "disable-const64"};

// Whether compiling for `triple` writes options of its own (WrittenByTargets):
// such a compile must hold the runtime lock exclusively.
bool targetWritesOptions(const llvm::Triple &triple);

// Per-call options: applied on construction, restored on destruction, on
// success and on failure alike.
class ScopedOptions {
public:
  // alone: the call holds the runtime lock exclusively, so the options that
  // targets write themselves (WrittenByTargets) are reset and restored too.
  // Under the shared lock they are left alone: only exclusive calls write
  // them, and each restores them (compiler.cpp runs such targets alone).
  ScopedOptions(const OptionRegistry &registry, const std::vector<Setting> &settings, bool alone);
  ~ScopedOptions();
  ScopedOptions(const ScopedOptions &) = delete;
  ScopedOptions &operator=(const ScopedOptions &) = delete;

private:
  const OptionRegistry &registry_;
  std::vector<llvm::cl::Option *> touched_;
};

// Compiles holding the runtime lock shared that set the same per-call
// options run together; a different set waits until the copy is idle
// (Triton's rule for its scoped LLVM options). The first call of a group
// applies the options, the last one restores them, so no call reads options
// another set, and with no compile running every option is at its default
// plus sticky settings. A call without per-call options is the group of the
// empty set.
class OptionGroups {
public:
  // Blocks until the call may run with `settings` (whose optionSetKey is
  // `key`) in force. Throws Failure if they cannot be applied; then the call
  // has not entered.
  void enter(const OptionRegistry &registry, const std::vector<Setting> &settings, const std::string &key);
  void leave() noexcept;

private:
  // How many calls of the running set may join after another set began to
  // wait.
  static constexpr size_t Burst = 16;
  size_t waitingTotal() const;

  std::mutex lock_;
  std::condition_variable changed_;
  std::string current_;
  size_t inside_ = 0;
  size_t admitted_ = 0;
  std::map<std::string, size_t> waiting_;
  std::optional<ScopedOptions> scope_;
};

// The group key of a set of settings: equal for the same options given the
// same values in the same order.
std::string optionSetKey(const std::vector<Setting> &settings);

// This copy's groups (one per loaded copy, like the runtime lock).
OptionGroups &optionGroups();

} // namespace llvmplug

#endif
