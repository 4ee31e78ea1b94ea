#include "thin.h"

#include "analyses.h"
#include "diagnostics.h"
#include "failure.h"
#include "split.h"
#include "timings.h"

#include "llvm/Analysis/ModuleSummaryAnalysis.h"
#include "llvm/Analysis/ProfileSummaryInfo.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/CodeGen/CommandFlags.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"
#include "llvm/LTO/LTO.h"
#include "llvm/LTO/LTOBackend.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/Caching.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

#include <algorithm>
#include <atomic>
#include <functional>
#include <map>
#include <mutex>
#include <optional>

using namespace llvm;

namespace llvmplug {

namespace {

// What LLVM reports while the modules are optimised and generated
// (diagnostics.h), from several threads at once.
class Reports {
public:
  void report(const DiagnosticInfo &info) { add(reportDiagnostic(info)); }
  void add(const std::string &lines) {
    std::lock_guard<std::mutex> hold(lock_);
    warnings_ += lines;
  }
  std::string take() {
    std::lock_guard<std::mutex> hold(lock_);
    return std::move(warnings_);
  }

private:
  std::mutex lock_;
  std::string warnings_;
};

std::string moduleName(size_t index) { return "llvmplug-module-" + std::to_string(index); }

// The index in moduleName(index), if `name` is one of `count` modules'.
std::optional<size_t> moduleIndex(StringRef name, size_t count) {
  size_t index = 0;
  if (!name.consume_front("llvmplug-module-") || name.getAsInteger(10, index) || index >= count)
    return std::nullopt;
  return index;
}

// Timings calls that do nothing without a Timings (an index out of range is ignored).
struct Timer {
  Timings *timings;
  void stage(const char *name) const {
    if (timings)
      timings->stage(name);
  }
  void partStage(size_t index, const char *name) const {
    if (timings)
      timings->partStage(index, name);
  }
  void partDone(size_t index) const {
    if (timings)
      timings->partDone(index);
  }
};

// Run job(0) .. job(count - 1) on at most `threads` big-stack threads, the
// largest first (by `size`, a proxy for the work): started last, one large
// module would leave the other threads idle while it runs alone.
void runBounded(size_t count, unsigned threads, const std::function<size_t(size_t)> &size,
                const std::function<void(size_t)> &job) {
  std::vector<size_t> order(count);
  for (size_t index = 0; index < count; ++index)
    order[index] = index;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return size(a) > size(b); });
  std::atomic<size_t> next{0};
  runInParallel(std::min<size_t>(std::max(threads, 1u), count), [&](size_t) {
    for (size_t index; (index = next++) < count;)
      job(order[index]);
  });
}

std::unique_ptr<TargetMachine> makeMachine(const ThinSettings &settings) {
  std::string error;
  const Target *target = TargetRegistry::lookupTarget(settings.machine.triple, error);
  if (!target)
    throw Failure(LLVMPLUG_ERROR_TARGET, error);
  return createMachine(*target, settings.machine);
}

// A module clang compiled for full LTO (-flto) says so in a "ThinLTO" flag of
// 0, and the bitcode writer then writes a full-LTO summary, which lto::LTO
// sends to its one monolithic partition instead of a per-module job: every
// module here is a ThinLTO input, so the flag goes.
void dropFullLTOFlag(Module &module) {
  NamedMDNode *flags = module.getModuleFlagsMetadata();
  if (!flags || !module.getModuleFlag("ThinLTO"))
    return;
  SmallVector<MDNode *, 8> kept;
  for (MDNode *flag : flags->operands())
    if (!(flag->getNumOperands() == 3 && isa<MDString>(flag->getOperand(1)) &&
          cast<MDString>(flag->getOperand(1))->getString() == "ThinLTO"))
      kept.push_back(flag);
  flags->clearOperands();
  for (MDNode *flag : kept)
    flags->addOperand(flag);
}

