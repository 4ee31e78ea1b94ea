#include "threads.h"

#include "failure.h"

#include <algorithm>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <mutex>
#include <vector>

#if defined(__linux__)
#include <atomic>
#include <csignal>
#include <cstdint>
#include <linux/futex.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#else
#include "llvm/Support/thread.h"
#include <optional>
#endif

namespace llvmplug {

namespace {

#if defined(__linux__)

// Below the stack: an overflow faults here instead of running into whatever
// is mapped next. Larger than a page because one LLVM frame can be.
constexpr size_t GuardBytes = size_t(64) << 10;

// A thread on a stack of our own mapping: its size and guard are ours, it
// is unmapped when the thread has been joined (glibc would keep a stack it
// allocated in its cache, mapped after the copy is gone), and what a deep
// call touched can be given back between calls.
class Thread {
public:
  void start(void *(*entry)(void *), void *arg) {
    void *mapping = mmap(nullptr, GuardBytes + BigStackBytes, PROT_READ | PROT_WRITE,
                         MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
    if (mapping == MAP_FAILED)
      throw Failure(LLVMPLUG_ERROR_INTERNAL, "out of memory: cannot map a stack for LLVM's thread");
    mapping_ = static_cast<char *>(mapping);
    if (mprotect(mapping_, GuardBytes, PROT_NONE) != 0)
      fail("cannot protect the guard of LLVM's stack", errno);
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setstack(&attributes, mapping_ + GuardBytes, BigStackBytes);
    // Asynchronous signals (SIGINT, SIGCHLD, a timer's) go to the host's
    // threads, which expect them; faults stay deliverable here.
    sigset_t blocked, previous;
    sigfillset(&blocked);
    for (int fault : {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGSYS})
      sigdelset(&blocked, fault);
    pthread_sigmask(SIG_BLOCK, &blocked, &previous);
    int error = pthread_create(&id_, &attributes, entry, arg);
    pthread_sigmask(SIG_SETMASK, &previous, nullptr);
    pthread_attr_destroy(&attributes);
    if (error != 0)
      fail("cannot start LLVM's thread", error);
    started_ = true;
  }

  void join() {
    if (started_)
      pthread_join(id_, nullptr);
    started_ = false;
  }

  // On the thread itself, between calls: what a deep call touched goes back
  // to the system; the top stays mapped, where every call runs.
  void trim() { madvise(mapping_ + GuardBytes, BigStackBytes - KeptStackBytes, MADV_DONTNEED); }

  ~Thread() {
    if (mapping_ && !started_)
      munmap(mapping_, GuardBytes + BigStackBytes);
  }

private:
  [[noreturn]] void fail(const char *what, int error) {
    munmap(mapping_, GuardBytes + BigStackBytes);
    mapping_ = nullptr;
    throw Failure(LLVMPLUG_ERROR_INTERNAL, std::string(what) + ": " + std::strerror(error));
  }

  pthread_t id_{};
  char *mapping_ = nullptr;
  bool started_ = false;
};

void nameThisThread() { pthread_setname_np(pthread_self(), "llvmplug-llvm"); }

#else

// Windows, macOS: llvm::thread takes a stack size there too (pthread
// attributes, _beginthreadex). Not built or run here.
class Thread {
public:
  void start(void *(*entry)(void *), void *arg) {
    thread_.emplace(std::optional<unsigned>(BigStackBytes), [entry, arg] { entry(arg); });
  }
  void join() {
    if (thread_ && thread_->joinable())
      thread_->join();
  }
  void trim() {}

private:
  std::optional<llvm::thread> thread_;
};

void nameThisThread() {}

#endif

#if defined(__linux__)

// One thread posts, one waits: a futex word, 0 (not posted), 1 (posted) or
// 2 (not posted, and the waiter sleeps). A post costs a system call only
// when the waiter sleeps, a wait only when nothing is posted yet: the least
// a handoff to a sleeping thread and back can cost (two wake-ups).
class Signal {
public:
  void post() {
    if (word_.exchange(1, std::memory_order_release) == 2)
      syscall(SYS_futex, &word_, FUTEX_WAKE_PRIVATE, 1, nullptr, nullptr, 0);
  }

