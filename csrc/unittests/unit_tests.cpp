// unit_tests.cpp: llvmplug_unit_tests, C++ tests of the pure parsers and
// classifiers: no LLVM started, no module compiled, seconds to build and run
// after a change to one of them. tests/test_cpp_units.py builds and runs it
// (cmake --build BUILD --target llvmplug_unit_tests); it prints one line per
// failed check and exits 1 if any failed.
//
// Why no test framework: the SDK ships none, and a dozen macros' worth of
// harness is less to carry than a dependency.
#include "asm_directives.h"
#include "failure.h"
#include "habits.h"
#include "messages.h"
#include "option_policy.h"
#include "pass_policy.h"

#include "llvm/TargetParser/Triple.h"

#include <cstdio>
#include <optional>
#include <string>

using namespace llvmplug;

namespace {

int Checks = 0, Failed = 0;

void check(bool ok, const char *what, int line) {
  ++Checks;
  if (!ok) {
    ++Failed;
    std::printf("FAILED line %d: %s\n", line, what);
  }
}
#define CHECK(condition) check((condition), #condition, __LINE__)

// The status of the Failure `body` throws, or LLVMPLUG_OK if it throws none.
template <class Body> llvmplug_status statusOf(Body &&body) {
  try {
    body();
  } catch (const Failure &failure) {
    return failure.status;
  }
  return LLVMPLUG_OK;
}

void numbersAreReadAsLLVMsParsersReadThem() {
  // parser<int> is StringRef::getAsInteger(0): 0x, 0b, 0o and a leading 0 (octal) are prefixes.
  CHECK(readNumber(ValueReader::Int, "0x10") == 16.0);
  CHECK(readNumber(ValueReader::Int, "010") == 8.0);
  CHECK(readNumber(ValueReader::Int, "-5") == -5.0);
  CHECK(!readNumber(ValueReader::Int, "2147483648")); // past int
  CHECK(!readNumber(ValueReader::Unsigned, "-1"));
  CHECK(readNumber(ValueReader::Unsigned, "4294967295") == 4294967295.0);
  CHECK(!readNumber(ValueReader::Int, "12abc"));
  // parseBool: "" is a bare -flag, and only these spellings.
  CHECK(readNumber(ValueReader::Bool, "") == 1.0);
  CHECK(readNumber(ValueReader::Bool, "False") == 0.0);
  CHECK(!readNumber(ValueReader::Bool, "yes"));
  // An unknown reader: a plain decimal integer only, no prefix or leading zero.
  CHECK(readNumber(ValueReader::Unknown, "42") == 42.0);
  CHECK(!readNumber(ValueReader::Unknown, "042"));
  CHECK(!readNumber(ValueReader::Unknown, "0x2a"));
}

void aBoundedVerdictAdmitsItsRangeOnly() {
  Verdict verdict{OptionClass::Value, "test", 4, 64};
  CHECK(admits(verdict, ValueReader::Int, "4"));
  CHECK(admits(verdict, ValueReader::Int, "0x40"));
  CHECK(!admits(verdict, ValueReader::Int, "3"));
  CHECK(!admits(verdict, ValueReader::Int, "65"));
  CHECK(!admits(verdict, ValueReader::Int, "four"));
}

void optionsAreClassifiedByTheirRules() {
  CHECK(classifyOption({"help", "", "bool", ValueReader::Bool}).kind == OptionClass::Exit);
  CHECK(classifyOption({"load-pass-plugin", "", "string", ValueReader::String}).kind == OptionClass::Code);
  CHECK(classifyOption({"view-cfg", "", "bool", ValueReader::Bool}).kind == OptionClass::Code);
  CHECK(classifyOption({"some-output-file", "", "filename", ValueReader::String}).kind == OptionClass::File);
  // A reviewed row wins over the rules, with its bounds.
  Verdict branch = classifyOption({"aarch64-bcc-offset-bits", "", "uint", ValueReader::Unsigned});
  CHECK(branch.kind == OptionClass::Value && branch.minValue == 4 && branch.maxValue == 64);
  CHECK(std::string(className(OptionClass::Unknown)) == "unknown");
}

void pipelinesNestedTooDeepAreALimit() {
  std::string deep;
  for (unsigned i = 0; i < MaxPipelineDepth; ++i)
    deep += "function(";
  CHECK(statusOf([&] { checkPipelineNesting(deep); }) == LLVMPLUG_OK);
  CHECK(statusOf([&] { checkPipelineNesting(deep + "loop("); }) == LLVMPLUG_ERROR_LIMIT);
  // Closed levels do not count: a long flat pipeline is fine.
  std::string flat;
  for (unsigned i = 0; i <= MaxPipelineDepth; ++i)
    flat += "function(instcombine),";
  CHECK(statusOf([&] { checkPipelineNesting(flat); }) == LLVMPLUG_OK);
}

void asmDirectivesResolveByTargetAndFormat() {
  llvm::Triple x86("x86_64-unknown-linux-gnu"), amdgpu("amdgcn-amd-amdhsa");
  const AsmDirective *incbin = findAsmDirective(".INCBIN", asmArchitecture(x86), asmFormat(x86));
  CHECK(incbin && incbin->rule == AsmRule::Refused); // reads a file; names compare case-insensitively
  const AsmDirective *byteX86 = findAsmDirective(".byte", asmArchitecture(x86), asmFormat(x86));
  CHECK(byteX86 && byteX86->level == AsmLevel::Generic && byteX86->rule != AsmRule::Refused);
  // AMDGPU's own row comes first: code that is not whole words hangs its writer.
  const AsmDirective *byteAMDGPU = findAsmDirective(".byte", asmArchitecture(amdgpu), asmFormat(amdgpu));
  CHECK(byteAMDGPU && byteAMDGPU->level == AsmLevel::Target && byteAMDGPU->rule == AsmRule::Refused);
  CHECK(!findAsmDirective(".no-such-directive", asmArchitecture(x86), asmFormat(x86)));
  CHECK(asmFormat(llvm::Triple("wasm32-unknown-unknown")) == 0);
}

void driverHabitsAndTyposGetAdvice() {
  CHECK(compilerHabit("-fPIC").has_value());
  CHECK(compilerHabit("--O3").has_value());
  CHECK(!compilerHabit("-O2").has_value()); // a compile's flag: LLVM's own message says enough
  CHECK(closestNames("instcombin", {"instcombine", "instsimplify", "gvn"}) == "; did you mean instcombine?");
  CHECK(closestNames("x", {"gvn", "dce"}).empty());
}

} // namespace

int main() {
  numbersAreReadAsLLVMsParsersReadThem();
  aBoundedVerdictAdmitsItsRangeOnly();
  optionsAreClassifiedByTheirRules();
  pipelinesNestedTooDeepAreALimit();
  asmDirectivesResolveByTargetAndFormat();
  driverHabitsAndTyposGetAdvice();
  std::printf("%d checks, %d failed\n", Checks, Failed);
  return Failed ? 1 : 0;
}