// The module with its summary as bitcode (what clang -flto=thin writes for
// each translation unit), after the pre-link work ThinLTO needs.
std::string preLink(StringRef bitcode, size_t index, const ThinSettings &settings, Reports &reports) {
  DiagnosedContext diagnostics;
  LLVMContext &context = diagnostics.context;
  Expected<std::unique_ptr<Module>> parsed = parseBitcodeFile(MemoryBufferRef(bitcode, ""), context);
  if (!parsed)
    throw Failure(LLVMPLUG_ERROR_INTERNAL, "bad bitcode between stages: " + toString(parsed.takeError()));
  Module &module = **parsed;
  module.setModuleIdentifier(moduleName(index));
  dropFullLTOFlag(module);
  std::unique_ptr<TargetMachine> machine = makeMachine(settings);

  PassBuilder builder(machine.get());
  TargetLibraryInfoImpl libraryInfo(module.getTargetTriple(), codegen::getVectorLibrary());
  Analyses analyses(builder, libraryInfo);
  // Only what a ThinLTO pre-link compile must do (always-inline, the
  // summary's analyses), not clang's pre-link simplification: the post-link
  // pipeline (lto::Config::OptLevel) runs the whole simplification and
  // optimisation again anyway, so in one process that only doubles the work
  // (measured on a 2.3 MB module: +21% CPU for one module, and compile_parts
  // at 2 parts 1.38x instead of 1.70x of a whole compile).
  ModulePassManager pipeline =
      builder.buildO0DefaultPipeline(OptimizationLevel::O0, ThinOrFullLTOPhase::ThinLTOPreLink);
  pipeline.run(module, analyses.modules);
  ProfileSummaryInfo profile(module);
  ModuleSummaryIndex summary = buildModuleSummaryIndex(module, nullptr, &profile);
  std::string out;
  raw_string_ostream os(out);
  // The module hash names promoted locals (helper.llvm.<hash>): without it
  // every module's would be ".llvm.0", and two translation units compiled by
  // separate calls would collide when linked.
  WriteBitcodeToFile(module, os, /*ShouldPreserveUseListOrder=*/true, &summary, /*GenerateHash=*/true);
  os.flush();
  reports.add(diagnostics.warnings); // one module's lines together
  return out;
}

// Per module: the IR names of the tentative definitions that prevail there,
// with the alignment they must have.
using CommonAlignments = std::vector<std::map<std::string, Align>>;

// lto::LTO's in-process backend runs each module on LLVM's thread pool; this
// one collects the jobs and runs them on big-stack threads (thin.h).
class BigStackBackend : public lto::ThinBackendProc {
public:
  BigStackBackend(const lto::Config &config, ModuleSummaryIndex &index,
                  const DenseMap<StringRef, GVSummaryMapTy> &defined, AddStreamFn addStream,
                  ArrayRef<StringRef> libFuncs, unsigned threads, const CommonAlignments &alignments,
                  Timer timer)
      : ThinBackendProc(config, index, defined, nullptr, false, heavyweight_hardware_concurrency(1)),
        addStream_(std::move(addStream)), libFuncs_(libFuncs.begin(), libFuncs.end()), threads_(threads),
        alignments_(alignments), timer_(timer) {}

  Error start(unsigned task, BitcodeModule module, const FunctionImporter::ImportMapTy &imports,
              const FunctionImporter::ExportSetTy &,
              const std::map<GlobalValue::GUID, GlobalValue::LinkageTypes> &,
              MapVector<StringRef, BitcodeModule> &moduleMap) override {
    const GVSummaryMapTy &defined = ModuleToDefinedGVSummaries.find(module.getModuleIdentifier())->second;
    // The import lists and maps live until LTO::run returns, after wait().
    sizes_.push_back(module.getBuffer().size());
    jobs_.push_back([this, task, module, &imports, &defined, &moduleMap]() mutable {
      size_t part = moduleIndex(module.getModuleIdentifier(), sizes_.size()).value_or(SIZE_MAX);
      timer_.partStage(part, "optimise"); // PreCodeGenModuleHook starts its code generation
      lto::LTOLLVMContext context(Conf);
      Expected<std::unique_ptr<Module>> parsed = module.parseModule(context);
      if (!parsed)
        throw Failure(LLVMPLUG_ERROR_INTERNAL, "ThinLTO: " + toString(parsed.takeError()));
      alignCommons(**parsed);
      std::vector<StringRef> libFuncs(libFuncs_.begin(), libFuncs_.end());
      if (Error error = lto::thinBackend(Conf, task, addStream_, **parsed, CombinedIndex, imports, defined,
                                         &moduleMap, /*CodeGenOnly=*/false, libFuncs))
        throw Failure(LLVMPLUG_ERROR_CODEGEN, "ThinLTO: " + toString(std::move(error)));
      timer_.partDone(part);
    });
    return Error::success();
  }

  Error wait() override {
    timer_.stage("optimise+codegen");
    runBounded(
        jobs_.size(), threads_, [&](size_t index) { return sizes_[index]; },
        [&](size_t index) { jobs_[index](); });
    return Error::success();
  }

private:
  // The tentative definition that prevails gets the largest alignment any
  // module asked for, as a program linker gives the merged symbol.
  void alignCommons(Module &module) const {
    std::optional<size_t> index = moduleIndex(module.getModuleIdentifier(), alignments_.size());
    if (!index)
      return;
    for (const auto &[name, alignment] : alignments_[*index])
      if (GlobalVariable *global = module.getNamedGlobal(name))
        if (global->hasCommonLinkage() && global->getAlign().valueOrOne() < alignment)
          global->setAlignment(alignment);
  }