  void wait() {
    for (;;) {
      uint32_t seen = word_.load(std::memory_order_acquire);
      if (seen == 1) {
        if (word_.compare_exchange_weak(seen, 0, std::memory_order_acquire))
          return;
        continue;
      }
      if (seen == 0 && !word_.compare_exchange_weak(seen, 2, std::memory_order_relaxed))
        continue;
      // Returns when posted, at once if the word is no longer 2, or on a
      // signal: the loop tells them apart.
      syscall(SYS_futex, &word_, FUTEX_WAIT_PRIVATE, 2, nullptr, nullptr, 0);
    }
  }

private:
  std::atomic<uint32_t> word_{0};
};

#else

class Signal {
public:
  void post() {
    {
      std::lock_guard<std::mutex> hold(lock_);
      posted_ = true;
    }
    changed_.notify_one();
  }

  void wait() {
    std::unique_lock<std::mutex> hold(lock_);
    changed_.wait(hold, [&] { return posted_; });
    posted_ = false;
  }

private:
  std::mutex lock_;
  std::condition_variable changed_;
  bool posted_ = false;
};

#endif

struct Job {
  llvm::function_ref<void()> work;
  std::exception_ptr thrown;
};

struct Pool;

// One kept thread and what its caller hands it: a job (or stop) through
// `go`, back through `done`. Only the caller that took the lane from the
// pool touches it until it gives the lane back.
struct Lane {
  Pool *pool;
  Thread thread;
  Signal go, done;
  Job *job = nullptr; // published by go.post(), read after go.wait()
  bool stop = false;
  SandboxReport confinement;
  std::exception_ptr unconfined; // why confinement failed: every job fails with it
};

// Every lane of this copy; the lock guards the lists only (held to take a
// lane or give it back, never while LLVM works).
struct Pool {
  std::mutex lock;
  std::condition_variable quiet; // stopThreads waits here for calls in progress
  std::vector<std::unique_ptr<Lane>> lanes;
  std::vector<Lane *> idle;
  bool confined = true;
  bool stopped = false;

