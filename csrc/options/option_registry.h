// option_registry.h: the one place in the shim that writes LLVM cl::opt
// (option_shapes.h reads what an option is; option_sharing.h says which
// calls may share a copy's options and how per-call options are scoped).
//
// Why scoping is needed: every cl::opt is a global of this copy of LLVM, so an
// option set for one compile would otherwise stay set for every later one.
// This copy's symbols are hidden, so nothing but this registry can change its
// options; the registry therefore knows the whole state: LLVM's defaults plus
// the sticky settings it recorded. Restoring an option means resetting it to
// its default and re-applying its sticky settings.
//
// Policy: resolve() is also where the option policy (option_policy.h) is
// enforced, so a refused option is never applied, per call or sticky.
//
// Concurrency: cl::opt has no locking. Callers hold the runtime lock
// (runtime.h) for as long as any of these objects is alive.
#ifndef LLVMPLUG_OPTION_REGISTRY_H
#define LLVMPLUG_OPTION_REGISTRY_H

#include "llvmplug.h"
#include "option_policy.h"
#include "option_shapes.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace llvm::cl {
class Option;
}

namespace llvmplug {

// Split a flags string with LLVM's own GNU-style tokenizer (quotes and
// backslashes as in a POSIX shell).
std::vector<std::string> tokenizeFlags(llvm::StringRef flags);

struct Setting {
  llvm::cl::Option *option;
  std::string token; // as the user wrote it, for messages
  std::string value;
};

class OptionRegistry {
public:
  // Resolve tokens to settings without changing anything. Throws Failure
  // (LLVMPLUG_ERROR_OPTION) naming the flag and the closest known names, or
  // naming an option the policy refuses and why.
  std::vector<Setting> resolve(llvm::ArrayRef<std::string> tokens) const;

  // Under the safe policy, refuse a -passes pipeline that names a pass or
  // pass parameter not classed "value" (pass_policy.h). Throws Failure
  // (LLVMPLUG_ERROR_OPTION), or (LLVMPLUG_ERROR_LIMIT) under every policy
  // for a pipeline nested too deep for LLVM's recursive parser.
  void checkPipeline(llvm::StringRef passes) const;

  // Choose the policy for later resolve() calls. Throws Failure
  // (LLVMPLUG_ERROR_OPTION) and changes nothing if a sticky option in force
  // would not be allowed by the new policy.
  void setPolicy(llvmplug_policy policy);
  llvmplug_policy policy() const { return policy_; }

  // The class of one option (option_policy.h) and its value reader: from
  // the tables the build computed (prebuilt.h), else computed. Memoised:
  // computing may read LLVM's help text for the option.
  const Classified &classify(llvm::cl::Option &option) const;

  // Apply settings and keep them for every later compile. All-or-nothing.
  void setSticky(const std::vector<Setting> &settings);

  // Whether a sticky option in force is anything but a value of the compile
  // (possible only under the "all" policy: -time-passes, -stats, -print-*...).
  // Such options use LLVM's process-wide streams and timers in every compile,
  // so compiles must then run one at a time. Read with the runtime lock held.
  bool stickyBeyondValues() const { return stickyBeyondValues_; }

  // Forget every sticky setting; each option returns to its default.
  void clearSticky();

  // JSON array describing the options whose names match a glob pattern.
  std::string describe(llvm::StringRef pattern) const;

private:
  friend class ScopedOptions;
  // Reset each option to its default, then apply the settings in order.
  // Throws Failure on a bad value, leaving the options partly applied.
  static void apply(const std::vector<Setting> &settings);
  // Return each option to its default plus its sticky settings. Never
  // throws (it runs in a destructor): an option whose sticky settings cannot
  // be re-applied (out of memory) is left at its default.
  void restore(llvm::ArrayRef<llvm::cl::Option *> options) const noexcept;
  // The options the settings name, each once, in order.
  static std::vector<llvm::cl::Option *> distinct(const std::vector<Setting> &settings);
  // The registered option of that name, or null.
  static llvm::cl::Option *find(llvm::StringRef name);
  // Throws Failure if the policy refuses the option or this value of it.
  void checkAllowed(llvm::cl::Option &option, llvm::StringRef name, llvm::StringRef value) const;

  std::map<llvm::cl::Option *, std::vector<Setting>> sticky_;
  bool stickyBeyondValues_ = false; // see stickyBeyondValues(); set under the exclusive lock
  llvmplug_policy policy_ = LLVMPLUG_POLICY_SAFE;
  // classify()'s memo. Its own lock: classifying only reads LLVM's options,
  // so it may run in calls that hold the runtime lock shared.
  mutable std::mutex classesLock_;
  mutable std::map<llvm::cl::Option *, Classified> classes_;
};

// Whether -disable-auto-upgrade-debug-info (LLVM's AutoUpgrade.cpp) is in
// force, per call or sticky: LLVM's readers then leave a module's debug info
// as it is, and so does debuginfo.h.
bool debugInfoUpgradeDisabled();

} // namespace llvmplug

#endif
