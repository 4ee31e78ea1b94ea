// messages.h: texts several layers say alike, in one place.
//
// Why here, at the top of csrc/: the policies (policy/) and the target
// checks (compile/) both suggest names for a typo; a layer may not include
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

} // namespace llvmplug

#endif
