#include "llcflags.h"

#include "failure.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/CodeGen/CommandFlags.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/MCAsmInfo.h"
#include "llvm/MC/MCInstPrinter.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"

using namespace llvm;

namespace llvmplug {

namespace {

enum class Kind { Bool, Value };

// -NAME, -NAME=VALUE, --NAME=VALUE, and for Value flags -NAME VALUE.
// Returns the value ("true" for a bare boolean flag) or nullopt.
std::optional<std::string> take(const std::vector<std::string> &tokens, size_t &i, StringRef name,
                                Kind kind) {
  StringRef token = tokens[i];
  if (!token.consume_front("-"))
    return std::nullopt;
  token.consume_front("-");
  if (!token.consume_front(name))
    return std::nullopt;
  if (token.consume_front("="))
    return token.str();
  if (!token.empty())
    return std::nullopt;
  if (kind == Kind::Bool)
    return std::string("true");
  if (i + 1 == tokens.size())
    throw Failure(LLVMPLUG_ERROR_OPTION, "-" + name.str() + " needs a value");
  return tokens[++i];
}

bool boolean(StringRef name, StringRef value) {
  // cl::opt<bool>'s spellings.
  if (value == "true" || value == "TRUE" || value == "True" || value == "1")
    return true;
  if (value == "false" || value == "FALSE" || value == "False" || value == "0")
    return false;
  throw Failure(LLVMPLUG_ERROR_OPTION,
                "-" + name.str() + " takes true or false, not '" + value.str() + "'");
}

void checkBinutilsVersion(StringRef text) {
  // llc's rule: 'none' or major[.minor], major > 0.
  if (text.empty() || text == "none")
    return;
  StringRef version = text;
  unsigned number;
  if (version.consumeInteger(10, number) || number == 0 ||
      !(version.empty() ||
        (version.consume_front(".") && !version.consumeInteger(10, number) && version.empty())))
    throw Failure(LLVMPLUG_ERROR_OPTION,
                  "invalid -binutils-version '" + text.str() + "' (use 'none' or major.minor)");
}

} // namespace

bool takeLlcFlag(const std::vector<std::string> &tokens, size_t &i, LlcFlags &flags) {
  size_t start = i;
  auto refuse = [&](const std::string &why) {
    throw Failure(LLVMPLUG_ERROR_OPTION, "llc's '" + tokens[start] + "' is not supported: " + why);
  };
  if (auto v = take(tokens, i, "show-mc-encoding", Kind::Bool)) {
    flags.showMCEncoding = boolean("show-mc-encoding", *v);
  } else if (auto v = take(tokens, i, "preserve-as-comments", Kind::Bool)) {
    flags.preserveComments = boolean("preserve-as-comments", *v);
  } else if (auto v = take(tokens, i, "dwarf-directory", Kind::Bool)) {
    flags.dwarfDirectory = boolean("dwarf-directory", *v);
  } else if (auto v = take(tokens, i, "disable-simplify-libcalls", Kind::Bool)) {
    flags.disableSimplifyLibCalls = boolean("disable-simplify-libcalls", *v);
  } else if (auto v = take(tokens, i, "binutils-version", Kind::Value)) {
    checkBinutilsVersion(*v);
    flags.binutilsVersion = *v;
  } else if (auto v = take(tokens, i, "split-dwarf-file", Kind::Value)) {
    flags.splitDwarfFile = *v; // only the name written into the DWARF
  } else if (auto v = take(tokens, i, "M", Kind::Value)) {
    flags.instPrinterOptions.push_back(*v); // e.g. -M no-aliases
  } else if (auto v = take(tokens, i, "o", Kind::Value)) {
    if (*v != "-")
      refuse("the output is returned, never written to a file (use -o - or leave -o out)");
  } else if (auto v = take(tokens, i, "x", Kind::Value)) {
    if (*v != "ir" && *v != "IR" && !v->empty())
      refuse("the input is LLVM IR or bitcode (MIR is not accepted)");
  } else if (take(tokens, i, "I", Kind::Value) || take(tokens, i, "split-dwarf-output", Kind::Value)) {
    refuse("it reads or writes files");
  } else if (take(tokens, i, "enable-new-pm", Kind::Bool) || take(tokens, i, "run-pass", Kind::Value)) {
    refuse("llvmplug runs llc's default (legacy) code generation pipeline");
  } else if (take(tokens, i, "verify-each", Kind::Bool) || take(tokens, i, "compile-twice", Kind::Bool) ||
             take(tokens, i, "disable-verify", Kind::Bool) ||
             take(tokens, i, "discard-value-names", Kind::Bool) ||
             take(tokens, i, "time-compilations", Kind::Value)) {
    // Checks and timings: they cannot change the output. (llvmplug always
    // verifies the input, -disable-verify or not.)
  } else {
    return false;
  }
  return true;
}

void applyLlcFlags(const LlcFlags &flags, TargetOptions &options) {
  options.BinutilsVersion = TargetMachine::parseBinutilsVersion(flags.binutilsVersion);
  options.MCOptions.ShowMCEncoding = flags.showMCEncoding;
  options.MCOptions.PreserveAsmComments = flags.preserveComments;
  options.MCOptions.InstPrinterOptions = flags.instPrinterOptions;
  options.MCOptions.SplitDwarfFile = flags.splitDwarfFile;
  if (flags.dwarfDirectory)
    options.MCOptions.MCUseDwarfDirectory = *flags.dwarfDirectory
                                                ? MCTargetOptions::EnableDwarfDirectory
                                                : MCTargetOptions::DisableDwarfDirectory;
  else
    // Some assemblers (GNU as, ptxas) lack `.file directory` before DWARF 5:
    // the target knows its own.
    options.MCOptions.MCUseDwarfDirectory = MCTargetOptions::DefaultDwarfDirectory;
}

void checkInstPrinterOptions(const TargetMachine &machine, const LlcFlags &flags) {
  if (flags.instPrinterOptions.empty())
    return;
  const MCAsmInfo &asmInfo = machine.getMCAsmInfo();
  std::unique_ptr<MCInstPrinter> printer(machine.getTarget().createMCInstPrinter(
      machine.getTargetTriple(), asmInfo.getAssemblerDialect(), asmInfo, *machine.getMCInstrInfo(),
      machine.getMCRegisterInfo()));
  for (const std::string &option : flags.instPrinterOptions)
    if (!printer || !printer->applyTargetSpecificCLOption(option))
      throw Failure(LLVMPLUG_ERROR_OPTION, "invalid InstPrinter option '" + option + "' (-M) for target '" +
                                               machine.getTargetTriple().str() + "'");
}

void applyModuleSettings(TargetMachine &machine, const Module &module) {
  std::optional<CodeModel::Model> fromModule = module.getCodeModel();
  if (!codegen::getExplicitCodeModel() && fromModule)
    machine.setCodeModel(*fromModule);
  if (std::optional<uint64_t> threshold = codegen::getExplicitLargeDataThreshold())
    machine.setLargeDataThreshold(*threshold);
}

void applyLibraryFlags(const LlcFlags &flags, TargetLibraryInfoImpl &info) {
  if (flags.disableSimplifyLibCalls)
    info.disableAllFunctions();
}

} // namespace llvmplug
