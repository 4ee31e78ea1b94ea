#include "targets.h"

#include "failure.h"
#include "habits.h"
#include "messages.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Host.h"

#include <algorithm>
#include <memory>
#include <optional>

using namespace llvm;

// Each backend's registration entry points (what llvm/Support/TargetSelect.h
// declares from llvm/Config/*.def; that list follows the SDK's profile, this
// one follows LLVMPLUG_TARGETS).
#define LLVMPLUG_TARGET(T)                                                                                   \
  extern "C" void LLVMInitialize##T##TargetInfo();                                                           \
  extern "C" void LLVMInitialize##T##TargetMC();                                                             \
  extern "C" void LLVMInitialize##T##Target();                                                               \
  extern "C" void LLVMInitialize##T##AsmPrinter();
#define LLVMPLUG_ASM_PARSER(T) extern "C" void LLVMInitialize##T##AsmParser();
#include "llvmplug_targets.def"
#undef LLVMPLUG_TARGET
#undef LLVMPLUG_ASM_PARSER

namespace llvmplug {

void initializeTargets() {
#define LLVMPLUG_TARGET(T)                                                                                   \
  LLVMInitialize##T##TargetInfo();                                                                           \
  LLVMInitialize##T##TargetMC();                                                                             \
  LLVMInitialize##T##Target();                                                                               \
  LLVMInitialize##T##AsmPrinter();
#define LLVMPLUG_ASM_PARSER(T) LLVMInitialize##T##AsmParser();
#include "llvmplug_targets.def"
#undef LLVMPLUG_TARGET
#undef LLVMPLUG_ASM_PARSER
}

std::vector<std::string> linkedTargets() {
  return {
#define LLVMPLUG_TARGET(T) #T,
#define LLVMPLUG_ASM_PARSER(T)
#include "llvmplug_targets.def"
#undef LLVMPLUG_TARGET
#undef LLVMPLUG_ASM_PARSER
  };
}

TargetChoice chooseTarget(StringRef requested, StringRef moduleTriple, StringRef march) {
  Triple triple(Triple::normalize(!requested.empty()      ? requested
                                  : !moduleTriple.empty() ? moduleTriple
                                                          : StringRef(sys::getDefaultTargetTriple())));
  std::string error;
  // With an arch name, lookupTarget finds the backend by name and sets the
  // triple's arch (-march=nvptx64 turns x86_64-unknown-linux-gnu into
  // nvptx64-unknown-linux-gnu, as in llc).
  const Target *target = TargetRegistry::lookupTarget(march, triple, error);
  if (!target) {
    // LLVM's text ends by sending llc's users to llc's flags, which are not
    // how a caller of llvmplug names a target.
    StringRef llcHint = ", see --version and --triple.";
    if (StringRef(error).ends_with(llcHint))
      error.resize(error.size() - llcHint.size());
    if (!march.empty())
      throw Failure(LLVMPLUG_ERROR_TARGET,
                    "unknown -march '" + march.str() + "': " + error + " " + marchHabit(march));
    throw Failure(LLVMPLUG_ERROR_TARGET, "unknown target triple '" + triple.str() + "': " + error);
  }
  if (!requested.empty() && !march.empty()) {
    // A target named twice must be named alike, whatever the spelling (the
    // call's target and -mtriple are compared in compiler.cpp): -march may
    // repeat the requested triple's architecture, never replace it, or
    // --target x86_64-linux-gnu -march=aarch64 would quietly give AArch64.
    Triple asked(Triple::normalize(requested));
    std::string ignored;
    const Target *askedTarget = TargetRegistry::lookupTarget(asked, ignored);
    if (triple.getArch() != asked.getArch() || target != askedTarget)
      throw Failure(LLVMPLUG_ERROR_OPTION,
                    "-march=" + march.str() + " conflicts with target '" + requested.str() +
                        "': it selects the " + target->getName() + " backend and would compile for '" +
                        triple.str() + "'; name the target once (a triple: target=, --target or -mtriple=)");
  }
  return {triple, target};
}

std::string closestCPUs(const MCSubtargetInfo &info, StringRef cpu) {
  std::vector<StringRef> names;
  for (const SubtargetSubTypeKV &entry : info.getAllProcessorDescriptions())
    names.push_back(entry.key());
  return closestNames(cpu, names);
}

// Whether `name`, a component of a triple, is what Triple understood by it:
// its canonical spelling or an abbreviation of it (macos), either followed by
// a version (darwin23.1, android21, macos11). Triple parses by prefix, so
// "gnuu" reads as "gnu".
static bool spells(StringRef name, StringRef canonical) {
  StringRef base = name.rtrim("0123456789._");
  return !base.empty() && canonical.starts_with(base);
}

std::vector<std::string> unknownComponents(StringRef text) {
  Triple triple(Triple::normalize(text));
  std::vector<std::string> found;
  // Placeholders that mean "none" in toolchains' triples, and MinGW's vendor,
  // which LLVM leaves unclassified although every MinGW triple carries it.
  auto check = [&](const char *what, StringRef name, bool known, StringRef canonical) {
    if (name.empty() || name == "unknown" || name == "none" || name == "w64")
      return;
    if (!known || !spells(name, canonical))
      found.push_back(std::string(what) + " '" + name.str() + "'");
  };
  check("vendor", triple.getVendorName(), triple.getVendor() != Triple::UnknownVendor,
        Triple::getVendorTypeName(triple.getVendor()));
  check("OS", triple.getOSName(), triple.getOS() != Triple::UnknownOS, Triple::getOSTypeName(triple.getOS()));
  // The environment component may name only an object format (riscv32-unknown-none-elf),
  // or an environment and one (x86_64-pc-linux-gnu-elf).
  StringRef environment = triple.getEnvironmentName();
  StringRef format = Triple::getObjectFormatTypeName(triple.getObjectFormat());
  environment.consume_back(("-" + format).str());
  if (environment != format)
    check("environment", environment, triple.getEnvironment() != Triple::UnknownEnvironment,
          Triple::getEnvironmentTypeName(triple.getEnvironment()));
  return found;
}

namespace {

std::unique_ptr<MCSubtargetInfo> subtargetInfo(const Triple &triple, const Target &target) {
  std::unique_ptr<MCSubtargetInfo> info(target.createMCSubtargetInfo(triple, "", ""));
  if (!info)
    throw Failure(LLVMPLUG_ERROR_TARGET, "no subtarget information for '" + triple.str() + "'");
  return info;
}

bool knownFeature(const MCSubtargetInfo &info, StringRef feature) {
  StringRef name = feature.drop_while([](char c) { return c == '+' || c == '-'; });
  return any_of(info.getAllProcessorFeatures(),
                [&](const SubtargetFeatureKV &kv) { return name == kv.key(); });
}

[[noreturn]] void unknownFeature(const Triple &triple, StringRef feature, StringRef where) {
  throw Failure(LLVMPLUG_ERROR_TARGET, "unknown CPU feature '" + feature.str() + "'" + where.str() +
                                           " for target '" + triple.str() + "'");
}

void checkCPUs(const MCSubtargetInfo &info, const Triple &triple, StringRef cpu, StringRef tuneCPU,
               StringRef where) {
  for (const auto &[what, name] : {std::pair{"CPU", cpu}, {"tuning CPU", tuneCPU}})
    if (!name.empty() && !info.isCPUStringValid(name))
      throw Failure(LLVMPLUG_ERROR_TARGET, "unknown " + std::string(what) + " '" + name.str() + "'" +
                                               where.str() + " for target '" + triple.str() + "'" +
                                               closestCPUs(info, name));
}

} // namespace

void checkCPUAndFeatures(const Triple &triple, const Target &target, StringRef cpu, StringRef tuneCPU,
                         ArrayRef<std::string> features, StringRef where) {
  if (cpu.empty() && tuneCPU.empty() && features.empty())
    return; // nothing named: no subtarget information to build (a few µs of every compile)
  std::unique_ptr<MCSubtargetInfo> info = subtargetInfo(triple, target);
  checkCPUs(*info, triple, cpu, tuneCPU, where);
  for (const std::string &feature : features)
    if (!knownFeature(*info, feature))
      unknownFeature(triple, feature, where);
}

void checkFunctionTargets(Module &module, const Triple &triple, const Target &target) {
  std::unique_ptr<MCSubtargetInfo> info; // made only if something names a CPU or feature
  // The features LLVM will read; nullopt when they are the ones given.
  auto check = [&](StringRef cpu, StringRef tuneCPU, StringRef given,
                   const std::string &where) -> std::optional<std::string> {
    if (cpu.empty() && tuneCPU.empty() && given.empty())
      return std::nullopt;
    if (!info)
      info = subtargetInfo(triple, target);
    checkCPUs(*info, triple, cpu, tuneCPU, where);
    SmallVector<StringRef, 16> features;
    SplitString(given, features, ",");
    std::string known;
    bool dropped = false;
    for (StringRef feature : features) {
      if (knownFeature(*info, feature))
        known += (known.empty() ? "" : ",") + feature.str();
      else if (feature.starts_with("-"))
        dropped = true; // disables nothing LLVM knows (an older clang's name)
      else
        unknownFeature(triple, feature, where);
    }
    return dropped ? std::optional<std::string>(known) : std::nullopt;
  };
  for (Function &function : module)
    if (std::optional<std::string> features =
            check(function.getFnAttribute("target-cpu").getValueAsString(),
                  function.getFnAttribute("tune-cpu").getValueAsString(),
                  function.getFnAttribute("target-features").getValueAsString(),
                  " (the attributes of function '" + function.getName().str() + "')"))
      function.addFnAttr("target-features", *features);
  for (Module::GlobalAsmFragment &fragment : module.getModuleInlineAsm())
    if (std::optional<std::string> features = check(
            fragment.Props.TargetCPU, "", fragment.Props.TargetFeatures, " (the properties of module asm)"))
      fragment.Props.TargetFeatures = *features;
}

namespace {

// A data layout as a frontend needs it: the string to write into the module
// and what it says about pointers (address space 0) and byte order.
json::Object describeLayout(StringRef text) {
  Expected<DataLayout> layout = DataLayout::parse(text); // not the constructor: it aborts on a bad string
  if (!layout)
    throw Failure(LLVMPLUG_ERROR_INTERNAL,
                  "LLVM's data layout \"" + text.str() + "\": " + toString(layout.takeError()));
  return json::Object{{"data_layout", text.str()}, // owned: json::Value only borrows a StringRef
                      {"pointer_bits", layout->getPointerSizeInBits(0)},
                      {"endianness", layout->isBigEndian() ? "big" : "little"}};
}

// The flags that change a target's data layout, each with the ABI name
// Triple::computeDataLayout reads: the layout of LLVM 23 follows the triple
// and the ABI alone, never the CPU (computeDataLayout takes none).
std::vector<std::pair<std::string, std::string>> layoutFlags(const Triple &triple) {
  std::vector<std::string> abis;
  if (triple.isARM() || triple.isThumb())
    abis = {"apcs-gnu", "aapcs", "aapcs-linux", "aapcs16"};
  else if (triple.isMIPS())
    abis = {"o32", "n32", "n64"};
  else if (triple.isRISCV())
    abis = {triple.isRISCV64() ? "lp64e" : "ilp32e"};
  std::vector<std::pair<std::string, std::string>> flags;
  for (const std::string &abi : abis)
    flags.emplace_back("-target-abi=" + abi, abi);
  if (triple.getArch() == Triple::nvptx64)
    flags.emplace_back("-nvptx-short-ptr", "shortptr");
  return flags;
}

} // namespace

std::string describeTarget(StringRef requested) {
  TargetChoice choice = chooseTarget(requested, "", "");
  std::unique_ptr<MCSubtargetInfo> info(choice.target->createMCSubtargetInfo(choice.triple, "", ""));
  if (!info)
    throw Failure(LLVMPLUG_ERROR_TARGET, "no subtarget information for '" + choice.triple.str() + "'");
  json::Array cpus;
  for (const SubtargetSubTypeKV &cpu : info->getAllProcessorDescriptions())
    cpus.push_back(cpu.key());
  // The triple's own layout (what a target machine without -target-abi
  // uses), and the flags that give another.
  std::string layout = choice.triple.computeDataLayout();
  json::Array otherLayouts;
  for (const auto &[flag, abi] : layoutFlags(choice.triple)) {
    std::string other = choice.triple.computeDataLayout(abi);
    if (other != layout) {
      json::Object entry = describeLayout(other);
      entry["flag"] = flag;
      otherLayouts.push_back(std::move(entry));
    }
  }
  json::Array features;
  for (const SubtargetFeatureKV &feature : info->getAllProcessorFeatures())
    features.push_back(json::Object{{"name", feature.key()}, {"description", feature.desc()}});
  json::Object result = describeLayout(layout);
  result["triple"] = choice.triple.str();
  result["target"] = choice.target->getName();
  result["description"] = choice.target->getShortDescription();
  result["cpus"] = std::move(cpus);
  result["other_data_layouts"] = std::move(otherLayouts);
  result["features"] = std::move(features);
  json::Array unknown;
  for (std::string &component : unknownComponents(requested))
    unknown.push_back(std::move(component));
  result["unknown_components"] = std::move(unknown);
  std::string text;
  raw_string_ostream os(text);
  os << json::Value(std::move(result));
  return text;
}

} // namespace llvmplug
