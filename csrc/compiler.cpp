#include "compiler.h"

#include "failure.h"
#include "link.h"
#include "llcflags.h"
#include "machine_cache.h"
#include "nesting.h"
#include "options.h"
#include "runtime.h"
#include "split.h"
#include "targets.h"

#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/AsmParser/Parser.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/CodeGen/CommandFlags.h"
#include "llvm/CodeGen/MachineModuleInfo.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/MCTargetOptionsCommandFlags.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"

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

// The flags the pipeline itself interprets; the rest are LLVM options.
struct Request {
  OptimizationLevel level = OptimizationLevel::O2;
  CodeGenOptLevel codegenLevel = CodeGenOptLevel::Default;
  std::optional<std::string> passes; // set and empty: skip IR optimisation
  Output output = Output::Object;
  std::string triple;
  bool asmVerbose = true; // llc's default: comments in assembly output
  LlcFlags llc;           // llc's other output flags (llcflags.h)
  std::vector<std::string> llvmFlags;
};

// Matches -NAME=VALUE, --NAME=VALUE, -NAME VALUE and --NAME VALUE; with
// `flag`, a bare -NAME means -NAME=true instead of taking the next token.
bool takeFlag(const std::vector<std::string> &tokens, size_t &i, StringRef name,
              std::string &value, bool flag = false) {
  StringRef token = tokens[i];
  if (!token.consume_front("-"))
    return false;
  token.consume_front("-");
  if (!token.consume_front(name))
    return false;
  if (token.consume_front("=")) {
    value = token.str();
    return true;
  }
  if (!token.empty())
    return false;
  if (flag) {
    value = "true";
    return true;
  }
  if (i + 1 == tokens.size())
    throw Failure(LLVMPLUG_ERROR_OPTION, "-" + name.str() + " needs a value");
  value = tokens[++i];
  return true;
}

Request parseRequest(StringRef target, StringRef flags) {
  Request request;
  request.triple = target.str();
  std::vector<std::string> tokens = tokenizeFlags(flags);
  for (size_t i = 0; i < tokens.size(); ++i) {
    StringRef token = tokens[i];
    std::string value;
    if (token.size() == 3 && token.starts_with("-O")) {
      static const std::pair<OptimizationLevel, CodeGenOptLevel> Levels[] = {
          {OptimizationLevel::O0, CodeGenOptLevel::None},
          {OptimizationLevel::O1, CodeGenOptLevel::Less},
          {OptimizationLevel::O2, CodeGenOptLevel::Default},
          {OptimizationLevel::O3, CodeGenOptLevel::Aggressive}};
      char digit = token[2];
      if (digit < '0' || digit > '3')
        throw Failure(LLVMPLUG_ERROR_OPTION,
                      "unsupported optimisation level '" + token.str() + "' (use -O0, -O1, -O2 or -O3)");
      std::tie(request.level, request.codegenLevel) = Levels[digit - '0'];
    } else if (takeFlag(tokens, i, "passes", value)) {
      request.passes = value;
    } else if (takeFlag(tokens, i, "filetype", value)) {
      if (value == "obj")
        request.output = Output::Object;
      else if (value == "asm")
        request.output = Output::Assembly;
      else if (value == "bc")
        request.output = Output::Bitcode;
      else if (value == "ll")
        request.output = Output::Text;
      else
        throw Failure(LLVMPLUG_ERROR_OPTION,
                      "unknown -filetype '" + value + "' (use obj, asm, bc or ll)");
    } else if (takeFlag(tokens, i, "asm-verbose", value, /*flag=*/true)) {
      // llc's own flag (not a cl::opt of LLVM's libraries).
      if (value != "true" && value != "1" && value != "false" && value != "0")
        throw Failure(LLVMPLUG_ERROR_OPTION, "-asm-verbose takes true or false, not '" + value + "'");
      request.asmVerbose = value == "true" || value == "1";
    } else if (takeFlag(tokens, i, "mtriple", value)) {
      if (!request.triple.empty() && request.triple != value)
        throw Failure(LLVMPLUG_ERROR_OPTION, "-mtriple=" + value +
                                                 " conflicts with target '" + request.triple + "'");
      request.triple = value;
    } else if (takeLlcFlag(tokens, i, request.llc)) {
    } else {
      request.llvmFlags.push_back(tokens[i]);
    }
  }
  return request;
}

