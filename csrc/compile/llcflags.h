// llcflags.h: the output-affecting flags that llc.cpp defines itself.
//
// LLVM's libraries register most of llc's flags as cl::opts (-mcpu, -march,
// -relocation-model...; options.cpp handles those). A few live in llc.cpp
// alone, so no library knows them: -show-mc-encoding, -preserve-as-comments,
// -dwarf-directory, -binutils-version, -M, -split-dwarf-file,
// -disable-simplify-libcalls, -asm-verbose. This file gives them llc's
// meaning, so that an llc RUN line from LLVM's test suite works unchanged.
// (-O, -mtriple, -filetype and -passes are read by compiler.cpp, with
// takeFlag below: one matcher for every flag the shim reads itself.)
#ifndef LLVMPLUG_LLCFLAGS_H
#define LLVMPLUG_LLCFLAGS_H

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace llvm {
class Module;
class TargetMachine;
struct TargetOptions;
class TargetLibraryInfoImpl;
} // namespace llvm

namespace llvmplug {

struct LlcFlags {
  bool asmVerbose = true; // llc's default: comments in assembly output
  bool showMCEncoding = false;
  bool preserveComments = true;
  std::optional<bool> dwarfDirectory; // unset: the target decides
  std::string binutilsVersion;
  std::vector<std::string> instPrinterOptions; // -M
  std::string splitDwarfFile;
  bool disableSimplifyLibCalls = false;
};

// How a flag takes its value: a Bool flag alone means true (-NAME), a Value
// flag alone takes the next token (-NAME VALUE); both take -NAME=VALUE, with
// one or two leading dashes, as cl::opt does.
enum class FlagKind { Bool, Value };

// If tokens[i] is -NAME in one of those spellings, advance i past it (and
// its value) and return the value ("true" for a bare Bool flag).
// Throws Failure(LLVMPLUG_ERROR_OPTION) for a Value flag without a value.
std::optional<std::string> takeFlag(const std::vector<std::string> &tokens, size_t &i, std::string_view name,
                                    FlagKind kind);

// A Bool flag's value, spelled as cl::opt<bool> accepts it (true, TRUE, True,
// 1 and false, FALSE, False, 0). Throws Failure(LLVMPLUG_ERROR_OPTION).
bool flagBoolean(std::string_view name, std::string_view value);

// If tokens[i] is one of llc's own flags, record it (taking its value from
// tokens[i + 1] when written apart), advance i past it and return true.
// Throws Failure(LLVMPLUG_ERROR_OPTION) for a bad value, and for llc flags
// that read or write files (-o FILE, -I, -split-dwarf-output) or take input
// the shim does not (-x mir). Flags that cannot change llc's output
// (-o -, -verify-each, -time-compilations...) are accepted and have no effect.
bool takeLlcFlag(const std::vector<std::string> &tokens, size_t &i, LlcFlags &flags);

// What llc does with them when it creates its target machine.
void applyLlcFlags(const LlcFlags &flags, llvm::TargetOptions &options);

// Each -M option must be one the target's instruction printer knows; LLVM
// would only report it (on stderr) once code generation is set up.
// Throws Failure(LLVMPLUG_ERROR_OPTION).
void checkInstPrinterOptions(const llvm::TargetMachine &machine, const LlcFlags &flags);

// What llc does to the target machine once the module is known: the module's
// own code model unless -code-model was given, and -large-data-threshold.
void applyModuleSettings(llvm::TargetMachine &machine, const llvm::Module &module);

// -disable-simplify-libcalls: no library function is known to the passes.
void applyLibraryFlags(const LlcFlags &flags, llvm::TargetLibraryInfoImpl &info);

} // namespace llvmplug

#endif
