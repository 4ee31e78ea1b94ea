#include "habits.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"

using namespace llvm;

namespace llvmplug {

namespace {

// Driver flags with one meaning each: the flag, what it means to the
// driver, and what llvmplug takes instead.
struct Habit {
  const char *flag;
  const char *advice;
};

constexpr Habit Exact[] = {
    {"-S", "is clang's 'emit assembly': ask for output=\"asm\""},
    {"-c", "is clang's 'compile to an object file': llvmplug makes one by default (output=\"obj\")"},
    {"-emit-llvm", "is clang's: ask for output=\"ll\" (IR text) or output=\"bc\" (bitcode)"},
    {"-O", "alone is clang's -O1: llvmplug takes -O0, -O1, -O2 or -O3"},
    {"-Ofast", "is clang's -O3 with fast-math: llvmplug takes -O0..-O3, and fast-math is in the IR "
               "(the fast flags on floating-point instructions, which clang -ffast-math writes)"},
    {"-Os", "has no pipeline in LLVM 23: use -O2, with the functions marked optsize in the IR (what "
            "clang -Os writes)"},
    {"-Oz", "has no pipeline in LLVM 23: use -O2, with the functions marked minsize in the IR (what "
            "clang -Oz writes)"},
    {"-ffast-math", "is clang's: fast-math is in the IR, the fast flags on floating-point "
                    "instructions (which clang -ffast-math writes); no LLVM option turns it on"},
    {"-fPIC", "is clang's: llc's spelling is -relocation-model=pic"},
    {"-fpic", "is clang's: llc's spelling is -relocation-model=pic"},
    {"-fPIE", "is clang's: llc's spelling is -relocation-model=pic"},
    {"-fpie", "is clang's: llc's spelling is -relocation-model=pic"},
    {"-fno-pic", "is clang's: llc's spelling is -relocation-model=static"},
    {"-fno-PIC", "is clang's: llc's spelling is -relocation-model=static"},
    {"-fno-pie", "is clang's: llc's spelling is -relocation-model=static"},
    {"-fno-PIE", "is clang's: llc's spelling is -relocation-model=static"},
    {"-fomit-frame-pointer", "is clang's: llc's spelling is -frame-pointer=none"},
    {"-fno-omit-frame-pointer", "is clang's: llc's spelling is -frame-pointer=all"},
    {"-target", "is clang's: give the triple as target=TRIPLE (or -mtriple=TRIPLE)"},
    {"-m32", "is clang's: choose the target by its triple, target=TRIPLE (i686-linux-gnu, say)"},
    {"-m64", "is clang's: choose the target by its triple, target=TRIPLE (x86_64-linux-gnu, say)"},
    {"-E", "is clang's preprocessor: llvmplug takes LLVM IR or bitcode, not source"},
};

bool registered(StringRef name) { return cl::getRegisteredOptions().count(name) != 0; }

std::string quoted(StringRef token) { return "'" + token.str() + "' "; }

} // namespace

std::optional<std::string> compilerHabit(StringRef token) {
  for (const Habit &habit : Exact)
    if (token == habit.flag)
      return quoted(token) + habit.advice;
  auto [name, value] = token.split('=');
  bool hasValue = token.contains('=');

  if (name == "-mcmodel" && hasValue)
    return quoted(token) + "is clang's: llc's spelling is -code-model=" + value.str();
  if (name == "-std")
    return quoted(token) + "is a C or C++ language flag: llvmplug takes LLVM IR or bitcode, not source";
  // -03 (a zero) and --O3 (two dashes) for -O3.
  if ((token.size() == 3 && token.starts_with("-0") && isDigit(token[2])) ||
      (token.size() == 4 && token.starts_with("--O") && isDigit(token[3])))
    return quoted(token) + "is not an optimisation level: did you mean -O" +
           token.substr(token.size() - 1).str() + " (one dash, the letter O)?";
  // -O0..-O3 reach the option registry only from set_options: they are a
  // compile's flags, and LLVM's "unknown option" says so well enough.
  if (token.size() == 3 && token.starts_with("-O") && token[2] >= '0' && token[2] <= '3')
    return std::nullopt;
  if (token.size() >= 3 && token.starts_with("-O") && isDigit(token[2]))
    return quoted(token) + "is not an optimisation level: llvmplug takes -O0, -O1, -O2 or -O3";
  if (token == "-g" || (token.starts_with("-g") && (isDigit(token.back()) || token.starts_with("-gdwarf") ||
                                                    token.starts_with("-ggdb"))))
    return quoted(token) + "is clang's 'generate debug info': debug info comes from the module's own "
                           "metadata (compile the source with -g); LLVM keeps what the IR has";
  if (token.starts_with("-W") && token.size() > 2)
    return quoted(token) + "is a clang warning flag: LLVM has none, and its own warnings come back "
                           "as LLVMPlugWarning";

  // -ffunction-sections, -mfloat-abi=hard: the driver's f/m before an LLVM option's name.
  StringRef bare = name.drop_front(1);
  if ((bare.starts_with("f") || bare.starts_with("m")) && registered(bare.drop_front(1)))
    return quoted(token) + "is clang's: llc's spelling is -" + bare.drop_front(1).str() +
           (hasValue ? "=" + value.str() : std::string());
  if (bare.starts_with("m") && !hasValue && bare.size() > 1) {
    StringRef feature = bare.drop_front(1);
    bool off = feature.consume_front("no-");
    return quoted(token) + "is clang's way to name a target feature: llc's is -mattr=" + (off ? "-" : "+") +
           feature.str() + " (target_info(TRIPLE) lists a target's features)";
  }
  if (bare.starts_with("f") && bare.size() > 1)
    return quoted(token) + "is a clang or gcc flag: llvmplug takes llc's flags and LLVM's options "
                           "(Plugin.options() lists them)";
  return std::nullopt;
}

std::string marchHabit(StringRef value) {
  return "llc's -march names a backend (x86-64, aarch64, nvptx64...); clang's names a CPU, which "
         "is -mcpu=" +
         value.str() + " here";
}

} // namespace llvmplug
