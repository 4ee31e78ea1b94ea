// messages.h: texts several layers say alike, in one place.
//
// Why here, at the top of csrc/: the policies (policy/) and the target
// checks (compile/) both suggest names for a typo, and the option registry
// (options/) and the policies all refuse alike; a layer may not include
// a layer beside or above it (csrc/README.md), so the shared text lives in a
// shared header.
#ifndef LLVMPLUG_MESSAGES_H
#define LLVMPLUG_MESSAGES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace llvmplug {

// "; did you mean a, b?" naming the (at most three) candidates closest to
// `name` by edit distance, or "" if none is close: for error messages.
std::string closestNames(llvm::StringRef name, llvm::ArrayRef<llvm::StringRef> candidates);

// The refusal of everything the safe policy refuses and the "all" policy
// allows (options, option values, passes, asm text), one text for all:
//   "<what> is refused by the safe policy (<why>); it is allowed only with
//    the \"all\" policy, for trusted callers"
// (no parentheses when `why` is empty). It names the policy as the C ABI
// does (LLVMPLUG_POLICY_ALL), not as a front end spells it: Python's
// Plugin(policy="all") and the command line's --options all both take "all",
// so neither rewrites this text.
std::string policyRefusal(llvm::StringRef what, llvm::StringRef why);

} // namespace llvmplug

#endif
