// habits.h: what a clang or gcc user types by habit, and llvmplug's spelling.
//
// Why: the flags llvmplug takes are llc's and LLVM's options, so clang's
// -fPIC, -S or -Os are unknown to it, and LLVM's nearest-name suggestion
// then points somewhere useless ("-S: did you mean -W?"). Where a flag is a
// compiler driver's, the error names the driver's meaning and what to give
// instead. Messages spell the API (output="asm", target=TRIPLE); the command
// line rewrites those words into its own options.
#ifndef LLVMPLUG_HABITS_H
#define LLVMPLUG_HABITS_H

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace llvmplug {

// What to say about `token` (one flag as given, "-fPIC", "-mcmodel=large",
// "--O3") that LLVM does not know, or nullopt if it is no driver habit.
std::optional<std::string> compilerHabit(llvm::StringRef token);

// The advice for an -march value that names no backend ("skylake"): llc's
// -march selects a backend, clang's a CPU.
std::string marchHabit(llvm::StringRef value);

} // namespace llvmplug

#endif
