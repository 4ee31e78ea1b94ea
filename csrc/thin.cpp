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

#include <atomic>
#include <functional>
#include <map>
#include <mutex>

using namespace llvm;

namespace llvmplug {

namespace {

// What LLVM reports while the modules are optimised and generated
// (diagnostics.h), from several threads at once.
class Reports {
public:
  void report(const DiagnosticInfo &info) {
    std::string line = reportDiagnostic(info);
    std::lock_guard<std::mutex> hold(lock_);
    warnings_ += line;
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

// The index moduleName gave, or SIZE_MAX for a name it did not give.
size_t moduleIndex(StringRef name) {
  size_t index = 0;
  if (!name.consume_front("llvmplug-module-") || name.getAsInteger(10, index))
    return SIZE_MAX;
  return index;
}

// Timings calls that do nothing without a Timings.
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

// Run job(0) .. job(count - 1) on at most `threads` big-stack threads.
void runBounded(size_t count, unsigned threads, const std::function<void(size_t)> &job) {
  std::atomic<size_t> next{0};
  runInParallel(std::min<size_t>(std::max(threads, 1u), count), [&](size_t) {
    for (size_t index; (index = next++) < count;)
      job(index);
  });
}

std::unique_ptr<TargetMachine> makeMachine(const ThinSettings &settings) {
  std::string error;
  const Target *target = TargetRegistry::lookupTarget(settings.triple, error);
  if (!target)
    throw Failure(LLVMPLUG_ERROR_TARGET, error);
  std::unique_ptr<TargetMachine> machine(target->createTargetMachine(
      settings.triple, settings.cpu, settings.features, settings.options, settings.relocModel,
      settings.codeModel, settings.codegenLevel));
  if (!machine)
    throw Failure(LLVMPLUG_ERROR_TARGET, "could not create a target machine for '" + settings.triple.str() + "'");
  return machine;
}

// The module with its summary as bitcode (what clang -flto=thin writes for
// each translation unit), after the pre-link work ThinLTO needs.
std::string preLink(StringRef bitcode, size_t index, const ThinSettings &settings, Reports &reports) {
  LLVMContext context;
  context.setDiagnosticHandlerCallBack(
      [](const DiagnosticInfo *info, void *reports) { static_cast<Reports *>(reports)->report(*info); },
      &reports, /*RespectFilters=*/true);
  Expected<std::unique_ptr<Module>> parsed = parseBitcodeFile(MemoryBufferRef(bitcode, ""), context);
  if (!parsed)
    throw Failure(LLVMPLUG_ERROR_INTERNAL, "bad bitcode between stages: " + toString(parsed.takeError()));
  Module &module = **parsed;
  module.setModuleIdentifier(moduleName(index));
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
  return out;
}

// lto::LTO's in-process backend runs each module on LLVM's thread pool; this
// one collects the jobs and runs them on big-stack threads (thin.h).
class BigStackBackend : public lto::ThinBackendProc {
public:
  BigStackBackend(const lto::Config &config, ModuleSummaryIndex &index,
                  const DenseMap<StringRef, GVSummaryMapTy> &defined, AddStreamFn addStream,
                  ArrayRef<StringRef> libFuncs, unsigned threads, Timer timer)
      : ThinBackendProc(config, index, defined, nullptr, false, heavyweight_hardware_concurrency(1)),
        addStream_(std::move(addStream)), libFuncs_(libFuncs.begin(), libFuncs.end()), threads_(threads),
        timer_(timer) {}

  Error start(unsigned task, BitcodeModule module, const FunctionImporter::ImportMapTy &imports,
              const FunctionImporter::ExportSetTy &, const std::map<GlobalValue::GUID, GlobalValue::LinkageTypes> &,
              MapVector<StringRef, BitcodeModule> &moduleMap) override {
    const GVSummaryMapTy &defined = ModuleToDefinedGVSummaries.find(module.getModuleIdentifier())->second;
    // The import lists and maps live until LTO::run returns, after wait().
    jobs_.push_back([this, task, module, &imports, &defined, &moduleMap]() mutable {
      size_t part = moduleIndex(module.getModuleIdentifier());
      timer_.partStage(part, "optimise"); // PreCodeGenModuleHook starts its code generation
      lto::LTOLLVMContext context(Conf);
      Expected<std::unique_ptr<Module>> parsed = module.parseModule(context);
      if (!parsed)
        throw Failure(LLVMPLUG_ERROR_INTERNAL, "ThinLTO: " + toString(parsed.takeError()));
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
    runBounded(jobs_.size(), threads_, [&](size_t index) { jobs_[index](); });
    return Error::success();
  }

private:
  AddStreamFn addStream_;
  std::vector<std::string> libFuncs_;
  unsigned threads_;
  Timer timer_;
  std::vector<std::function<void()>> jobs_;
};

// One output buffer per module, found by the module's identifier.
class Outputs {
public:
  explicit Outputs(size_t count) : buffers_(count) {}
  SmallVector<char, 0> &forModule(StringRef name) {
    StringRef digits = name;
    size_t index = 0;
    if (!digits.consume_front("llvmplug-module-") || digits.getAsInteger(10, index) || index >= buffers_.size())
      throw Failure(LLVMPLUG_ERROR_INTERNAL, "ThinLTO produced output for an unknown module '" + name.str() + "'");
    return buffers_[index];
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

} // namespace

ThinResult compileThin(const std::vector<std::string> &modules, const ThinSettings &settings) {
  Reports reports;
  Timer timer{settings.timings};
  if (settings.timings)
    settings.timings->parts(modules.size());
  timer.stage("summarise");
  std::vector<std::string> summarised(modules.size());
  runBounded(modules.size(), settings.threads, [&](size_t index) {
    timer.partStage(index, "summarise");
    summarised[index] = preLink(modules[index], index, settings, reports);
    timer.partStage(index, nullptr); // not counting the wait for the others
  });
  timer.stage("import"); // symbol resolution and the thin link, serial

  lto::Config config;
  config.CPU = settings.cpu;
  config.MAttrs = {settings.features};
  config.Options = settings.options;
  config.RelocModel = settings.relocModel;
  config.CodeModel = settings.codeModel;
  config.CGOptLevel = settings.codegenLevel;
  config.OptLevel = settings.optLevel;
  config.CGFileType = settings.output == ThinSettings::Output::Assembly ? CodeGenFileType::AssemblyFile
                                                                       : CodeGenFileType::ObjectFile;
  config.DisableVerify = true; // every module was verified before it got here
  config.ShouldDiscardValueNames = false; // bitcode output keeps its names, as compile's does
  config.DiagHandler = [&](const DiagnosticInfo &info) { reports.report(info); };

  Outputs outputs(modules.size());
  config.PreCodeGenModuleHook = [&](unsigned, const Module &module) {
    timer.partStage(moduleIndex(module.getModuleIdentifier()),
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
  lto::ThinBackend backend(
      [threads, timer](const lto::Config &config, ModuleSummaryIndex &index,
                       const DenseMap<StringRef, GVSummaryMapTy> &defined, AddStreamFn addStream, FileCache,
                       ArrayRef<StringRef> libFuncs) {
        return std::make_unique<BigStackBackend>(config, index, defined, std::move(addStream), libFuncs, threads,
                                                 timer);
      },
      heavyweight_hardware_concurrency(threads));
  lto::LTO lto(std::move(config), std::move(backend));

  // Symbol resolution as a linker would do it for objects that are linked
  // again afterwards: every definition stays visible (nothing is internalised
  // that a later link might need); the first definition of a weak symbol
  // prevails; two strong definitions are a LinkError.
  std::vector<std::unique_ptr<lto::InputFile>> inputs;
  std::map<std::string, std::pair<size_t, bool>> definitions; // name -> (module, weak)
  std::vector<std::string> names; // the inputs' identifiers: LTO keeps references to them
  for (size_t index = 0; index < summarised.size(); ++index)
    names.push_back(moduleName(index));
  for (size_t index = 0; index < summarised.size(); ++index) {
    Expected<std::unique_ptr<lto::InputFile>> input =
        lto::InputFile::create(MemoryBufferRef(summarised[index], names[index]));
    if (!input)
      throw Failure(LLVMPLUG_ERROR_INTERNAL, "ThinLTO input: " + toString(input.takeError()));
    for (const lto::InputFile::Symbol &symbol : (*input)->symbols()) {
      if (symbol.isUndefined())
        continue;
      auto [it, first] = definitions.emplace(symbol.getName().str(), std::make_pair(index, symbol.isWeak()));
      if (first || symbol.isWeak())
        continue;
      if (!it->second.second)
        throw Failure(LLVMPLUG_ERROR_LINK, "'" + symbol.getName().str() + "' is defined by module " +
                                               std::to_string(it->second.first) + " and module " +
                                               std::to_string(index));
      it->second = {index, false}; // a strong definition beats the weak one seen first
    }
    inputs.push_back(std::move(*input));
  }
  for (size_t index = 0; index < inputs.size(); ++index) {
    std::vector<lto::SymbolResolution> resolutions;
    for (const lto::InputFile::Symbol &symbol : inputs[index]->symbols()) {
      lto::SymbolResolution resolution;
      if (!symbol.isUndefined()) {
        auto found = definitions.find(symbol.getName().str());
        resolution.Prevailing = found->second.first == index;
        resolution.VisibleToRegularObj = true;
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
