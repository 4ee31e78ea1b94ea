#include "info.h"

#include "build_id.h" // generated: LLVMPLUG_BUILD_ID

#include "llvmplug.h"
#include "nesting.h"
#include "prebuilt.h"
#include "targets.h"
#include "threads.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Host.h"

#include <algorithm>

using namespace llvm;

namespace llvmplug {

const char *buildId() { return LLVMPLUG_BUILD_ID; }

std::string describeLibrary() {
  std::vector<std::string> features;
  for (const auto &feature : sys::getHostCPUFeatures())
    features.push_back((feature.second ? "+" : "-") + feature.getKey().str());
  std::sort(features.begin(), features.end());

  json::Array targets;
  for (const Target &target : TargetRegistry::targets())
    targets.push_back(
        json::Object{{"name", target.getName()}, {"description", target.getShortDescription()}});

  json::Object info{{"llvm_version", LLVM_VERSION_STRING},
                    {"abi_version", LLVMPLUG_ABI_VERSION},
                    {"build_id", buildId()},
                    {"host_triple", sys::getDefaultTargetTriple()},
                    {"process_triple", sys::getProcessTriple()},
                    {"host_cpu", sys::getHostCPUName()},
                    {"host_features", json::Array(features)},
                    {"targets", std::move(targets)},
                    // The backends linked in (LLVMPLUG_TARGETS at build time).
                    {"backends", json::Array(linkedTargets())},
                    {"limits", json::Object{{"max_nesting_depth", MaxNestingDepth}}},
                    // What confines the thread this runs on, as every compile's.
                    {"sandbox", json::Object{{"threads", currentConfinement().json()}}},
                    // Where this copy's policy tables came from (prebuilt.h).
                    {"tables", describeTables()}};
  std::string text;
  raw_string_ostream os(text);
  os << json::Value(std::move(info));
  return text;
}

} // namespace llvmplug
