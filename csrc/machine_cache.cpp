#include "machine_cache.h"

#include "failure.h"

#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/CodeGen/CommandFlags.h"
#include "llvm/IR/Module.h"

#include <cstdlib>
#include <cstring>
#include <exception>
#include <mutex>
#include <utility>
#include <vector>

using namespace llvm;

namespace llvmplug {

namespace {

// An idle machine with its pipeline holds about 2 MB (x86-64): enough for a
// few keys times the threads of a small machine, at most ~16 MB; the oldest
// idle machine goes first.
constexpr size_t MaxIdle = 8;

struct Idle {
  std::string key;
  std::unique_ptr<Machine> machine;
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

MachineLease::MachineLease(std::string key, std::unique_ptr<Machine> machine, bool reusable)
    : key_(std::move(key)), machine_(std::move(machine)),
      reusable_(reusable && machineCacheEnabled()), exceptions_(std::uncaught_exceptions()) {
  std::lock_guard<std::mutex> hold(cacheLock());
  generation_ = Generation;
}

MachineLease::MachineLease(MachineLease &&other) noexcept
    : key_(std::move(other.key_)), machine_(std::move(other.machine_)),
      reusable_(other.reusable_), generation_(other.generation_),
      exceptions_(other.exceptions_) {
  other.reusable_ = false;
}

MachineLease::~MachineLease() {
  // An exception unwinding now may have left the machine half-way through
  // its pipeline (LLVM's frames run no destructors).
  if (!machine_ || !reusable_ || std::uncaught_exceptions() > exceptions_)
    return;
  std::unique_ptr<Machine> evicted; // destroyed after the cache lock is released
  try {
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

std::string MachineLease::generate(Module &module, CodeGenFileType type) {
  Machine &machine = *machine_;
  if (!machine.codegen || machine.type != type) {
    machine.codegen.reset(); // before the stream it writes to
    machine.stream = std::make_unique<raw_svector_ostream>(machine.buffer);
    auto passes = std::make_unique<legacy::PassManager>();
    TargetLibraryInfoImpl libraryInfo(module.getTargetTriple(), codegen::getVectorLibrary());
    passes->add(new TargetLibraryInfoWrapperPass(libraryInfo));
    // DisableVerify as in compiler.cpp's emit: the module was verified already.
    if (machine.target->addPassesToEmitFile(*passes, *machine.stream, nullptr, type,
                                            /*DisableVerify=*/true))
      throw Failure(LLVMPLUG_ERROR_TARGET, "the target cannot emit this file type");
    machine.codegen = std::move(passes);
    machine.type = type;
  }
  machine.buffer.clear();
  machine.codegen->run(module);
  std::string output(machine.buffer.begin(), machine.buffer.end());
  machine.buffer.clear();
  // The assembly printer's streamer remembers its section across runs (a
  // second run leaves out the first ".text"), so an assembly pipeline is
  // used once; object pipelines give byte-identical output when run again.
  if (type != CodeGenFileType::ObjectFile)
    machine.codegen.reset();
  return output;
}

std::unique_ptr<Machine> takeMachine(const std::string &key) {
  if (!machineCacheEnabled())
    return nullptr;
  std::lock_guard<std::mutex> hold(cacheLock());
  if (!IdleMachines)
    return nullptr;
  // Newest first: the most recently used machine is the likeliest match.
  for (auto it = IdleMachines->rbegin(); it != IdleMachines->rend(); ++it) {
    if (it->key == key) {
      std::unique_ptr<Machine> machine = std::move(it->machine);
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
