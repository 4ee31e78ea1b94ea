// runtime.h: the one owner of this copy's process-wide LLVM state.
//
// LLVM keeps targets, options and error handlers in globals of the copy that
// is loaded. Initialisation happens on the first call (not at load time, so a
// load that is never used costs nothing); shutdown tears LLVM down so that the
// library can be unmapped without leaking or leaving handlers behind.
//
// Lock: cl::opt values are plain globals read all over LLVM, so two compiles
// in one copy cannot run at once with different options. Every entry point
// holds runtimeLock() for its whole duration; copies loaded from different
// files have separate locks and run in parallel.
#ifndef LLVMPLUG_RUNTIME_H
#define LLVMPLUG_RUNTIME_H

#include <mutex>

namespace llvmplug {

class OptionRegistry;

std::mutex &runtimeLock();

// With the lock held: initialise on first use and return the option registry.
// Throws Failure(LLVMPLUG_ERROR_SHUTDOWN) after shutdownRuntime().
OptionRegistry &runtime();

// With the lock held: llvm_shutdown and free the C++ runtime's caches.
// Idempotent; afterwards runtime() fails.
void shutdownRuntime();

} // namespace llvmplug

#endif