// Turns the first error diagnostic into a failed call, and collects warnings
// and remarks. Without it LLVM prints the error and returns a broken object.
// It stops LLVM at once rather than recording the error and letting LLVM
// carry on: after some errors LLVM goes on to crash (e.g. "SSE2 register
// return with SSE2 disabled" then segfaults in the x87 stackifier). Like a
// fatal error, the throw unwinds through LLVM frames that run no
// destructors, so the copy's state is suspect afterwards (see runtime.cpp).
struct Diagnostics : DiagnosticHandler {
  std::string warnings;
  bool handleDiagnostics(const DiagnosticInfo &info) override {
    std::string text;
    raw_string_ostream os(text);
    DiagnosticPrinterRawOStream printer(os);
    info.print(printer);
    switch (info.getSeverity()) {
    case DS_Error:
      throw Failure(LLVMPLUG_ERROR_CODEGEN, "error: " + text);
    case DS_Warning:
      warnings += "warning: " + text + "\n";
      break;
    case DS_Remark:
      warnings += "remark: " + text + "\n";
      break;
    case DS_Note:
      warnings += "note: " + text + "\n";
      break;
    }
    return true;
  }
};

std::unique_ptr<Module> parseModule(StringRef bytes, LLVMContext &context) {
  auto start = reinterpret_cast<const unsigned char *>(bytes.data());
  if (isBitcode(start, start + bytes.size())) {
    Expected<std::unique_ptr<Module>> module =
        parseBitcodeFile(MemoryBufferRef(bytes, "<module>"), context);
    if (!module)
      throw Failure(LLVMPLUG_ERROR_PARSE, "invalid bitcode: " + toString(module.takeError()));
    return std::move(*module);
  }
  // The IR lexer relies on a NUL after the last byte; the caller's buffer
  // need not have one, so parse a terminated copy.
  std::unique_ptr<MemoryBuffer> copy = MemoryBuffer::getMemBufferCopy(bytes, "<module>");
  SMDiagnostic error;
  std::unique_ptr<Module> module = parseAssembly(copy->getMemBufferRef(), error, context);
  if (!module) {
    std::string text;
    raw_string_ostream os(text);
    error.print("", os, /*ShowColors=*/false, /*ShowKindLabel=*/false);
    throw Failure(LLVMPLUG_ERROR_PARSE, StringRef(text).trim().str());
  }
  return module;
}

std::unique_ptr<TargetMachine> createTargetMachine(const Triple &triple, const Target *target,
                                                   const Request &request) {
  // LLVM only warns on stderr about an unknown CPU or feature and then
  // ignores it; a compile for the wrong CPU is a silent wrong result, so
  // check both against the target's tables first.
  std::string cpu = codegen::getCPUStr();
  std::unique_ptr<MCSubtargetInfo> info(target->createMCSubtargetInfo(triple, "", ""));
  if (!info)
    throw Failure(LLVMPLUG_ERROR_TARGET, "no subtarget information for '" + triple.str() + "'");
  for (const auto &[flag, name] : {std::pair{"CPU", cpu}, {"tuning CPU", codegen::getTuneCPUStr()}})
    if (!name.empty() && !info->isCPUStringValid(name))
      throw Failure(LLVMPLUG_ERROR_TARGET, "unknown " + std::string(flag) + " '" + name +
                                               "' for target '" + triple.str() + "'");
  for (const std::string &feature : codegen::getFeatureList()) {
    StringRef name = StringRef(feature).drop_while([](char c) { return c == '+' || c == '-'; });
    bool known = any_of(info->getAllProcessorFeatures(),
                        [&](const SubtargetFeatureKV &kv) { return name == kv.key(); });
    if (!known)
      throw Failure(LLVMPLUG_ERROR_TARGET,
                    "unknown CPU feature '" + feature + "' for target '" + triple.str() + "'");
  }

  TargetOptions options = codegen::InitTargetOptionsFromCodeGenFlags(triple);
  applyLlcFlags(request.llc, options);
  options.MCOptions.AsmVerbose = request.asmVerbose;
  std::unique_ptr<TargetMachine> machine(target->createTargetMachine(
      triple, cpu, codegen::getFeaturesStr(), options, codegen::getExplicitRelocModel(),
      codegen::getExplicitCodeModel(), request.codegenLevel));
  if (!machine)
    throw Failure(LLVMPLUG_ERROR_TARGET, "could not create a target machine for '" + triple.str() + "'");
  checkInstPrinterOptions(*machine, request.llc);
  return machine;
}

