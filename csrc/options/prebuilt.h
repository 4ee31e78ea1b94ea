// prebuilt.h: the policy tables the build computed, and how a copy chooses
// between them and computing its own.
//
// Why: what the option and pass policies (option_policy.h, pass_policy.h)
// say about each of LLVM's ~2,800 options and ~530 passes is fixed when the
// shim is built: LLVM's registries, the rules and the reviewed tables are all
// in the library. Computing it cost every load of a copy about 15 ms (the
// rules' regular expressions, compiled per pass) and the first use of each
// option about 1 ms more; a reload exists to be cheap. So the build computes
// it once: cmake/LLVMPlugPrebuilt.cmake builds a generator from the shim's own
// sources, linked with the same LLVM (csrc/generator/prebuilt_tables.cpp),
// which loads them as a fresh copy does, computes every table with the same
// code a copy would run, and writes them into a source file compiled into
// the shim. The build id (info.h) names the sources the tables come from, so
// they need no name of their own.
//
// Where the build cannot run the generator (a cross-compile), it writes
// tables marked not built, and each copy computes them at load, as before.
//
// Honest: LLVMPLUG_CHECK_TABLES=1 in the environment when a copy first runs
// makes it compute every table itself and compare it, row by row and field
// by field, with the prebuilt ones; llvmplug_info reports the differences
// (tests/test_prebuilt_tables.py requires none). A field added to PassEntry,
// PassParameter, Verdict or Classified breaks the build of prebuilt.cpp
// (structured bindings name every field), so it cannot be left out of the
// tables unnoticed.
#ifndef LLVMPLUG_PREBUILT_H
#define LLVMPLUG_PREBUILT_H

#include "option_shapes.h"
#include "pass_policy.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace llvmplug {

// LLVMPLUG_PREVIOUS_LOAD=1 in the environment when the copy first runs: it
// starts as before issue 27 (computing its policy tables itself, no warm-up
// latch shortcut: runtime.cpp), for the benchmarks to measure that design
// beside this one in one run. Here, below the runtime, so that both the
// tables and the runtime can ask.
bool previousLoad();

// How this copy gets its tables. Read once per copy, when it first runs.
enum class TableSource {
  Build, // the prebuilt tables
  Load,  // computed by the copy, as before issue 27: a build without tables,
         // or LLVMPLUG_PREVIOUS_LOAD=1 (previousLoad)
  Check, // computed by the copy and compared with the prebuilt ones
         // (LLVMPLUG_CHECK_TABLES=1)
};
TableSource tableSource();

// The entries PassCatalogue::get() is made from: the prebuilt ones, or
// PassCatalogue::compute().
std::vector<PassEntry> catalogueEntries();

// The prebuilt class of the option named `name`; nullopt when this copy does
// not use prebuilt tables, or the option is not in them (then the copy
// classifies it itself, as option_shapes.cpp does). Not used where
// OutputCapture::works() differs from the generator's (LLVMPLUG_TEST_NO_CAPTURE):
// shapes learned by printing would differ.
std::optional<Classified> prebuiltClass(llvm::StringRef name);

// Under TableSource::Check: compute every table and record where the
// prebuilt ones differ. Call once, with every option at its default (at
// load, in runtime.cpp).
void checkPrebuiltTables();

// llvmplug_info's "tables": {"source": "build"|"load"|"check"}, and under
// "check" the differences found ("differences": the first 40 as text,
// "difference_count").
llvm::json::Value describeTables();

// ---- The generated data (the generated source defines Built) ---------------

namespace prebuilt {

struct VerdictRow {
  bool present; // false: no class (an optional<Verdict> without a value)
  OptionClass kind;
  const char *reason;
  double minValue, maxValue;
};

struct OptionRow {
  const char *name;
  ValueReader reader;
  VerdictRow verdict;
};

struct ParameterRow {
  const char *name, *value;
  VerdictRow verdict;
};

struct PassRow {
  const char *name, *syntax;
  bool analysis;
  VerdictRow verdict;
  uint32_t firstKind, kindCount;           // in Tables::kinds
  uint32_t firstParameter, parameterCount; // in Tables::parameters
};

struct Tables {
  bool built; // false: the build did not compute them
  bool captureWorks;
  const OptionRow *options; // sorted by name
  size_t optionCount;
  const PassRow *passes; // in PassCatalogue::compute()'s order
  size_t passCount;
  const char *const *kinds;
  const ParameterRow *parameters;
};

extern const Tables Built;

} // namespace prebuilt

} // namespace llvmplug

#endif
