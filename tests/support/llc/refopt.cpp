// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception (llvmplug's own licence)
// Provenance: written for llvmplug; not a copy of llvm/tools/opt.
// refopt: a test-only stand-in for LLVM 23's `opt -O2` (or -passes=), built
// against the same SDK as the shim, so that benchmarks/bigmodule.py can time
// `opt | llc` of the very release llvmplug embeds (PyPI's opt is 23.1.4).
// It does what opt does for `opt -O2 in.ll -o out.bc`: parse with the
// target's data layout, the host's (or -mtriple's) target machine, function
// attributes from the codegen flags, the new pass manager's default pipeline
// (or -passes=), and bitcode out with the use-list order kept.
//
// Usage: refopt [-O0..-O3 | -passes=PIPELINE (empty: none)] [codegen flags] INPUT -o OUTPUT [-repeat=N]
//
// -repeat=N runs N more times after the first, in one process, each as a new
// opt invocation would, and prints the mean time per run on stderr (as
// refllc's -repeat).
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/CodeGen/CommandFlags.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

#include "reference.h"

#include <optional>

using namespace llvm;

static codegen::RegisterCodeGenFlags CodeGenFlags;
static codegen::RegisterMTuneFlag MTuneFlag;

static cl::opt<std::string> Input(cl::Positional, cl::desc("<input>"), cl::init("-"));
static cl::opt<std::string> Output("o", cl::desc("output file"), cl::init("-"));
static cl::opt<char> Level("O", cl::Prefix, cl::init('2'));
static cl::opt<std::string> Passes("passes", cl::desc("a pipeline instead of -O<level>"));
static cl::opt<std::string> Mtriple("mtriple");
static cl::opt<unsigned> Repeat("repeat", cl::desc("run N more times, print the mean time per run"), cl::init(0));

static int fail(const Twine &message) {
  errs() << "refopt: " << message << "\n";
  return 1;
}

// One run over the input, as one opt invocation makes it, into `buffer`.
static int runOnce(const char *argv0, MemoryBufferRef input, OptimizationLevel level,
                   SmallVectorImpl<char> &buffer) {
  LLVMContext context;
  std::unique_ptr<TargetMachine> machine;
  std::unique_ptr<Module> module = parseForTarget(
      argv0, input, context, Mtriple, [](const Triple &triple, const Target &target) {
        return target.createTargetMachine(triple, codegen::getCPUStr(), codegen::getFeaturesStr(),
                                          codegen::InitTargetOptionsFromCodeGenFlags(triple),
                                          codegen::getExplicitRelocModel(), codegen::getExplicitCodeModel(),
                                          CodeGenOptLevel::Aggressive);
      }, machine);
  if (!module)
    return 1;
  codegen::setFunctionAttributes(*module, codegen::getCPUStr(), codegen::getFeaturesStr(),
                                 codegen::getTuneCPUStr());

  LoopAnalysisManager loops;
  FunctionAnalysisManager functions;
  CGSCCAnalysisManager cgsccs;
  ModuleAnalysisManager modules;
  PassBuilder builder(machine.get());
  TargetLibraryInfoImpl libraryInfo(module->getTargetTriple());
  functions.registerPass([&] { return TargetLibraryAnalysis(libraryInfo); });
  builder.registerModuleAnalyses(modules);
  builder.registerCGSCCAnalyses(cgsccs);
  builder.registerFunctionAnalyses(functions);
  builder.registerLoopAnalyses(loops);
  builder.crossRegisterProxies(loops, functions, cgsccs, modules);
  ModulePassManager pipeline;
  pipeline.addPass(VerifierPass());
  if (Passes.getNumOccurrences()) {
    // An empty pipeline runs nothing (as llvmplug's -passes=): parse and write only.
    if (!Passes.empty())
      if (Error problem = builder.parsePassPipeline(pipeline, Passes))
        return fail("bad -passes: " + toString(std::move(problem)));
  } else if (level == OptimizationLevel::O0) {
    pipeline.addPass(builder.buildO0DefaultPipeline(level));
  } else {
    pipeline.addPass(builder.buildPerModuleDefaultPipeline(level));
  }
  pipeline.addPass(VerifierPass());
  pipeline.run(*module, modules);

  raw_svector_ostream stream(buffer);
  WriteBitcodeToFile(*module, stream, /*ShouldPreserveUseListOrder=*/true);
  return 0;
}

int main(int argc, char **argv) {
  InitializeAllTargetInfos();
  InitializeAllTargets();
  InitializeAllTargetMCs();
  cl::ParseCommandLineOptions(argc, argv, "refopt\n");
  OptimizationLevel levels[] = {OptimizationLevel::O0, OptimizationLevel::O1, OptimizationLevel::O2,
                                OptimizationLevel::O3};
  if (Level < '0' || Level > '3')
    return fail("bad -O");

  OptimizationLevel level = levels[Level - '0'];
  ErrorOr<std::unique_ptr<MemoryBuffer>> input = MemoryBuffer::getFileOrSTDIN(Input);
  if (!input)
    return fail(Input + ": " + input.getError().message());
  SmallVector<char, 0> buffer;
  if (int status = runOnce(argv[0], **input, level, buffer))
    return status;
  if (Repeat)
    if (int status = repeatAndTime("refopt", Repeat, [&](SmallVectorImpl<char> &again) {
          return runOnce(argv[0], **input, level, again);
        }))
      return status;

  return writeOutput("refopt", Output, buffer);
}
