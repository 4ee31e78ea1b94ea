#include "compiler.h"

#include "analyses.h"
#include "asm_policy.h"
#include "backend_guards.h"
#include "debuginfo_writers.h"
#include "diagnostics.h"
#include "failure.h"
#include "gpu_checks.h"
#include "habits.h"
#include "link.h"
#include "llcflags.h"
#include "machine.h"
#include "option_registry.h"
#include "option_sharing.h"
#include "parse.h"
#include "split.h"
#include "start.h"
#include "target_checks.h"
#include "targets.h"
#include "thin.h"
#include "timings.h"

#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/AsmParser/Parser.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/CodeGen/CommandFlags.h"
#include "llvm/CodeGen/MachineModuleInfo.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/MCTargetOptionsCommandFlags.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

#include <cstdlib>
#include <cstring>
#include <optional>

using namespace llvm;

// llc's codegen flags (-mcpu, -mattr, -relocation-model, ...), registered as
// LLVM's own cl::opts so that an llc command line works unchanged.
static codegen::RegisterCodeGenFlags CodeGenFlags;
static codegen::RegisterMTuneFlag MTuneFlag;
static mc::RegisterMCTargetOptionsFlags MCFlags;

namespace llvmplug {

namespace {

enum class Output { Object, Assembly, Bitcode, Text };

// How a compile holds the copy (compileModule chooses).
enum class Sharing {
  // The runtime lock held shared, among compiles of the same per-call
  // options, which OptionGroups has put in force already.
  Grouped,
  // The runtime lock held exclusively: the compile puts its options in
  // force itself, those that targets write included (ScopedOptions).
  Alone,
};

// The flags the pipeline itself interprets; the rest are LLVM options.
struct Request {
  OptimizationLevel level = OptimizationLevel::O2;
  CodeGenOptLevel codegenLevel = CodeGenOptLevel::Default;
  std::optional<std::string> passes; // set and empty: skip IR optimisation
  Output output = Output::Object;
  std::string triple;
  LlcFlags llc; // llc's own output flags (llcflags.h)
  std::vector<std::string> llvmFlags;
};

Request parseRequest(StringRef target, StringRef flags) {
  Request request;
  request.triple = target.str();
  std::vector<std::string> tokens = tokenizeFlags(flags);
  for (size_t i = 0; i < tokens.size(); ++i) {
    StringRef token = tokens[i];
    if (token.size() == 3 && token.starts_with("-O")) {
      static const std::pair<OptimizationLevel, CodeGenOptLevel> Levels[] = {
          {OptimizationLevel::O0, CodeGenOptLevel::None},
          {OptimizationLevel::O1, CodeGenOptLevel::Less},
          {OptimizationLevel::O2, CodeGenOptLevel::Default},
          {OptimizationLevel::O3, CodeGenOptLevel::Aggressive}};
      char digit = token[2];
      if (digit < '0' || digit > '3')
        throw Failure(LLVMPLUG_ERROR_OPTION,
                      compilerHabit(token).value_or("unsupported optimisation level '" + token.str() +
                                                    "' (use -O0, -O1, -O2 or -O3)"));
      std::tie(request.level, request.codegenLevel) = Levels[digit - '0'];
    } else if (auto passes = takeFlag(tokens, i, "passes", FlagKind::Value)) {
      request.passes = *passes;
    } else if (auto type = takeFlag(tokens, i, "filetype", FlagKind::Value)) {
      const std::string &value = *type;
      if (value == "obj")
        request.output = Output::Object;
      else if (value == "asm")
        request.output = Output::Assembly;
      else if (value == "bc")
        request.output = Output::Bitcode;
      else if (value == "ll")
        request.output = Output::Text;
      else
        throw Failure(LLVMPLUG_ERROR_OPTION, "unknown -filetype '" + value + "' (use obj, asm, bc or ll)");
    } else if (auto triple = takeFlag(tokens, i, "mtriple", FlagKind::Value)) {
      // One rule for every way of naming the target (see chooseTarget for -march).
      if (!request.triple.empty() && Triple::normalize(request.triple) != Triple::normalize(*triple))
        throw Failure(LLVMPLUG_ERROR_OPTION, "-mtriple=" + *triple + " conflicts with target '" +
                                                 request.triple + "'; name the target once");
      request.triple = *triple;
    } else if (takeLlcFlag(tokens, i, request.llc)) {
    } else {
      request.llvmFlags.push_back(tokens[i]);
    }
  }
  return request;
}

std::unique_ptr<TargetMachine> createTargetMachine(const Triple &triple, const Target *target,
                                                   const Request &request) {
  checkCPUAndFeatures(triple, *target, codegen::getCPUStr(), codegen::getTuneCPUStr(),
                      codegen::getFeatureList(), "");
  std::unique_ptr<TargetMachine> machine =
      createMachine(*target, describeMachine(triple, request.llc, request.codegenLevel));
  checkInstPrinterOptions(*machine, request.llc);
  return machine;
}

void optimise(Module &module, TargetMachine &machine, const Request &request) {
  if (request.passes && request.passes->empty())
    return;
  PassBuilder builder(&machine);
  TargetLibraryInfoImpl libraryInfo(module.getTargetTriple(), codegen::getVectorLibrary());
  applyLibraryFlags(request.llc, libraryInfo);
  Analyses analyses(builder, libraryInfo);

  ModulePassManager pipeline;
  if (request.passes) {
    if (Error error = builder.parsePassPipeline(pipeline, *request.passes))
      throw Failure(LLVMPLUG_ERROR_OPTION,
                    "bad -passes pipeline '" + *request.passes + "': " + toString(std::move(error)));
  } else if (request.level == OptimizationLevel::O0) {
    pipeline = builder.buildO0DefaultPipeline(request.level);
  } else {
    pipeline = builder.buildPerModuleDefaultPipeline(request.level);
  }
  pipeline.run(module, analyses.modules);
}

// Every output is written by a pipeline built for this module alone: the
// legacy codegen pipeline's AsmPrinter, MCContext, object writer and the
// target's object-file lowering keep per-module state (CG profile entries,
// string tables, module flags seen) that a second run would carry into the
// next module's output (tests/test_fresh_state.py).
std::string emit(Module &module, TargetMachine &machine, const Request &request) {
  SmallString<0> buffer;
  raw_svector_ostream os(buffer);
  switch (request.output) {
  case Output::Bitcode:
    // As opt writes it: with the use-list order, so that code generated from
    // the bitcode equals code generated from the module in one step.
    WriteBitcodeToFile(module, os, /*ShouldPreserveUseListOrder=*/true);
    break;
  case Output::Text:
    module.print(os, nullptr); // as opt -S: no use-list order directives
    break;
  case Output::Object:
  case Output::Assembly: {
    legacy::PassManager passes;
    TargetLibraryInfoImpl libraryInfo(module.getTargetTriple(), codegen::getVectorLibrary());
    applyLibraryFlags(request.llc, libraryInfo);
    passes.add(new TargetLibraryInfoWrapperPass(libraryInfo));
    CodeGenFileType type =
        request.output == Output::Object ? CodeGenFileType::ObjectFile : CodeGenFileType::AssemblyFile;
    // Until the passes run, MC reports errors (a bad -M option, say) to its
    // context's handler, which would print them; keep them for the Failure.
    std::string mcErrors;
    auto *info = new MachineModuleInfoWrapperPass(&machine);
    info->getMMI().getContext().setDiagnosticHandler(
        [&](const SMDiagnostic &error, bool, const SourceMgr &, std::vector<const MDNode *> &) {
          mcErrors += (mcErrors.empty() ? "" : "; ") + error.getMessage().str();
        });
    // DisableVerify: the module was verified already.
    if (machine.addPassesToEmitFile(passes, os, nullptr, type, /*DisableVerify=*/true, info))
      throw Failure(
          LLVMPLUG_ERROR_TARGET,
          "the target cannot emit this file type" + (mcErrors.empty() ? "" : " (" + mcErrors + ")") +
              // NVPTX and XCore write assembly only.
              (type == CodeGenFileType::ObjectFile
                   ? std::string(": it writes no object files; use output=\"asm\" (CLI: --emit asm)")
                   : ""));
    passes.run(module);
    break;
  }
  }
  return std::string(buffer.str());
}

// What ThinLTO needs of the request: the same machine as createTargetMachine
// builds, the levels, and where to stop.
ThinSettings thinSettings(const Triple &triple, const Request &request, unsigned threads) {
  ThinSettings settings;
  settings.machine = describeMachine(triple, request.llc, request.codegenLevel);
  settings.optLevel = request.level == OptimizationLevel::O0   ? 0
                      : request.level == OptimizationLevel::O1 ? 1
                      : request.level == OptimizationLevel::O2 ? 2
                                                               : 3;
  settings.output = request.output == Output::Assembly  ? ThinSettings::Output::Assembly
                    : request.output == Output::Bitcode ? ThinSettings::Output::Bitcode
                                                        : ThinSettings::Output::Object;
  settings.threads = threads;
  return settings;
}

std::string toBitcode(const Module &module) {
  std::string bytes;
  raw_string_ostream os(bytes);
  WriteBitcodeToFile(module, os, /*ShouldPreserveUseListOrder=*/true);
  return bytes;
}

// With the runtime lock held as compileModule chose it.
// Thrown by a compile under the shared lock that turns out to need the
// exclusive one (its target writes options: targetWritesOptions, and
// compileModule's guess before parsing missed it); nothing has been written
// yet, and compileModule runs it again alone.
struct RunAlone {};

// A module parsed, verified, given its target's triple and data layout,
// linked with the link modules and checked: ready to optimise.
struct Prepared {
  std::unique_ptr<Module> module;
  TargetChoice choice;
  std::unique_ptr<TargetMachine> machine;
  AsmRules asmRules;
  std::string warnings; // what the module says about its target that does not fit (target_checks.h)
};

bool generatesCode(const Request &request) {
  return request.output == Output::Object || request.output == Output::Assembly;
}

// Ends the last stage however the call ends: a failure keeps what ran.
struct Finish {
  Timings &timings;
  ~Finish() { timings.finish(); }
};

// With the runtime lock held as `sharing` says. Throws RunAlone for a
// target that writes options when not alone.
Prepared prepareModule(const OptionRegistry &options, const Request &request, StringRef bytes,
                       ArrayRef<StringRef> links, LLVMContext &context, Sharing sharing, Timings &timings) {
  timings.stage("parse");
  // As llc: the target (the request's triple, else the module's, else the
  // host's) is chosen, and its machine made, as soon as the parser has read
  // the module's triple, and the module is parsed with its data layout.
  // A TargetMachine per compile, as a pipeline (emit): the subtargets it
  // caches hold per-module state (SPIR-V's global registry keeps the types of
  // the last module's context, so a reused machine fails at instruction
  // selection), and applyModuleSettings sets the module's code model on it.
  std::optional<TargetChoice> choice;
  std::unique_ptr<TargetMachine> machine;
  AsmRules asmRules;
  std::string warnings;
  ParseOptions parsing;
  auto target = [&](StringRef moduleTriple, StringRef moduleLayout) {
    choice = chooseTarget(request.triple, moduleTriple, codegen::getMArch());
    if (sharing != Sharing::Alone && targetWritesOptions(choice->triple))
      throw RunAlone{}; // before a target machine exists for it
    machine = createTargetMachine(choice->triple, choice->target, request);
    DataLayout layout = machine->createDataLayout();
    // llc replaces the module's triple and layout silently; say so, or
    // refuse a layout the IR cannot mean on this target.
    warnings += overriddenTriple(moduleTriple, choice->triple);
    warnings += checkDataLayout(moduleLayout, moduleTriple, choice->triple, layout);
    asmRules = asmRulesFor(options.policy(), *machine);
    return TargetFacts{layout.getStringRepresentation(), asmRules};
  };
  parsing.target = target;
  std::unique_ptr<Module> module = parseModule(bytes, context, parsing);

  std::string problems;
  raw_string_ostream problemStream(problems);
  if (verifyModuleAndDebugInfo(*module, problemStream))
    throw Failure(LLVMPLUG_ERROR_VERIFY, StringRef(problems).trim().str());

  applyModuleSettings(*machine, *module);
  module->setTargetTriple(choice->triple);
  module->setDataLayout(machine->createDataLayout());
  // Before optimisation, so that what is linked in is optimised with the
  // module (and what it does not reference is never compiled).
  if (!links.empty())
    timings.stage("link");
  linkModules(*module, links, context, asmRules);
  timings.stage("check");
  checkFunctionTargets(*module, choice->triple, *choice->target);
  if (generatesCode(request)) {
    // Before any code is generated (and after linking: a link module may
    // bring another target's intrinsics), where a backend would otherwise
    // stop with a fatal error or quietly compile something else.
    checkTargetSpecifics(*module, choice->triple);
    if (options.policy() == LLVMPLUG_POLICY_SAFE)
      refuseHostFileReads(*module, choice->triple);
    warnings += gpuCpuMismatch(*module, *machine, codegen::getCPUStr()); // before -mcpu fills the attributes
  }
  codegen::setFunctionAttributes(*module, codegen::getCPUStr(), codegen::getFeaturesStr(),
                                 codegen::getTuneCPUStr());
  return Prepared{std::move(module), *choice, std::move(machine), asmRules, std::move(warnings)};
}

Compiled compileRequest(const OptionRegistry &options, const Request &request, StringRef bytes,
                        ArrayRef<StringRef> links, unsigned parts, Sharing sharing, Timings &timings) {
  bool split = parts > 1;
  options.checkPipeline(request.passes.value_or("")); // policy: no printing or viewing passes
  // Check every LLVM flag before changing any, so a typo changes nothing.
  std::vector<Setting> settings = options.resolve(request.llvmFlags);
  bool alone = sharing == Sharing::Alone;
  ScopedOptions scope(options, alone ? settings : std::vector<Setting>(), alone);

  DiagnosedContext diagnostics;
  Prepared prepared = prepareModule(options, request, bytes, links, diagnostics.context, sharing, timings);
  diagnostics.warnings.insert(0, prepared.warnings); // first: they say what the rest is about
  std::unique_ptr<Module> &module = prepared.module;
  std::unique_ptr<TargetMachine> &machine = prepared.machine;
  const Triple &triple = prepared.choice.triple;
  const AsmRules &asmRules = prepared.asmRules;

  if (split && !request.passes) {
    // Split first, then optimise and generate the parts in parallel, ThinLTO's
    // way: summaries and cross-part importing keep inlining across parts
    // (thin.h). The parts are unoptimised here; each part's asm is checked
    // again once optimised (inlining and unrolling copy inline asm).
    timings.stage("split");
    std::vector<std::string> bitcode = splitToBitcode(*module, parts, SplitFor::Optimising);
    ThinSettings thin = thinSettings(triple, request, unsigned(bitcode.size()));
    thin.timings = &timings;
    // The guards only read the machine's configuration: safe from every part's thread.
    thin.beforeCodegen = [&](const Module &part) {
      checkModuleAsm(part, asmRules);
      refuseKnownBackendCrashes(part, *machine, request.output == Output::Object);
    };
    ThinResult result = compileThin(bitcode, thin);
    return Compiled{std::move(result.outputs), std::move(diagnostics.warnings) + result.warnings};
  }
  // With -passes the given pipeline runs over the whole module before it is
  // split; only code generation is parallel.
  timings.stage("optimise");
  optimise(*module, *machine, request);
  checkModuleAsm(*module, asmRules); // inlining and unrolling copy inline asm
  if (request.output == Output::Object || request.output == Output::Assembly) {
    refuseKnownBackendCrashes(*module, *machine, request.output == Output::Object);
    diagnostics.warnings += undefinedGpuFunctions(*module, triple);
  }
  if (!split) {
    timings.stage(generatesCode(request) ? "codegen" : "write");
    return Compiled{{emit(*module, *machine, request)}, std::move(diagnostics.warnings)};
  }

  // Each part in a context of its own with its own machine (split.h): the
  // whole module's machine has seen that module (its subtargets, its
  // module-chosen code model), so no part inherits it.
  timings.stage("split");
  std::vector<std::string> bitcode = splitToBitcode(*module, parts, SplitFor::Generating);
  std::vector<std::string> outputs(bitcode.size()), warnings(bitcode.size());
  timings.parts(bitcode.size());
  timings.stage("codegen");
  runInParallel(bitcode.size(), [&](size_t index) {
    timings.partStage(index, "codegen");
    DiagnosedContext partDiagnostics;
    std::unique_ptr<Module> part = parseModule(bitcode[index], partDiagnostics.context, ParseOptions());
    std::unique_ptr<TargetMachine> partMachine = createTargetMachine(triple, prepared.choice.target, request);
    applyModuleSettings(*partMachine, *part);
    outputs[index] = emit(*part, *partMachine, request);
    warnings[index] = std::move(partDiagnostics.warnings);
    timings.partDone(index);
  });
  for (std::string &text : warnings)
    diagnostics.warnings += text;
  return Compiled{std::move(outputs), std::move(diagnostics.warnings)};
}

// Every per-call option is a value of the compile (not one that prints,
// times or keeps state, which the "all" policy lets through): only those may
// be in force for several compiles at once.
bool valuesOnly(const OptionRegistry &registry, const std::vector<Setting> &settings) {
  return all_of(settings, [&](const Setting &setting) {
    return registry.classify(*setting.option).verdict.kind == OptionClass::Value;
  });
}

// LLVMPLUG_PREVIOUS_SHARING=1: compiles share the copy only as before issue
// 20 (x86 without per-call options), for benchmarks/throughput.py to measure
// that design beside this one in the same run.
bool previousSharing() {
  static const bool chosen = [] {
    const char *value = std::getenv("LLVMPLUG_PREVIOUS_SHARING");
    return value && *value && std::strcmp(value, "0") != 0;
  }();
  return chosen;
}

// The module's own triple, read without parsing it: from bitcode's module
// block, or from IR text's `target triple = "..."` line ("" if none). A
// guess that parsing confirms (compileRequest throws RunAlone otherwise).
std::string peekTriple(StringRef bytes) {
  auto start = reinterpret_cast<const unsigned char *>(bytes.data());
  if (isBitcode(start, start + bytes.size())) {
    Expected<std::string> triple = getBitcodeTargetTriple(MemoryBufferRef(bytes, "<module>"));
    if (!triple) {
      consumeError(triple.takeError());
      return "";
    }
    return *triple;
  }
  while (!bytes.empty()) {
    StringRef line;
    std::tie(line, bytes) = bytes.split('\n');
    // Each word of `target triple = "..."`, blanks allowed between them.
    bool matched = true;
    for (StringRef word : {"target", "triple", "=", "\""})
      matched = matched && (line = line.ltrim()).consume_front(word);
    if (matched)
      return line.take_until([](char c) { return c == '"'; }).str();
  }
  return "";
}

// The triple the compile will be for, decided before parsing so that a
// compile is parsed once, under the lock it needs (see chooseTarget).
Triple expectedTriple(const Request &request, const std::vector<Setting> &settings, StringRef bytes) {
  std::string march;
  for (const Setting &setting : settings)
    if (setting.option->ArgStr == "march")
      march = setting.value;
  try {
    return chooseTarget(request.triple, request.triple.empty() ? peekTriple(bytes) : "", march).triple;
  } catch (const Failure &) {
    return Triple(); // compileRequest reports it; an unknown arch runs alone meanwhile
  }
}

} // namespace

Compiled compileModule(StringRef bytes, StringRef target, StringRef flags, ArrayRef<StringRef> links,
                       unsigned parts, Timings &timings) {
  Running running(timings); // llvmplug_progress lists it until it returns
  Finish finish{timings};
  timings.stage("wait");
  Request request = parseRequest(target, flags);
  if (parts > 1 && request.output != Output::Object && request.output != Output::Assembly)
    throw Failure(LLVMPLUG_ERROR_ARGUMENT,
                  "split code generation (parts > 1) produces objects or assembly only, not " +
                      std::string(request.output == Output::Bitcode ? "bitcode" : "IR text"));
  // Compiles share the copy (the lock held shared), grouped by their
  // per-call options: the same set runs together, another set waits
  // (OptionGroups, options.h). Alone (exclusive) run compiles for a target
  // that writes options itself, compiles with per-call options beyond the
  // safe policy's values, and every compile while such a sticky option is in
  // force (they write LLVM's shared streams and timers).
  {
    SharedLock shared(runtimeLock());
    const OptionRegistry &registry = runtime();
    std::vector<Setting> settings = registry.resolve(request.llvmFlags); // a typo changes nothing
    Triple expected = expectedTriple(request, settings, bytes);
    if (!registry.stickyBeyondValues() && valuesOnly(registry, settings) && !targetWritesOptions(expected) &&
        !(previousSharing() && (!settings.empty() || !expected.isX86()))) {
      OptionGroups &groups = optionGroups();
      groups.enter(registry, settings, optionSetKey(settings));
      struct Leave {
        OptionGroups &groups;
        ~Leave() { groups.leave(); }
      } leave{groups};
      try {
        return compileRequest(registry, request, bytes, links, parts, Sharing::Grouped, timings);
      } catch (const RunAlone &) {
        // The module named another target than it seemed to: run it again
        // alone (below). Only ever trades up: running alone is always correct.
      }
    }
  }
  timings.stage("wait");
  ExclusiveLock exclusive(runtimeLock());
  return compileRequest(runtime(), request, bytes, links, parts, Sharing::Alone, timings);
}

Compiled compileModules(ArrayRef<StringRef> modules, ArrayRef<StringRef> links, StringRef target,
                        StringRef flags, unsigned threads, Timings &timings) {
  Running running(timings);
  Finish finish{timings};
  timings.stage("wait");
  Request request = parseRequest(target, flags);
  if (request.passes)
    throw Failure(LLVMPLUG_ERROR_OPTION,
                  "-passes cannot be used when modules are optimised together (ThinLTO runs its own "
                  "pipelines, chosen by -O0..-O3)");
  if (request.output == Output::Text)
    throw Failure(LLVMPLUG_ERROR_ARGUMENT,
                  "modules optimised together produce objects, assembly or bitcode, not IR text");
  // Alone: the work is parallel inside the call already.
  ExclusiveLock exclusive(runtimeLock());
  const OptionRegistry &options = runtime();
  std::vector<Setting> settings = options.resolve(request.llvmFlags);
  ScopedOptions scope(options, settings, /*alone=*/true);

  std::vector<std::string> bitcode;
  std::string warnings;
  std::optional<Triple> common;
  std::optional<AsmRules> asmRules;
  std::unique_ptr<TargetMachine> machine;
  for (size_t index = 0; index < modules.size(); ++index) {
    DiagnosedContext diagnostics;
    Prepared prepared =
        prepareModule(options, request, modules[index], links, diagnostics.context, Sharing::Alone, timings);
    if (common && *common != prepared.choice.triple)
      throw Failure(LLVMPLUG_ERROR_TARGET, "module " + std::to_string(index) + " is for '" +
                                               prepared.choice.triple.str() + "', module 0 for '" +
                                               common->str() + "'");
    common = prepared.choice.triple;
    asmRules = prepared.asmRules;
    machine = std::move(prepared.machine); // every module's is configured alike
    bitcode.push_back(toBitcode(*prepared.module));
    if (!StringRef(warnings).contains(prepared.warnings)) // every module's override says the same
      warnings += prepared.warnings;
    warnings += diagnostics.warnings;
  }
  ThinSettings thin = thinSettings(*common, request, std::max(threads, 1u));
  thin.timings = &timings;
  thin.beforeCodegen = [&](const Module &module) {
    checkModuleAsm(module, *asmRules);
    if (request.output != Output::Bitcode)
      refuseKnownBackendCrashes(module, *machine, request.output == Output::Object);
  };
  ThinResult result = compileThin(bitcode, thin);
  return Compiled{std::move(result.outputs), warnings + result.warnings};
}

Compiled compileWithLockHeld(const OptionRegistry &options, StringRef bytes, StringRef flags) {
  Request request = parseRequest("", flags);
  if (!request.llvmFlags.empty())
    throw Failure(LLVMPLUG_ERROR_INTERNAL, "compileWithLockHeld takes no LLVM option");
  Timings timings;                                                                // not reported
  return compileRequest(options, request, bytes, {}, 0, Sharing::Alone, timings); // nothing else runs yet
}

} // namespace llvmplug
