#include "option_sharing.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;

namespace llvmplug {

bool targetWritesOptions(const Triple &triple) {
  // Fails closed: only the backends the measurement found writing nothing
  // share the copy; any other (a backend added later, an unknown arch) runs
  // alone.
  switch (triple.getArch()) {
  case Triple::x86:
  case Triple::x86_64:
  case Triple::aarch64:
  case Triple::aarch64_be:
  case Triple::aarch64_32:
  case Triple::amdgpu:
  case Triple::r600:
  case Triple::nvptx:
  case Triple::nvptx64:
  case Triple::arm:
  case Triple::armeb:
  case Triple::thumb:
  case Triple::thumbeb:
  case Triple::riscv32:
  case Triple::riscv64:
  case Triple::mips:
  case Triple::mipsel:
  case Triple::mips64:
  case Triple::mips64el:
  case Triple::systemz:
  case Triple::spirv:
  case Triple::spirv32:
  case Triple::spirv64:
  case Triple::loongarch32:
  case Triple::loongarch64:
  case Triple::sparc:
  case Triple::sparcv9:
  case Triple::sparcel:
  case Triple::msp430:
  case Triple::xcore:
    return false;
  default:
    return true;
  }
}

std::string optionSetKey(const std::vector<Setting> &settings) {
  std::string key;
  for (const Setting &s : settings) {
    key += s.option->ArgStr;
    key += '\1';
    key += s.value;
    key += '\0';
  }
  return key;
}

OptionGroups &optionGroups() {
  static OptionGroups groups; // destroyed at unload, when no call is in progress
  return groups;
}

void OptionGroups::enter(const OptionRegistry &registry, const std::vector<Setting> &settings,
                         const std::string &key) {
  std::unique_lock<std::mutex> hold(lock_);
  ++waiting_[key];
  auto othersWaiting = [&] {
    auto same = waiting_.find(current_);
    return waitingTotal() - (same == waiting_.end() ? 0 : same->second);
  };
  // Join the running group if it has this option set, unless others have
  // waited while it admitted a burst (so that no set starves); start a group
  // when the copy is idle.
  changed_.wait(
      hold, [&] { return inside_ == 0 || (current_ == key && (othersWaiting() == 0 || admitted_ < Burst)); });
  if (--waiting_[key] == 0)
    waiting_.erase(key);
  if (inside_ == 0) {
    admitted_ = 0;
    current_ = key;
    if (!settings.empty()) {
      try {
        scope_.emplace(registry, settings, /*alone=*/false);
      } catch (...) {
        current_.clear(); // nothing applied (ScopedOptions restores on failure)
        changed_.notify_all();
        throw;
      }
    }
  }
  ++inside_;
  ++admitted_;
}

void OptionGroups::leave() noexcept {
  std::lock_guard<std::mutex> hold(lock_);
  if (--inside_ == 0) {
    scope_.reset(); // the last one out restores defaults plus sticky settings
    current_.clear();
  }
  changed_.notify_all();
}

size_t OptionGroups::waitingTotal() const {
  size_t total = 0;
  for (const auto &entry : waiting_)
    total += entry.second;
  return total;
}

ScopedOptions::ScopedOptions(const OptionRegistry &registry, const std::vector<Setting> &settings, bool alone)
    : registry_(registry), touched_(OptionRegistry::distinct(settings)) {
  for (const char *name : WrittenByTargets) {
    if (!alone)
      break;
    cl::Option *option = OptionRegistry::find(name);
    if (!option || is_contained(touched_, option))
      continue;
    registry_.restore(option);
    touched_.push_back(option);
  }
  try {
    OptionRegistry::apply(settings);
  } catch (...) {
    registry_.restore(touched_);
    throw;
  }
}

// restore() is noexcept and catches everything itself, so a destructor that
// runs during unwinding cannot reach std::terminate.
ScopedOptions::~ScopedOptions() { registry_.restore(touched_); }

} // namespace llvmplug
