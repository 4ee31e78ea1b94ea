// runtime.h: the one owner of this copy's process-wide LLVM state.
//
// LLVM keeps targets, options and error handlers in globals of the copy that
// is loaded. Initialisation happens on the first call (not at load time, so a
// load that is never used costs nothing); shutdown tears LLVM down so that the
// library can be unmapped without leaking or leaving handlers behind.
//
// Lock: cl::opt values are plain globals read all over LLVM, so two compiles
// in one copy cannot run at once with different options. runtimeLock() is a
// readers-writer lock: compiles hold it shared, for their whole duration, so
// they run concurrently (each in its own LLVMContext, as LLVM's own parallel
// codegen does), grouped by their per-call options (OptionGroups in
// options.h: one set at a time is in force); everything that changes,
// prints or tears down options for good (sticky options, the policy,
// listing, shutdown, compiles for backends that write options) holds it
// exclusively. Take it on the thread
// that runs the work and release it on the same thread (std::shared_mutex
// requires it). Copies loaded from different files have separate locks.
#ifndef LLVMPLUG_RUNTIME_H
#define LLVMPLUG_RUNTIME_H

#include <mutex>
#include <shared_mutex>

namespace llvmplug {

class OptionRegistry;

std::shared_mutex &runtimeLock();
using SharedLock = std::shared_lock<std::shared_mutex>;
using ExclusiveLock = std::unique_lock<std::shared_mutex>;

// What starting a copy needs of the layer above, which owns the backends and
// the compiler: handed in by compile/ (start.h), so that this layer includes
// nothing of it.
struct Starters {
  void (*startBackends)();                       // register every linked backend
  void (*warmUpCompile)(const OptionRegistry &); // a first compile, every option at its default
};

// With the lock held (shared or exclusive): initialise on first use (one
// thread does, the others wait) and return the option registry. Callers
// above compile/ use start.h's runtime(), which hands in compile/'s starters.
// Throws Failure(LLVMPLUG_ERROR_SHUTDOWN) after shutdownRuntime().
OptionRegistry &runtime(const Starters &starters);

// With the lock held exclusively: llvm_shutdown and free the C++ runtime's
// caches.
// Idempotent; afterwards runtime() fails.
void shutdownRuntime();

} // namespace llvmplug

#endif