  AddStreamFn addStream_;
  std::vector<std::string> libFuncs_;
  unsigned threads_;
  const CommonAlignments &alignments_;
  Timer timer_;
  std::vector<std::function<void()>> jobs_;
  std::vector<size_t> sizes_; // each job's module's bitcode
};

// One output buffer per module, found by the module's identifier.
class Outputs {
public:
  explicit Outputs(size_t count) : buffers_(count) {}
  SmallVector<char, 0> &forModule(StringRef name) {
    std::optional<size_t> index = moduleIndex(name, buffers_.size());
    if (!index)
      throw Failure(LLVMPLUG_ERROR_INTERNAL,
                    "ThinLTO produced output for an unknown module '" + name.str() + "'");
    return buffers_[*index];
  }
  std::vector<std::string> take() {
    std::vector<std::string> out;
    for (auto &buffer : buffers_)
      out.emplace_back(buffer.begin(), buffer.end());
    return out;
  }

private:
  std::vector<SmallVector<char, 0>> buffers_;
};

// Where each symbol defined in the modules prevails, resolved as a program
// linker resolves definitions: a strong one over tentative (common) ones,
// which prevail over weak and linkonce ones; of several tentative ones the
// largest (the first of equals), given the largest alignment of all
// (`alignments`); of weak ones the first. Two strong definitions are a
// LinkError.
struct Chosen {
  size_t module;
  enum Rank { Weak, Common, Strong } rank;
  uint64_t size;
  std::string irName;
  MaybeAlign commonAlignment; // the largest of all tentative definitions'
};

std::map<std::string, Chosen> resolve(const std::vector<std::unique_ptr<lto::InputFile>> &inputs,
                                      CommonAlignments &alignments) {
  std::map<std::string, Chosen> chosen;
  for (size_t index = 0; index < inputs.size(); ++index) {
    for (const lto::InputFile::Symbol &symbol : inputs[index]->symbols()) {
      if (symbol.isUndefined())
        continue;
      Chosen::Rank rank = symbol.isCommon() ? Chosen::Common
                          : symbol.isWeak() ? Chosen::Weak
                                            : Chosen::Strong;
      uint64_t size = rank == Chosen::Common ? symbol.getCommonSize() : 0;
      MaybeAlign alignment = rank == Chosen::Common ? MaybeAlign(symbol.getCommonAlignment()) : std::nullopt;
      Chosen candidate{index, rank, size, symbol.getIRName().str(), alignment};
      auto [it, first] = chosen.try_emplace(symbol.getName().str(), candidate);
      if (first)
        continue;
      Chosen &current = it->second;
      if (rank == Chosen::Strong && current.rank == Chosen::Strong)
        throw Failure(LLVMPLUG_ERROR_LINK, "'" + symbol.getName().str() + "' is defined by module " +
                                               std::to_string(current.module) + " and module " +
                                               std::to_string(index));
      if (alignment && (!current.commonAlignment || *current.commonAlignment < *alignment))
        current.commonAlignment = alignment;
      if (rank > current.rank ||
          (rank == Chosen::Common && current.rank == Chosen::Common && size > current.size)) {
        candidate.commonAlignment = current.commonAlignment;
        current = candidate;
      }
    }
  }
  for (const auto &[name, which] : chosen)
    if (which.rank == Chosen::Common && which.commonAlignment)
      alignments[which.module][which.irName] = *which.commonAlignment;
  return chosen;
}

} // namespace

