#include "machine_cache.h"

#include "llvm/Target/TargetMachine.h"

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <utility>
#include <vector>

namespace llvmplug {

namespace {

// Enough for a few keys times the threads of a 2-4 core machine; older
// machines are dropped first.
constexpr size_t MaxIdle = 16;

struct Idle {
  std::string key;
  std::unique_ptr<llvm::TargetMachine> machine;
};

std::mutex &cacheLock() {
  static std::mutex lock;
  return lock;
}
// A pointer, not a static vector: a vector's destructor would destroy
// machines at unload, after llvm_shutdown (forgetMachines empties the cache
// before that).
std::vector<Idle> *IdleMachines = nullptr;
std::uint64_t Generation = 0; // bumped by forgetMachines, under cacheLock

} // namespace

bool machineCacheEnabled() {
  static const bool enabled = [] {
    const char *value = std::getenv("LLVMPLUG_NO_MACHINE_CACHE");
    return !value || !*value || std::strcmp(value, "0") == 0;
  }();
  return enabled;
}

MachineLease::MachineLease(std::string key, std::unique_ptr<llvm::TargetMachine> machine,
                           bool reusable)
    : key_(std::move(key)), machine_(std::move(machine)),
      reusable_(reusable && machineCacheEnabled()) {
  std::lock_guard<std::mutex> hold(cacheLock());
  generation_ = Generation;
}

MachineLease::MachineLease(MachineLease &&other) noexcept
    : key_(std::move(other.key_)), machine_(std::move(other.machine_)),
      reusable_(other.reusable_), generation_(other.generation_) {
  other.reusable_ = false;
}

MachineLease::~MachineLease() {
  if (!machine_ || !reusable_)
    return;
  try {
    std::unique_ptr<llvm::TargetMachine> evicted;
    std::lock_guard<std::mutex> hold(cacheLock());
    if (generation_ != Generation)
      return; // an option changed since: the machine is stale
    if (!IdleMachines)
      IdleMachines = new std::vector<Idle>();
    if (IdleMachines->size() == MaxIdle) {
      evicted = std::move(IdleMachines->front().machine);
      IdleMachines->erase(IdleMachines->begin());
    }
    IdleMachines->push_back(Idle{std::move(key_), std::move(machine_)});
  } catch (...) {
    // Out of memory: the machine is simply destroyed.
  }
}

std::unique_ptr<llvm::TargetMachine> takeMachine(const std::string &key) {
  if (!machineCacheEnabled())
    return nullptr;
  std::lock_guard<std::mutex> hold(cacheLock());
  if (!IdleMachines)
    return nullptr;
  // Newest first: the most recently used machine is the likeliest match.
  for (auto it = IdleMachines->rbegin(); it != IdleMachines->rend(); ++it) {
    if (it->key == key) {
      std::unique_ptr<llvm::TargetMachine> machine = std::move(it->machine);
      IdleMachines->erase(std::next(it).base());
      return machine;
    }
  }
  return nullptr;
}

void forgetMachines() {
  std::vector<Idle> idle;
  {
    std::lock_guard<std::mutex> hold(cacheLock());
    ++Generation;
    if (IdleMachines)
      idle.swap(*IdleMachines);
    delete IdleMachines;
    IdleMachines = nullptr;
  }
  // `idle` destroys the machines here, outside the cache lock.
}

} // namespace llvmplug