void optimise(Module &module, TargetMachine &machine, const Request &request) {
  if (request.passes && request.passes->empty())
    return;
  LoopAnalysisManager loops;
  FunctionAnalysisManager functions;
  CGSCCAnalysisManager cgsccs;
  ModuleAnalysisManager modules;
  PassBuilder builder(&machine);
  TargetLibraryInfoImpl libraryInfo(module.getTargetTriple(), codegen::getVectorLibrary());
  applyLibraryFlags(request.llc, libraryInfo);
  functions.registerPass([&] { return TargetLibraryAnalysis(libraryInfo); });
  builder.registerModuleAnalyses(modules);
  builder.registerCGSCCAnalyses(cgsccs);
  builder.registerFunctionAnalyses(functions);
  builder.registerLoopAnalyses(loops);
  builder.crossRegisterProxies(loops, functions, cgsccs, modules);

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
  pipeline.run(module, modules);
}

// A machine for this compile: an idle one from the cache when it may be
// reused, else a new one (machine_cache.h). The key leaves out what cl::opts
// configure (CPU, features, TargetOptions, relocation and code model): the
// cache is emptied whenever an option changes, and a compile with per-call
// options, llc flags of its own or a module-chosen code model never reuses.
MachineLease leaseMachine(const Triple &triple, const Target *target, const Request &request,
                          bool reusable) {
  std::string key = triple.str() + '\0' + char('0' + int(request.codegenLevel)) +
                    (request.asmVerbose ? 'v' : 'q');
  if (reusable)
    if (std::unique_ptr<Machine> machine = takeMachine(key))
      return MachineLease(std::move(key), std::move(machine), true);
  return MachineLease(std::move(key),
                      std::make_unique<Machine>(createTargetMachine(triple, target, request)),
                      reusable);
}

bool defaultLlcFlags(const LlcFlags &flags) {
  return !flags.showMCEncoding && flags.preserveComments && !flags.dwarfDirectory &&
         flags.binutilsVersion.empty() && flags.instPrinterOptions.empty() &&
         flags.splitDwarfFile.empty() && !flags.disableSimplifyLibCalls;
}

std::string emit(Module &module, MachineLease &lease, const Request &request) {
  Output output = request.output;
  if (lease.reusable() && (output == Output::Object || output == Output::Assembly))
    return lease.generate(module, output == Output::Object ? CodeGenFileType::ObjectFile
                                                           : CodeGenFileType::AssemblyFile);
  TargetMachine &machine = *lease;
  SmallString<0> buffer;
  raw_svector_ostream os(buffer);
  if (output == Output::Bitcode) {
    WriteBitcodeToFile(module, os);
  } else if (output == Output::Text) {
    module.print(os, nullptr);
  } else {
    legacy::PassManager passes;
    TargetLibraryInfoImpl libraryInfo(module.getTargetTriple(), codegen::getVectorLibrary());
    applyLibraryFlags(request.llc, libraryInfo);
    passes.add(new TargetLibraryInfoWrapperPass(libraryInfo));
    CodeGenFileType type =
        output == Output::Object ? CodeGenFileType::ObjectFile : CodeGenFileType::AssemblyFile;
    // Until the passes run, MC reports errors (a bad -M option, say) to its
    // context's handler, which would print them; keep them for the Failure.
    std::string mcErrors;
    auto *info = new MachineModuleInfoWrapperPass(&machine);
    info->getMMI().getContext().setDiagnosticHandler(
        [&](const SMDiagnostic &error, bool, const SourceMgr &, std::vector<const MDNode *> &) {
          mcErrors += (mcErrors.empty() ? "" : "; ") + error.getMessage().str();
        });
    if (machine.addPassesToEmitFile(passes, os, nullptr, type, /*DisableVerify=*/true, info))
      throw Failure(LLVMPLUG_ERROR_TARGET,
                    "the target cannot emit this file type" + (mcErrors.empty() ? "" : " (" + mcErrors + ")"));
    passes.run(module);
  }
  return std::string(buffer.str());
}

// With the runtime lock held as compileModule chose it.
// Thrown by a compile under the shared lock that turns out to need the
// exclusive one (its target writes options: targetWritesOptions, and
// compileModule's guess before parsing missed it); nothing has been written
// yet, and compileModule runs it again alone.
struct RunAlone {};

