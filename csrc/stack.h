// stack.h: run LLVM's work on a large stack.
//
// Why: LLVM recurses on nested input (the IR parser on nested constants and
// types, the verifier on metadata, codegen on constant expressions), and a
// caller's thread may have a small stack (Python threads: 8 MB on Linux
// glibc, 512 KB on macOS, 1 MB on Windows). Like clang, which runs its work
// on a large stack for the same reason, every entry point runs its body on a
// stack of BigStackBytes; input deeper than nesting.h allows is refused
// before LLVM recurses on it.
//
// How: with glibc, the calling thread itself switches onto a stack of the
// shim's (ucontext) and back, so a call costs no thread start (which cost
// most of an empty compile's time: a 32 MB mapping, clone, join). Stacks are
// kept for the next call in a few lock-free slots (no lock a fork could leave
// held; no thread that fork loses or dlclose must join) and unmapped when the
// copy is unloaded. Elsewhere (Windows, macOS, musl: not built or run here)
// the body runs on a new thread with a BigStackBytes stack, as before: the
// same guarantee, at the cost of a thread per call.
//
// Either way the caller waits, and an exception thrown by the work (Failure,
// LLVM's fatal errors, bad_alloc) is carried back and rethrown on the
// caller's own stack.
#ifndef LLVMPLUG_STACK_H
#define LLVMPLUG_STACK_H

#include "llvm/ADT/STLFunctionalExtras.h"

#include <cstddef>

namespace llvmplug {

// The stack reserved for LLVM's work. Measured: input at nesting.h's limit
// (10,000 nested constant GEPs, the costliest shape found, about 1 KB of
// stack per level) overflows 8 MB and compiles in 16 MB at -O0 and -O2; 32 MB
// leaves twice that. Address space only: pages are touched (and count towards
// RSS) only as deep as the recursion goes, and pages below the top
// KeptStackBytes are returned to the system after each call; the whole
// reservation counts towards RLIMIT_AS (process isolation's memory_limit),
// once per call in flight plus once per kept stack (at most KeptStacks).
constexpr size_t BigStackBytes = size_t(32) << 20;
constexpr size_t KeptStackBytes = size_t(1) << 20;
constexpr size_t KeptStacks = 4;

// Run `work` on a BigStackBytes stack and wait for it; rethrows whatever
// `work` threw.
void runOnBigStack(llvm::function_ref<void()> work);

} // namespace llvmplug

#endif