  // After llvmplug_shutdown the lanes are gone (stopThreads). Without one
  // (a dlclose that skipped it, such as cffi freeing the library object
  // while the interpreter exits, or the process's own exit) the idle lanes'
  // threads are stopped and joined here, before the copy is unmapped under
  // them; a lane still busy (a call in progress on a thread the exit does
  // not wait for) is left as it is.
  ~Pool() {
    std::vector<Lane *> waiting;
    {
      std::lock_guard<std::mutex> hold(lock);
      stopped = true;
      waiting = idle;
    }
    for (Lane *lane : waiting) {
      lane->stop = true;
      lane->go.post();
    }
    for (auto &lane : lanes) {
      if (std::find(waiting.begin(), waiting.end(), lane.get()) != waiting.end())
        lane->thread.join();
      else
        (void)lane.release();
    }
  }
} ThePool;

// The lane the calling thread serves; trivially destructible, so no
// thread-exit destructor points into this copy.
thread_local Lane *CurrentLane = nullptr;

void run(Lane &lane, Job &job) {
  if (lane.unconfined) {
    job.thrown = lane.unconfined;
    return;
  }
  try {
    Refusals refusals; // writes the kernel refused (sandbox.h)
    {
      RefusalScope noted(&refusals);
      job.work();
    }
    refusals.check();
  } catch (...) {
    job.thrown = std::current_exception();
  }
}

void *serve(void *arg) {
  Lane &lane = *static_cast<Lane *>(arg);
  nameThisThread();
  try {
    if (lane.pool->confined)
      lane.confinement = confineThread(readableByLLVM());
  } catch (...) {
    lane.unconfined = std::current_exception(); // fail closed: no job runs here
  }
  CurrentLane = &lane;
  for (;;) {
    lane.go.wait();
    if (lane.stop)
      return nullptr;
    run(lane, *lane.job);
    lane.job = nullptr;
    lane.done.post();
    lane.thread.trim(); // while the caller carries on
  }
}

// With the pool locked: a new lane, its thread started.
Lane *startLane(Pool &pool) {
  auto lane = std::make_unique<Lane>();
  lane->pool = &pool;
  pool.lanes.reserve(pool.lanes.size() + 1);
  pool.idle.reserve(pool.lanes.size() + 1); // giving it back cannot fail
  lane->thread.start(serve, lane.get());
  pool.lanes.push_back(std::move(lane));
  return pool.lanes.back().get();
}

// Hand `job` to `lane` and wait for it.
void handOver(Lane &lane, Job &job) {
  lane.job = &job;
  lane.go.post();
  lane.done.wait();
}

// LLVMPLUG_THREAD_PER_CALL=1: a new confined thread for every call, joined
// after it: the design the kept threads replace, for benchmarks/throughput.py's
// floor row, which measures it beside them in the same run.
bool threadPerCall() {
  static const bool chosen = [] {
    const char *value = std::getenv("LLVMPLUG_THREAD_PER_CALL");
    return value && *value && std::strcmp(value, "0") != 0;
  }();
  return chosen;
}

void runOnNewThread(Pool &pool, Job &job) {
  Lane lane;
  lane.pool = &pool;
  lane.thread.start(serve, &lane);
  handOver(lane, job);
  lane.stop = true;
  lane.go.post();
  lane.thread.join();
}

[[noreturn]] void shutDown() {
  throw Failure(LLVMPLUG_ERROR_SHUTDOWN, "llvmplug_shutdown was called; load the library again");
}

} // namespace

void chooseConfinement(bool confined) {
  std::lock_guard<std::mutex> hold(ThePool.lock);
  if (ThePool.stopped)
    shutDown();
  if (confined != ThePool.confined && !ThePool.lanes.empty())
    throw Failure(LLVMPLUG_ERROR_ARGUMENT, std::string("this copy's threads are ") +
                                               (ThePool.confined ? "confined" : "not confined") +
                                               " already: the sandbox is chosen before a copy's first call");
  ThePool.confined = confined;
}

void runOnLLVMThread(llvm::function_ref<void()> work) {
  Pool &pool = ThePool;
  Job job{work, nullptr};
  Lane *lane = nullptr;
  {
    std::lock_guard<std::mutex> hold(pool.lock);
    if (pool.stopped)
      shutDown();
    if (!threadPerCall()) {
      if (pool.idle.empty()) {
        lane = startLane(pool);
      } else {
        lane = pool.idle.back();
        pool.idle.pop_back();
      }
    }
  }
  if (lane) {
    handOver(*lane, job);
    std::lock_guard<std::mutex> hold(pool.lock);
    pool.idle.push_back(lane);
    if (pool.stopped)
      pool.quiet.notify_all();
  } else {
    runOnNewThread(pool, job);
  }
  if (job.thrown)
    std::rethrow_exception(job.thrown);
}

const SandboxReport &currentConfinement() {
  static const SandboxReport none;
  return CurrentLane ? CurrentLane->confinement : none;
}

void stopThreads() {
  Pool &pool = ThePool;
  std::vector<std::unique_ptr<Lane>> lanes;
  {
    std::unique_lock<std::mutex> hold(pool.lock);
    pool.stopped = true; // no call starts from now on
    pool.quiet.wait(hold, [&] { return pool.idle.size() == pool.lanes.size(); });
    for (auto &lane : pool.lanes) {
      lane->stop = true;
      lane->go.post();
    }
    lanes.swap(pool.lanes);
    pool.idle.clear();
    pool.idle.shrink_to_fit();
  }
  for (auto &lane : lanes)
    lane->thread.join(); // then its stack is unmapped, with the lane
}

} // namespace llvmplug