// applied: the per-call options are in force already (OptionGroups).
Compiled compileRequest(const OptionRegistry &options, const Request &request, StringRef bytes,
                        ArrayRef<StringRef> links, unsigned parts, bool alone, bool applied = false) {
  bool split = parts > 1;
  bool setsOptions = !request.llvmFlags.empty();
  options.checkPipeline(request.passes.value_or("")); // policy: no printing or viewing passes
  // Check every LLVM flag before changing any, so a typo changes nothing.
  std::vector<Setting> settings = options.resolve(request.llvmFlags);
  if (setsOptions)
    forgetMachines(); // configured by the options about to change
  ScopedOptions scope(options, applied ? std::vector<Setting>() : settings, alone);

  LLVMContext context;
  auto handler = std::make_unique<Diagnostics>();
  Diagnostics &diagnostics = *handler;
  // Respect the -pass-remarks* filters: otherwise every remark LLVM can
  // produce (e.g. asm-printer's instruction counts) reaches the handler.
  context.setDiagnosticHandler(std::move(handler), /*RespectFilters=*/true);
  std::unique_ptr<Module> module = parseWithinLimits(bytes, [&] { return parseModule(bytes, context); });

  std::string problems;
  raw_string_ostream problemStream(problems);
  if (verifyModule(*module, &problemStream))
    throw Failure(LLVMPLUG_ERROR_VERIFY, StringRef(problems).trim().str());

  TargetChoice choice = chooseTarget(request.triple, module->getTargetTriple().str(), codegen::getMArch());
  const Triple &triple = choice.triple;
  if (!alone && targetWritesOptions(triple))
    throw RunAlone{}; // before a target machine exists for it
  // Kept pipelines are run again only where that was checked byte for byte
  // (tests/test_machine_cache.py): the host's architecture.
  static const Triple::ArchType HostArch = Triple(sys::getProcessTriple()).getArch();
  bool reusable = !setsOptions && defaultLlcFlags(request.llc) && !module->getCodeModel() &&
                  triple.getArch() == HostArch;
  MachineLease machine = leaseMachine(triple, choice.target, request, reusable);
  applyModuleSettings(*machine, *module);
  module->setTargetTriple(triple);
  module->setDataLayout(machine->createDataLayout());
  // Before optimisation, so that what is linked in is optimised with the
  // module (and what it does not reference is never compiled).
  linkModules(*module, links, context);
  codegen::setFunctionAttributes(*module, codegen::getCPUStr(), codegen::getFeaturesStr(),
                                 codegen::getTuneCPUStr());

  // The whole module is optimised before it is split, so that inlining and
  // interprocedural passes see all of it; only code generation is parallel.
  optimise(*module, *machine, request);
  if (!split)
    return Compiled{{emit(*module, machine, request)}, std::move(diagnostics.warnings)};

  // Each part in a context of its own with its own machine (split.h).
  std::vector<std::string> bitcode = splitToBitcode(*module, parts);
  std::vector<std::string> outputs(bitcode.size()), warnings(bitcode.size());
  runInParallel(bitcode.size(), [&](size_t index) {
    LLVMContext partContext;
    auto partHandler = std::make_unique<Diagnostics>();
    Diagnostics &partDiagnostics = *partHandler;
    partContext.setDiagnosticHandler(std::move(partHandler), /*RespectFilters=*/true);
    std::unique_ptr<Module> part = parseModule(bitcode[index], partContext);
    MachineLease partMachine =
        index == 0 ? std::move(machine) : leaseMachine(triple, choice.target, request, reusable);
    applyModuleSettings(*partMachine, *part);
    outputs[index] = emit(*part, partMachine, request);
    warnings[index] = std::move(partDiagnostics.warnings);
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
    std::optional<Verdict> verdict = registry.classify(*setting.option);
    return verdict && verdict->kind == OptionClass::Value;
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
                       unsigned parts) {
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
    if (!registry.stickyBeyondValues() && valuesOnly(registry, settings) &&
        !targetWritesOptions(expected) && !(previousSharing() && (!settings.empty() || !expected.isX86()))) {
      OptionGroups &groups = optionGroups();
      groups.enter(registry, settings, optionSetKey(settings));
      struct Leave {
        OptionGroups &groups;
        ~Leave() { groups.leave(); }
      } leave{groups};
      try {
        return compileRequest(registry, request, bytes, links, parts, /*alone=*/false, /*applied=*/true);
      } catch (const RunAlone &) {
        // The module named another target than it seemed to: run it again
        // alone (below). Only ever trades up: running alone is always correct.
      }
    }
  }
  ExclusiveLock exclusive(runtimeLock());
  return compileRequest(runtime(), request, bytes, links, parts, /*alone=*/true, /*applied=*/false);
}

Compiled compileWithLockHeld(const OptionRegistry &options, StringRef bytes, StringRef flags) {
  Request request = parseRequest("", flags);
  if (!request.llvmFlags.empty())
    throw Failure(LLVMPLUG_ERROR_INTERNAL, "compileWithLockHeld takes no LLVM option");
  return compileRequest(options, request, bytes, {}, 0, /*alone=*/true); // nothing else runs yet
}

} // namespace llvmplug
