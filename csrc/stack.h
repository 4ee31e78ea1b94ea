// stack.h: run LLVM's work on a thread with a large stack.
//
// Why: LLVM recurses on nested input (the IR parser on nested constants and
// types, the verifier on metadata, codegen on constant expressions), and a
// caller's thread may have a small stack (Python threads: 8 MB on Linux
// glibc, 512 KB on macOS, 1 MB on Windows). Like clang, which runs its work
// on a thread with a large stack for the same reason, every entry point runs
// its body on a fresh thread of its own whose stack is BigStackBytes; input
// deeper than limits.h allows is refused before LLVM recurses on it.
//
// The calling thread waits (it holds the runtime lock meanwhile), so the work
// is still one call at a time per lock holder; an exception thrown on the
// big-stack thread (Failure, LLVM's fatal errors, bad_alloc) is carried back
// and rethrown on the calling thread.
#ifndef LLVMPLUG_STACK_H
#define LLVMPLUG_STACK_H

#include "llvm/ADT/STLFunctionalExtras.h"

#include <cstddef>

namespace llvmplug {

// The stack reserved for LLVM's work. Measured: input at nesting.h's limit
// (10,000 nested constant GEPs, the costliest shape found, about 1 KB of
// stack per level) overflows 8 MB and compiles in 16 MB at -O0 and -O2; 32 MB
// leaves twice that. Address space only: pages are touched (and count towards
// RSS) only as deep as the recursion goes, but the whole reservation counts
// towards RLIMIT_AS (process isolation's memory_limit), once per call in
// flight.
constexpr size_t BigStackBytes = size_t(32) << 20;

// Run `work` on a thread with a BigStackBytes stack and wait for it;
// rethrows whatever `work` threw.
void runOnBigStack(llvm::function_ref<void()> work);

} // namespace llvmplug

#endif
