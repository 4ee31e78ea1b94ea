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

std::optional<std::string> takeFlag(const std::vector<std::string> &tokens, size_t &i, std::string_view name,
                                    FlagKind kind) {
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
  if (kind == FlagKind::Bool)
    return std::string("true");
  if (i + 1 == tokens.size())
    throw Failure(LLVMPLUG_ERROR_OPTION, "-" + std::string(name) + " needs a value");
  return tokens[++i];
}

bool flagBoolean(std::string_view name, std::string_view value) {
  if (value == "true" || value == "TRUE" || value == "True" || value == "1")
    return true;
  if (value == "false" || value == "FALSE" || value == "False" || value == "0")
    return false;
  throw Failure(LLVMPLUG_ERROR_OPTION,
                "-" + std::string(name) + " takes true or false, not '" + std::string(value) + "'");
}

bool takeLlcFlag(const std::vector<std::string> &tokens, size_t &i, LlcFlags &flags) {
  size_t start = i;
  auto refuse = [&](const std::string &why) {
    throw Failure(LLVMPLUG_ERROR_OPTION, "llc's '" + tokens[start] + "' is not supported: " + why);
  };
  if (auto v = takeFlag(tokens, i, "asm-verbose", FlagKind::Bool)) {
    flags.asmVerbose = flagBoolean("asm-verbose", *v);
  } else if (auto v = takeFlag(tokens, i, "show-mc-encoding", FlagKind::Bool)) {
    flags.showMCEncoding = flagBoolean("show-mc-encoding", *v);
  } else if (auto v = takeFlag(tokens, i, "preserve-as-comments", FlagKind::Bool)) {
    flags.preserveComments = flagBoolean("preserve-as-comments", *v);
  } else if (auto v = takeFlag(tokens, i, "dwarf-directory", FlagKind::Bool)) {
    flags.dwarfDirectory = flagBoolean("dwarf-directory", *v);
  } else if (auto v = takeFlag(tokens, i, "disable-simplify-libcalls", FlagKind::Bool)) {
    flags.disableSimplifyLibCalls = flagBoolean("disable-simplify-libcalls", *v);
  } else if (auto v = takeFlag(tokens, i, "binutils-version", FlagKind::Value)) {
    checkBinutilsVersion(*v);
    flags.binutilsVersion = *v;
  } else if (auto v = takeFlag(tokens, i, "split-dwarf-file", FlagKind::Value)) {
    flags.splitDwarfFile = *v; // only the name written into the DWARF
  } else if (auto v = takeFlag(tokens, i, "M", FlagKind::Value)) {
    flags.instPrinterOptions.push_back(*v); // e.g. -M no-aliases
  } else if (auto v = takeFlag(tokens, i, "o", FlagKind::Value)) {
    if (*v != "-")
      refuse("the output is returned, never written to a file (use -o - or leave -o out)");
  } else if (auto v = takeFlag(tokens, i, "x", FlagKind::Value)) {
    if (*v != "ir" && *v != "IR" && !v->empty())
      refuse("the input is LLVM IR or bitcode (MIR is not accepted)");
  } else if (takeFlag(tokens, i, "I", FlagKind::Value) ||
             takeFlag(tokens, i, "split-dwarf-output", FlagKind::Value)) {
    refuse("it reads or writes files");
  } else if (takeFlag(tokens, i, "enable-new-pm", FlagKind::Bool) ||
             takeFlag(tokens, i, "run-pass", FlagKind::Value)) {
    refuse("llvmplug runs llc's default (legacy) code generation pipeline");
  } else if (takeFlag(tokens, i, "verify-each", FlagKind::Bool) ||
             takeFlag(tokens, i, "compile-twice", FlagKind::Bool) ||
             takeFlag(tokens, i, "disable-verify", FlagKind::Bool) ||
             takeFlag(tokens, i, "discard-value-names", FlagKind::Bool) ||
             takeFlag(tokens, i, "time-compilations", FlagKind::Value)) {
    // Checks and timings: they cannot change the output. (llvmplug always
    // verifies the input, -disable-verify or not.)
  } else {
    return false;
  }
  return true;
}

void applyLlcFlags(const LlcFlags &flags, TargetOptions &options) {
  options.BinutilsVersion = TargetMachine::parseBinutilsVersion(flags.binutilsVersion);
  options.MCOptions.AsmVerbose = flags.asmVerbose;
  options.MCOptions.ShowMCEncoding = flags.showMCEncoding;
  options.MCOptions.PreserveAsmComments = flags.preserveComments;
  options.MCOptions.InstPrinterOptions = flags.instPrinterOptions;
  options.MCOptions.SplitDwarfFile = flags.splitDwarfFile;
  if (flags.dwarfDirectory)
    options.MCOptions.MCUseDwarfDirectory = *flags.dwarfDirectory ? MCTargetOptions::EnableDwarfDirectory
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
