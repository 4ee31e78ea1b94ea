#include "timings.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

#if defined(_WIN32)
#include <windows.h>
#elif defined(__APPLE__)
#include <pthread.h>
#elif defined(__linux__)
#include <sys/syscall.h>
#include <unistd.h>
#elif defined(__FreeBSD__)
#include <pthread_np.h>
#endif

using namespace llvm;

namespace llvmplug {

namespace {

double secondsBetween(Timings::Clock::time_point from, Timings::Clock::time_point to) {
  return std::chrono::duration<double>(to - from).count();
}

json::Array stageList(const std::vector<std::pair<const char *, double>> &stages) {
  json::Array list;
  for (const auto &[name, seconds] : stages)
    list.push_back(json::Object{{"stage", name}, {"seconds", seconds}});
  return list;
}

// The compiles in progress. A plain mutex: entries come and go once per
// compile, and llvmplug_progress reads a few times a second at most.
std::mutex &registryLock() {
  static std::mutex lock;
  return lock;
}
std::vector<const Timings *> &registry() {
  static std::vector<const Timings *> running;
  return running;
}

} // namespace

void Timings::Stages::enter(const char *name, Clock::time_point now) {
  close(now);
  current = name;
  since = now;
}

void Timings::Stages::close(Clock::time_point now) {
  if (!current)
    return;
  double seconds = secondsBetween(since, now);
  auto same =
      std::find_if(done.begin(), done.end(), [&](const auto &entry) { return entry.first == current; });
  if (same != done.end())
    same->second += seconds;
  else
    done.emplace_back(current, seconds);
  current = nullptr;
}

void Timings::begin(const char *call, std::uint64_t caller) {
  call_ = call;
  caller_ = caller;
  start_ = Clock::now();
}

void Timings::stage(const char *name) {
  whole_.enter(name, Clock::now());
  now_.store(name, std::memory_order_relaxed);
}

void Timings::finish() {
  if (!call_)
    return;
  Clock::time_point now = Clock::now();
  whole_.close(now);
  seconds_ = secondsBetween(start_, now);
}

void Timings::parts(std::size_t count) {
  parts_.resize(count);
  total_.store(count, std::memory_order_relaxed);
  finished_.store(0, std::memory_order_relaxed);
}

void Timings::partStage(std::size_t index, const char *name) {
  if (index < parts_.size())
    parts_[index].enter(name, Clock::now());
}

void Timings::partDone(std::size_t index) {
  if (index < parts_.size())
    parts_[index].close(Clock::now());
  finished_.fetch_add(1, std::memory_order_relaxed);
}

std::string Timings::json() const {
  if (!call_)
    return "{}";
  json::Array parts;
  for (const Stages &part : parts_)
    parts.push_back(json::Object{{"stages", stageList(part.done)}});
  std::string text;
  raw_string_ostream os(text);
  os << json::Value(json::Object{{"call", call_},
                                 {"seconds", seconds_},
                                 {"stages", stageList(whole_.done)},
                                 {"parts", std::move(parts)}});
  return text;
}

std::string Timings::progress() const {
  const char *stage = now_.load(std::memory_order_relaxed);
  std::string text;
  raw_string_ostream os(text);
  os << json::Value(json::Object{{"call", call_ ? call_ : ""},
                                 {"thread", int64_t(caller_)},
                                 {"stage", stage ? stage : ""},
                                 {"done", int64_t(finished_.load(std::memory_order_relaxed))},
                                 {"total", int64_t(total_.load(std::memory_order_relaxed))},
                                 {"seconds", secondsBetween(start_, Clock::now())}});
  return text;
}

std::uint64_t callerThreadId() {
#if defined(_WIN32)
  return GetCurrentThreadId();
#elif defined(__APPLE__)
  std::uint64_t id = 0;
  pthread_threadid_np(nullptr, &id);
  return id;
#elif defined(__linux__)
  return std::uint64_t(syscall(SYS_gettid));
#elif defined(__FreeBSD__)
  return std::uint64_t(pthread_getthreadid_np());
#else
  return 0; // no native id: a caller cannot pick its own call out, only see them all
#endif
}

Running::Running(const Timings &timings) : timings_(timings) {
  std::lock_guard<std::mutex> hold(registryLock());
  registry().push_back(&timings_);
}

Running::~Running() {
  std::lock_guard<std::mutex> hold(registryLock());
  std::vector<const Timings *> &running = registry();
  running.erase(std::remove(running.begin(), running.end(), &timings_), running.end());
}

std::string runningCalls() {
  std::string text = "[";
  std::lock_guard<std::mutex> hold(registryLock());
  for (const Timings *timings : registry())
    text += (text.size() > 1 ? "," : "") + timings->progress();
  return text + "]";
}

} // namespace llvmplug
