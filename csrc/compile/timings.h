// timings.h: how long each stage of a compile took, and where a compile in
// progress stands.
//
// A long compile is otherwise silent, and LLVM's own -time-passes prints
// (the safe policy refuses it). Every compile records its stages here: a
// few clock reads per stage, nothing formatted until a caller asks
// (llvmplug_result_timings), so the plain compile path pays nanoseconds.
// While a compile runs, its Timings is listed in this copy's registry, which
// llvmplug_progress reads from another thread for a progress display.
#ifndef LLVMPLUG_TIMINGS_H
#define LLVMPLUG_TIMINGS_H

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace llvmplug {

class Timings {
public:
  using Clock = std::chrono::steady_clock;

  // `call` names the entry point ("compile", "compile_modules"); `caller`
  // is the native id of the thread that called the ABI (callerThreadId).
  void begin(const char *call, std::uint64_t caller);

  // The stage of the whole call now starting (a static string); ends the
  // one before. A stage entered twice adds up.
  void stage(const char *name);
  // End the current stage (at the end of the call, or before a failure is
  // reported: what ran until then stays recorded).
  void finish();

  // Parts (split code generation) or modules (compile_modules) worked on
  // in parallel: `count` slots, made before any part starts. Each part's
  // calls come from one thread at a time.
  void parts(std::size_t count);
  // The stage of part `index` now starting (nullptr: none, the part waits).
  void partStage(std::size_t index, const char *name);
  void partDone(std::size_t index);

  // {"seconds": s, "stages": [{"stage": "parse", "seconds": s}...],
  //  "parts": [{"stages": [...]}...]}; "{}" if nothing was recorded.
  std::string json() const;

  // One entry of llvmplug_progress: what this call is doing now.
  std::string progress() const;

private:
  struct Stages {
    std::vector<std::pair<const char *, double>> done; // in first-entered order
    const char *current = nullptr;
    Clock::time_point since;
    void enter(const char *name, Clock::time_point now);
    void close(Clock::time_point now);
  };

  const char *call_ = nullptr;
  std::uint64_t caller_ = 0;
  Clock::time_point start_;
  double seconds_ = 0;
  Stages whole_;
  std::vector<Stages> parts_;
  // What llvmplug_progress reads while the call runs.
  std::atomic<const char *> now_{nullptr};
  std::atomic<std::size_t> total_{0}, finished_{0};
};

// The native id of the calling thread, as Python's threading.get_native_id
// gives it, so that a caller can find its own call in llvmplug_progress.
std::uint64_t callerThreadId();

// While it lives, `timings` is listed by runningCalls() (a compile in
// progress). Cheap: one short lock on entry and exit.
class Running {
public:
  explicit Running(const Timings &timings);
  ~Running();
  Running(const Running &) = delete;
  Running &operator=(const Running &) = delete;

private:
  const Timings &timings_;
};

// llvmplug_progress's JSON array: one progress() object per call running.
std::string runningCalls();

} // namespace llvmplug

#endif
