#include "runtime.h"

#include "failure.h"
#include "option_registry.h"
#include "pass_policy.h"
#include "prebuilt.h"

#include "llvm/CodeGen/RegAllocRegistry.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/ManagedStatic.h"

#include <atomic>
#include <cstdlib>
#include <cstring>

#if defined(__GLIBCXX__)
namespace __gnu_cxx {
// libstdc++'s hook that releases its emergency exception-allocation pool;
// without it every unload of the shim leaks that pool.
void __freeres() noexcept;
} // namespace __gnu_cxx
#endif

namespace llvmplug {

namespace {

enum class State { Fresh, Ready, ShutDown };
// Atomic because compiles holding the lock shared all read it, and the first
// of them initialises (under InitLock, so only one does); ShutDown is only
// stored with the lock held exclusively.
std::atomic<State> CurrentState{State::Fresh};
std::mutex InitLock;
OptionRegistry *Registry = nullptr;

// LLVM's default fatal-error handler prints and calls exit(). Throwing
// instead unwinds through LLVM's frames (they have unwind tables although
// LLVM is built without exceptions) to the C boundary, which reports
// LLVMPLUG_ERROR_FATAL. LLVM's own frames run no destructors on the way, so
// the copy's state is suspect afterwards: the Python side reloads it.
[[noreturn]] void onFatalError(void *, const char *reason, bool) {
  throw Failure(LLVMPLUG_ERROR_FATAL, reason ? reason : "LLVM fatal error");
}

[[noreturn]] void onBadAlloc(void *, const char *reason, bool) {
  throw Failure(LLVMPLUG_ERROR_INTERNAL, std::string("out of memory in LLVM: ") + (reason ? reason : ""));
}

// Some LLVM state is set up by the first compile of a copy and kept for its
// life, from the options in force then: TargetPassConfig::createRegAllocPass
// stores -regalloc's value as the register allocator's default (a call_once),
// so a caller's -regalloc=basic on the first compile would choose every later
// compile's allocator. Before any caller's option can reach the copy (on the
// first call after every load, automatic reloads included), the shim makes
// that default LLVM's own, as a first compile with every option at its
// default would have (what LLVM's call_once then finds set, it leaves).
//
// Earlier designs ran such a compile (the warm-up) instead: about 2 ms of
// every load, and the pages of a whole x86 compile. Nothing else latches:
// tests/test_scoping_sweep.py compiles every allowed option value first on a
// fresh copy, and the plain compile after it must be a fresh copy's.
// LLVMPLUG_PREVIOUS_LOAD=1 still runs the warm-up compile.
void latchDefaults(const Starters &starters, const OptionRegistry &registry) {
  if (previousLoad())
    return starters.warmUpCompile(registry);
  if (llvm::RegisterRegAlloc::getDefault())
    return;
  // "default" is the node of -regalloc's own default (useDefaultRegisterAllocator).
  for (const llvm::RegisterRegAlloc *node = llvm::RegisterRegAlloc::getList(); node; node = node->getNext())
    if (node->getName() == "default")
      return llvm::RegisterRegAlloc::setDefault(node->getCtor());
  starters.warmUpCompile(registry); // an LLVM without that node: latch it the slow way
}

void initialise(const Starters &starters) {
  std::lock_guard<std::mutex> once(InitLock);
  if (CurrentState != State::Fresh)
    return;
  starters.startBackends();
  llvm::install_fatal_error_handler(onFatalError, nullptr);
  llvm::install_bad_alloc_error_handler(onBadAlloc, nullptr);
  Registry = new OptionRegistry();
  if (tableSource() != TableSource::Build) {
    // Computed by this copy: now, before any caller's option can change
    // which passes LLVM's default pipelines hold.
    PassCatalogue::get();
    checkPrebuiltTables();
  }
  latchDefaults(starters, *Registry); // before any other thread may compile on this copy
  CurrentState = State::Ready;
}

} // namespace

std::shared_mutex &runtimeLock() {
  // Destroyed at unload, when no call can be in progress (the loader waits
  // for calls before unloading).
  static std::shared_mutex lock;
  return lock;
}

OptionRegistry &runtime(const Starters &starters) {
  if (CurrentState == State::Fresh)
    initialise(starters);
  if (CurrentState == State::ShutDown)
    throw Failure(LLVMPLUG_ERROR_SHUTDOWN, "llvmplug_shutdown was called; load the library again");
  return *Registry;
}

void shutdownRuntime() {
  if (CurrentState == State::ShutDown)
    return;
  if (CurrentState == State::Ready) {
    delete Registry;
    Registry = nullptr;
    llvm::remove_fatal_error_handler();
    llvm::remove_bad_alloc_error_handler();
  }
  llvm::llvm_shutdown();
#if defined(__GLIBCXX__)
  __gnu_cxx::__freeres();
#endif
  CurrentState = State::ShutDown;
}

} // namespace llvmplug
