#include "stack.h"

#include "llvm/Support/thread.h"

#include <cstdlib>
#include <cstring>
#include <exception>
#include <optional>

#if defined(__linux__) && defined(__GLIBC__)
#define LLVMPLUG_SWITCH_STACKS 1
#include <array>
#include <atomic>
#include <new>
#include <sys/mman.h>
#include <ucontext.h>
#endif

namespace llvmplug {

namespace {

// The previous design, everywhere the stack is not switched; on Linux also
// with LLVMPLUG_THREAD_PER_CALL=1 (for benchmarks/throughput.py's floor row,
// which measures it beside the switched stack in the same run).
void runOnNewThread(llvm::function_ref<void()> work) {
  std::exception_ptr thrown;
  // llvm::thread takes a stack size on every platform (pthread attributes,
  // _beginthreadex). If the thread cannot be created LLVM reports a fatal
  // error, which the handler (runtime.cpp) throws here on the calling thread.
  llvm::thread worker(std::optional<unsigned>(BigStackBytes), [&] {
    try {
      work();
    } catch (...) {
      thrown = std::current_exception();
    }
  });
  worker.join();
  if (thrown)
    std::rethrow_exception(thrown);
}

} // namespace

#if defined(LLVMPLUG_SWITCH_STACKS)

namespace {

// Below the stack: an overflow faults here instead of running into whatever
// is mapped next. Larger than a page because one LLVM frame can be.
constexpr size_t GuardBytes = size_t(64) << 10;

struct Stack {
  char *mapping = nullptr; // guard, then the usable stack
  size_t size() const { return GuardBytes + BigStackBytes; }
  char *bottom() const { return mapping + GuardBytes; }
};

Stack *newStack() {
  void *mapping = mmap(nullptr, GuardBytes + BigStackBytes, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
  if (mapping == MAP_FAILED)
    throw std::bad_alloc();
  if (mprotect(mapping, GuardBytes, PROT_NONE) != 0) {
    munmap(mapping, GuardBytes + BigStackBytes);
    throw std::bad_alloc();
  }
  return new Stack{static_cast<char *>(mapping)};
}

void deleteStack(Stack *stack) {
  munmap(stack->mapping, stack->size());
  delete stack;
}

// Idle stacks. Lock-free, so that a fork while another thread holds a stack
// cannot leave a lock held in the child (the child just never gets that
// stack back). Drained when the copy is unloaded (a static destructor runs
// at dlclose), when no call can be in progress.
struct IdleStacks {
  std::array<std::atomic<Stack *>, KeptStacks> slots{};

  Stack *take() {
    for (auto &slot : slots)
      if (Stack *stack = slot.exchange(nullptr, std::memory_order_acquire))
        return stack;
    return newStack();
  }

  void give(Stack *stack) {
    // What a deep call touched goes back to the system; the top stays
    // mapped, where every call runs.
    madvise(stack->bottom(), BigStackBytes - KeptStackBytes, MADV_DONTNEED);
    for (auto &slot : slots) {
      Stack *empty = nullptr;
      if (slot.compare_exchange_strong(empty, stack, std::memory_order_release))
        return;
    }
    deleteStack(stack);
  }

  ~IdleStacks() {
    for (auto &slot : slots)
      if (Stack *stack = slot.exchange(nullptr))
        deleteStack(stack);
  }
} Idle;

struct Job {
  llvm::function_ref<void()> work;
  std::exception_ptr thrown;
};

// A trivially destructible thread_local: no destructor registered with the
// C library, which would keep the copy from being unmapped.
thread_local Job *Current = nullptr;

// The entry of the big stack. Nothing may unwind out of it (there is no
// frame above it to unwind into): everything is caught and carried back.
void enter() {
  Job &job = *Current;
  try {
    job.work();
  } catch (...) {
    job.thrown = std::current_exception();
  }
}

bool threadPerCall() {
  static const bool chosen = [] {
    const char *value = std::getenv("LLVMPLUG_THREAD_PER_CALL");
    return value && *value && std::strcmp(value, "0") != 0;
  }();
  return chosen;
}

} // namespace

void runOnBigStack(llvm::function_ref<void()> work) {
  if (threadPerCall())
    return runOnNewThread(work);
  Stack *stack = Idle.take();
  Job job{work, nullptr};
  Job *outer = Current; // a nested call (none today) would restore it
  Current = &job;
  ucontext_t caller, callee;
  bool switched = getcontext(&callee) == 0;
  if (switched) {
    callee.uc_stack.ss_sp = stack->bottom();
    callee.uc_stack.ss_size = BigStackBytes;
    callee.uc_link = &caller; // enter() returns here
    makecontext(&callee, enter, 0);
    switched = swapcontext(&caller, &callee) == 0;
  }
  Current = outer;
  Idle.give(stack);
  if (!switched)
    throw std::bad_alloc(); // getcontext/swapcontext fail only without memory
  if (job.thrown)
    std::rethrow_exception(job.thrown);
}

#else

void runOnBigStack(llvm::function_ref<void()> work) { runOnNewThread(work); }

#endif

} // namespace llvmplug
