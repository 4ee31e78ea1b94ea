// threads.h: the threads LLVM runs on. Every entry point hands its work to
// one of this copy's kept threads, which has a large stack and is confined
// by sandbox.h, and waits for it.
//
// Why a large stack: LLVM recurses on nested input (the IR parser on nested
// constants and types, the verifier on metadata, codegen on constant
// expressions), and a caller's thread may have a small stack (Python
// threads: 8 MB on Linux glibc, 512 KB on macOS, 1 MB on Windows). Like
// clang, which runs its work on a large stack for the same reason, the work
// runs on a stack of BigStackBytes; input deeper than nesting.h allows is
// refused before LLVM recurses on it.
//
// Why a thread of the shim's: the kernel confines threads, not calls
// (Landlock and seccomp apply to the thread that asks, for good), and the
// caller's thread is the host's. A thread of the shim's is confined once,
// when it starts, and only ever runs LLVM.
//
// Why kept: starting a thread per call cost ~33 us (a 32 MB mapping, clone,
// join, and now the confinement); a kept one costs a handoff. Threads are
// started as concurrent callers need them (compiles on one copy run
// concurrently, runtime.h) and kept until the copy shuts down, so a copy
// has as many as its peak of concurrent calls. One design on every
// platform; only the confinement is Linux's.
//
// Lifetime: a thread runs code of this copy, so stopThreads() joins every
// one before the copy may be unmapped (llvmplug_shutdown calls it; the
// loader shuts a copy down before dlclose). After fork() the child has
// none of them; the Python side never calls a copy it inherited through a
// fork (it loads its own, whose threads start in the child).
//
// An exception thrown by the work (Failure, LLVM's fatal errors,
// bad_alloc) is carried back and rethrown on the caller's thread.
#ifndef LLVMPLUG_THREADS_H
#define LLVMPLUG_THREADS_H

#include "sandbox.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <cstddef>

namespace llvmplug {

// The stack reserved for LLVM's work. Measured: input at nesting.h's limit
// (10,000 nested constant GEPs, the costliest shape found, about 1 KB of
// stack per level) overflows 8 MB and compiles in 16 MB at -O0 and -O2; 32 MB
// leaves twice that. Address space only: pages are touched (and count towards
// RSS) only as deep as the recursion goes, and on Linux pages below the top
// KeptStackBytes are returned to the system after each call; the whole
// reservation counts towards RLIMIT_AS (process isolation's memory_limit)
// once per kept thread.
constexpr size_t BigStackBytes = size_t(32) << 20;
constexpr size_t KeptStackBytes = size_t(1) << 20;

// Whether this copy's threads are confined (the default) or not (a trusted
// caller's opt-out: then options of the "all" policy can read and write
// files again). Fixed before the first thread starts: a confined thread
// cannot be freed, so a copy cannot change its mind. Throws
// Failure(LLVMPLUG_ERROR_ARGUMENT) if threads with the other choice exist.
void chooseConfinement(bool confined);

// Run `work` on one of this copy's threads and wait for it; rethrows
// whatever `work` threw. Throws Failure(LLVMPLUG_ERROR_SHUTDOWN) after
// stopThreads().
void runOnLLVMThread(llvm::function_ref<void()> work);

// On one of this copy's threads: what confines it.
const SandboxReport &currentConfinement();

// Wait for calls in progress, then stop and join every thread and free
// their stacks. Idempotent; afterwards runOnLLVMThread fails.
void stopThreads();

} // namespace llvmplug

#endif