ThinResult compileThin(const std::vector<std::string> &modules, const ThinSettings &settings) {
  Reports reports;
  Timer timer{settings.timings};
  if (settings.timings)
    settings.timings->parts(modules.size());
  timer.stage("summarise");
  std::vector<std::string> summarised(modules.size());
  runBounded(
      modules.size(), settings.threads, [&](size_t index) { return modules[index].size(); },
      [&](size_t index) {
        timer.partStage(index, "summarise");
        summarised[index] = preLink(modules[index], index, settings, reports);
        timer.partStage(index, nullptr); // not counting the wait for the others
      });
  timer.stage("import"); // symbol resolution and the thin link, serial

  lto::Config config;
  // lto::Config builds its own machines, from the same description.
  config.CPU = settings.machine.cpu;
  config.MAttrs = {settings.machine.features};
  config.Options = settings.machine.options;
  config.RelocModel = settings.machine.relocModel;
  config.CodeModel = settings.machine.codeModel;
  config.CGOptLevel = settings.machine.codegenLevel;
  config.OptLevel = settings.optLevel;
  config.CGFileType = settings.output == ThinSettings::Output::Assembly ? CodeGenFileType::AssemblyFile
                                                                        : CodeGenFileType::ObjectFile;
  config.DisableVerify = true;            // every module was verified before it got here
  config.ShouldDiscardValueNames = false; // bitcode output keeps its names, as compile's does
  config.DiagHandler = [&](const DiagnosticInfo &info) { reports.report(info); };

  Outputs outputs(modules.size());
  config.PreCodeGenModuleHook = [&](unsigned, const Module &module) {
    timer.partStage(moduleIndex(module.getModuleIdentifier(), modules.size()).value_or(SIZE_MAX),
                    settings.output == ThinSettings::Output::Bitcode ? "write" : "codegen");
    if (settings.beforeCodegen)
      settings.beforeCodegen(module);
    if (settings.output != ThinSettings::Output::Bitcode)
      return true;
    // Stop before code generation (as the SYCL offload flow does): the
    // optimised module, with its imports, as bitcode.
    SmallVector<char, 0> &buffer = outputs.forModule(module.getModuleIdentifier());
    raw_svector_ostream os(buffer);
    WriteBitcodeToFile(module, os, /*ShouldPreserveUseListOrder=*/true);
    return false;
  };

  unsigned threads = settings.threads;
  CommonAlignments alignments(modules.size()); // filled by resolve, read by the backend
  lto::ThinBackend backend(
      [threads, &alignments, timer](const lto::Config &config, ModuleSummaryIndex &index,
                                    const DenseMap<StringRef, GVSummaryMapTy> &defined, AddStreamFn addStream,
                                    FileCache, ArrayRef<StringRef> libFuncs) {
        return std::make_unique<BigStackBackend>(config, index, defined, std::move(addStream), libFuncs,
                                                 threads, alignments, timer);
      },
      heavyweight_hardware_concurrency(threads));
  lto::LTO lto(std::move(config), std::move(backend));

  std::vector<std::string> names; // the inputs' identifiers: LTO keeps references to them
  for (size_t index = 0; index < summarised.size(); ++index)
    names.push_back(moduleName(index));
  std::vector<std::unique_ptr<lto::InputFile>> inputs;
  for (size_t index = 0; index < summarised.size(); ++index) {
    Expected<std::unique_ptr<lto::InputFile>> input =
        lto::InputFile::create(MemoryBufferRef(summarised[index], names[index]));
    if (!input)
      throw Failure(LLVMPLUG_ERROR_INTERNAL, "ThinLTO input: " + toString(input.takeError()));
    inputs.push_back(std::move(*input));
  }
  std::map<std::string, Chosen> chosen = resolve(inputs, alignments);
  for (size_t index = 0; index < inputs.size(); ++index) {
    std::vector<lto::SymbolResolution> resolutions;
    for (const lto::InputFile::Symbol &symbol : inputs[index]->symbols()) {
      lto::SymbolResolution resolution;
      if (!symbol.isUndefined()) {
        resolution.Prevailing = chosen.find(symbol.getName().str())->second.module == index;
        // The outputs are linked again afterwards with objects this call
        // never sees (as lld's output is with -r): every definition stays
        // visible to them, but for a linkonce_odr one whose address does not
        // matter (unnamed_addr; for a variable, a constant): any other object
        // that uses it defines it too, and a private copy cannot be told from
        // it, so ThinLTO keeps it only where a module here still needs it.
        // Another linkonce one may be a C++ inline function's static local,
        // whose one copy every object shares, or a function whose address is
        // compared across files: visible.
        resolution.VisibleToRegularObj = !symbol.canBeOmittedFromSymbolTable();
      }
      resolutions.push_back(resolution);
    }
    if (Error error = lto.add(std::move(inputs[index]), resolutions))
      throw Failure(LLVMPLUG_ERROR_LINK, toString(std::move(error)));
  }

  AddStreamFn addStream = [&](unsigned, const Twine &name) -> Expected<std::unique_ptr<CachedFileStream>> {
    return std::make_unique<CachedFileStream>(
        std::make_unique<raw_svector_ostream>(outputs.forModule(name.str())));
  };
  if (Error error = lto.run(addStream))
    throw Failure(LLVMPLUG_ERROR_CODEGEN, "ThinLTO: " + toString(std::move(error)));
  return ThinResult{outputs.take(), reports.take()};
}

} // namespace llvmplug
