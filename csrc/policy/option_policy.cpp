#include "option_policy.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Regex.h"

using namespace llvm;

namespace llvmplug {

namespace {

struct Reviewed {
  const char *name;
  OptionClass kind;
  const char *reason;
  double minValue = -HUGE_VAL; // see Verdict
  double maxValue = HUGE_VAL;
};

// The reviewed exceptions: options the rules below would get wrong or cannot
// decide (mostly string-valued options, whose value may be a path or a
// name). Each entry was read in LLVM's source; keep the reason honest.
// clang-format off: a reviewed table, laid out for review
constexpr Reviewed Table[] = {
    // String values that are names, not paths.
    {"alloc-token-prefix", OptionClass::Value, "a function-name prefix for the generated calls"},
    {"asan-memory-access-callback-prefix", OptionClass::Value, "a function-name prefix for the generated calls"},
    {"hwasan-memory-access-callback-prefix", OptionClass::Value, "a function-name prefix for the generated calls"},
    {"memprof-memory-access-callback-prefix", OptionClass::Value, "a function-name prefix for the generated calls"},
    {"bbsections-cold-text-prefix", OptionClass::Value, "a section-name prefix"},
    {"hotcoldsplit-cold-section-name", OptionClass::Value, "a section name"},
    {"break-anti-dependencies", OptionClass::Value, "a scheduler mode name"},
    {"check-functions-filter", OptionClass::Value, "a regular expression over function names"},
    {"ctx-prof-skip-callsite-instr", OptionClass::Value, "function names"},
    {"dfsan-combine-taint-lookup-table", OptionClass::Value, "function names"},
    {"internalize-public-api-list", OptionClass::Value, "symbol names"},
    {"ms-secure-hotpatch-functions-list", OptionClass::Value, "function names"},
    {"wholeprogramdevirt-skip", OptionClass::Value, "function names"},
    {"profile-context-root", OptionClass::Value, "a function name"},
    {"trap-func", OptionClass::Value, "a function name"},
    {"icp-ignored-base-types", OptionClass::Value, "type names"},
    {"default-gcov-version", OptionClass::Value, "a version string written into the output"},
    {"memprof-runtime-default-options", OptionClass::Value, "a string written into the output"},
    {"enable-origin-stacktraces", OptionClass::Value, "a mode name (needs a special LLVM build; inert here)"},
    {"expandvp-override-evl-transform", OptionClass::Value, "a transform mode name"},
    {"expandvp-override-mask-transform", OptionClass::Value, "a transform mode name"},
    {"force-attribute", OptionClass::Value, "function and attribute names"},
    {"force-remove-attribute", OptionClass::Value, "function and attribute names"},
    {"march", OptionClass::Value, "target selection, checked against the registered targets"},
    {"mattr", OptionClass::Value, "target features, checked against the target's tables"},
    {"mcpu", OptionClass::Value, "a CPU name, checked against the target's tables"},
    {"mtune", OptionClass::Value, "a CPU name, checked against the target's tables"},
    {"target-abi", OptionClass::Value, "an ABI name"},
    {"ml-inliner-model-selector", OptionClass::Value, "a model name (no model is linked in)"},
    {"nsan-shadow-type-mapping", OptionClass::Value, "type letters"},
    {"pass-remarks", OptionClass::Value, "a regular expression; remarks come back as warnings"},
    {"pass-remarks-analysis", OptionClass::Value, "a regular expression; remarks come back as warnings"},
    {"pass-remarks-missed", OptionClass::Value, "a regular expression; remarks come back as warnings"},
    {"rename-exclude-alias-prefixes", OptionClass::Value, "name prefixes"},
    {"rename-exclude-function-prefixes", OptionClass::Value, "name prefixes"},
    {"rename-exclude-global-prefixes", OptionClass::Value, "name prefixes"},
    {"rename-exclude-struct-prefixes", OptionClass::Value, "name prefixes"},
    {"sbvec-allow-files", OptionClass::Value,
     "regular expressions over the module's source file names; no file is opened"},
    {"sbvec-collect-seeds", OptionClass::Value, "seed kinds"},
    {"stop-after", OptionClass::Value, "a codegen pass name; the output still goes to the result"},
    {"stop-before", OptionClass::Value, "a codegen pass name; the output still goes to the result"},
    {"x86-align-branch", OptionClass::Value, "branch kinds"},
    {"amdgpu-next-use-analysis-config", OptionClass::Value,
     "a preset name ('graphics' or 'compute') of the next-use analysis"},
    {"amdgpu-sched-strategy", OptionClass::Value,
     "a machine scheduler strategy name; unknown names select the default"},
    {"amdgpu-use-native", OptionClass::Value,
     "names of library functions to replace with native versions, or 'all'"},
    {"cphoistfn", OptionClass::Value, "the one function Hexagon copy hoisting works on"},
    {"emscripten-cxx-exceptions-allowed", OptionClass::Value,
     "names of functions whose exceptions Emscripten EH lowering handles"},
    {"mips32-function-mask", OptionClass::Value,
     "a string of 0/1, one per function, choosing Mips32 or Mips16 code"},
    {"nvptx-lower-global-ctor-dtor-id", OptionClass::Value,
     "a unique-ID string put into the names of generated ctor/dtor globals"},
    {"spirv-lower-global-ctor-dtor-id", OptionClass::Value,
     "a unique-ID string put into the names of generated ctor/dtor globals"},
    {"nvvm-reflect-add", OptionClass::Value,
     "name=int pairs that __nvvm_reflect(name) folds to; a malformed pair is a fatal error of "
     "the compile"},
    {"reserve-regs-for-regalloc", OptionClass::Value,
     "AArch64 register names the register allocator must not use"},
    {"spirv-ext", OptionClass::Value, "SPIR-V extension names, checked by the option's parser"},
    {"spv-allow-unknown-intrinsics", OptionClass::Value,
     "intrinsic-name prefixes the SPIR-V backend lowers as unknown intrinsics"},

    // Names that only select what a printing or viewing option shows.
    {"cfg-func-name", OptionClass::Print, "selects the function that -view-cfg/-dot-cfg show"},
    {"mcfg-func-name", OptionClass::Print, "selects the function that machine CFG dumps show"},
    {"filter-passes", OptionClass::Print, "selects what -print-changed prints"},
    {"pgo-trace-func-hash", OptionClass::Print, "prints a function's hash"},
    {"verify-pseudo-probe-funcs", OptionClass::Print, "prints pseudo-probe checks of the named functions"},
    {"sbvec-passes", OptionClass::Print, "a vectorizer pipeline that can name printing passes"},
    {"misched-dcpl", OptionClass::Print, "prints the critical path length to stdout"},
    {"track-memory", OptionClass::Print, "part of -time-passes, which prints its report"},
    {"interactive-model-runner-echo-reply", OptionClass::Print, "echoes the interactive channel to stderr"},
    {"amdgpu-verify-hsa-metadata", OptionClass::Print,
     "prints the HSA metadata parser test's result to stderr (found by the per-backend sweep)"},

    // Files chosen by a string value the rules do not recognise as a path.
    {"basic-block-sections", OptionClass::File, "'all', 'labels', 'none' or a file to read"},
    {"memprof-import-summary", OptionClass::File, "reads a summary file"},

    // Code: runs a program.
    {"print-changed-diff-path", OptionClass::Code, "runs the named diff program"},
    // Registered once the ThinLTO driver (csrc/compile/thin.cpp) links StandardInstrumentations in.
    {"exec-on-ir-change", OptionClass::Code, "runs the named program whenever a pass changes the IR"},

    // Debugging state that outlives the call.
    {"debug-counter", OptionClass::State,
     "debug counters keep counting across compiles and print; without a value LLVM calls exit()"},
    {"opt-bisect", OptionClass::State,
     "opt-bisect keeps a global pass counter across compiles; a malformed value calls exit()"},
    {"opt-bisect-limit", OptionClass::State,
     "opt-bisect keeps a global pass counter across compiles and prints BISECT: lines"},
    {"opt-disable", OptionClass::State,
     "each value is added to a global set of disabled passes that resetting the option does not clear"},
    // A backend's register allocator choice, read once per process: the first
    // codegen for the target stores the option's value as its registry's
    // default (a call_once, as -regalloc's; runtime.cpp latches that one to
    // LLVM's default when a copy starts, but these registries are private to
    // their backends). The first call's value would choose every later
    // compile's allocator (tests/test_policy.py shows it for -vgpr-regalloc);
    // -O0 -mcpu=gfx90a -sgpr-regalloc=basic also crashes (SIGSEGV).
    {"sgpr-regalloc", OptionClass::State,
     "AMDGPU keeps the first compile's SGPR allocator for the rest of the copy's life (a call_once)"},
    {"vgpr-regalloc", OptionClass::State,
     "AMDGPU keeps the first compile's VGPR allocator for the rest of the copy's life (a call_once)"},
    {"wwm-regalloc", OptionClass::State,
     "AMDGPU keeps the first compile's WWM allocator for the rest of the copy's life (a call_once)"},
    {"riscv-rvv-regalloc", OptionClass::State,
     "RISC-V keeps the first compile's vector register allocator for the rest of the copy's life "
     "(a call_once)"},
    {"sve-tail-folding", OptionClass::State,
     "its parser ORs each value's +flags into a global (TailFoldingOptionLoc) that later values "
     "do not clear, and that reset() clears is unproven (no test module showed its effect); a "
     "malformed value calls report_fatal_error while the option is parsed"},

    // Numbers whose large values hang LLVM or exhaust memory (found by the
    // sweep, tests/sweep_options.py): bounded well above any useful setting.
    {"align-all-functions", OptionClass::Value, "log2 of an alignment; huge values pad for ever", 0, 16},
    {"align-all-blocks", OptionClass::Value, "log2 of an alignment; huge values pad for ever", 0, 16},
    {"align-all-nofallthru-blocks", OptionClass::Value, "log2 of an alignment; huge values pad for ever", 0, 16},
    {"force-vector-interleave", OptionClass::Value, "an interleave count; huge values never finish", 0, 64},
    // Given at all (getNumOccurrences), these replace the target's limit, and
    // a limit of 0 makes the interleave count 0: loop vectorisation never
    // finishes (the vector one on any loop; the scalar one with
    // -force-vector-width=1, where it also crashes). 0 is their default, so
    // the sweep of other values missed them (tests/sweep_options.py
    // --explicit-defaults finds the first). A huge limit with a huge
    // -force-target-num-*-regs (allowed) never finishes either (found by
    // tests/test_scoping_sweep.py's batches); 64 with it does.
    {"force-target-max-vector-interleave", OptionClass::Value,
     "a limit on the interleave count; 0 makes the count 0 and huge values (with many registers) "
     "make it huge: vectorisation never finishes", 1, 64},
    {"force-target-max-scalar-interleave", OptionClass::Value,
     "a limit on the interleave count; 0 makes the count 0 and huge values (with many registers) "
     "make it huge: vectorisation never finishes", 1, 64},
    {"capture-tracking-max-uses-to-explore", OptionClass::Value,
     "a search budget; huge values exhaust memory", 0, 1e6},
    {"lsr-complexity-limit", OptionClass::Value,
     "a search budget; values near 0 make loop strength reduction loop for ever", 2},

    {"unroll-peel-count", OptionClass::Value, "a peel count; huge values never finish", 0, 256},
    {"x86-experimental-pref-innermost-loop-alignment", OptionClass::Value,
     "log2 of an alignment; negative or huge values pad for ever", 0, 16},
    {"unroll-force-peel-count", OptionClass::Value, "a peel count; huge values never finish", 0, 256},
    {"hotcoldsplit-cold-probability-denom", OptionClass::Value,
     "a divisor: 0 divides by zero (SIGFPE) once hot-cold splitting runs", 1},
    {"misched-limit", OptionClass::Value, "a scheduling region limit; 0 never finishes", 1},
    {"phicse-num-phi-smallsize", OptionClass::Value, "a search budget; huge values never finish", 0, 1e6},
    {"scev-addops-inline-threshold", OptionClass::Value, "values below 2 crash scalar evolution", 2},

    // Found by the per-backend sweep (each backend's options compiled for
    // that backend). Branch relaxation with a branch range of 0-2 bits (3 for
    // SPARC and AMDGPU) never finishes or exhausts memory; 4 and up finish.
    {"aarch64-b-offset-bits", OptionClass::Value,
     "a branch range in bits, bounded like -aarch64-bcc-offset-bits (same relaxation; no sweep module "
     "has such a branch out of range)", 4, 64},
    {"aarch64-bcc-offset-bits", OptionClass::Value, "a branch range in bits; below 4 relaxation never ends", 4, 64},
    {"aarch64-cb-offset-bits", OptionClass::Value,
     "a branch range in bits, bounded like -aarch64-bcc-offset-bits (same relaxation; no sweep module "
     "has such a branch out of range)", 4, 64},
    {"aarch64-cbz-offset-bits", OptionClass::Value, "a branch range in bits; below 4 relaxation never ends", 4, 64},
    {"aarch64-tbz-offset-bits", OptionClass::Value,
     "a branch range in bits, bounded like -aarch64-bcc-offset-bits (same relaxation; no sweep module "
     "has such a branch out of range)", 4, 64},
    {"amdgpu-s-branch-bits", OptionClass::Value, "a branch range in bits; below 4 relaxation never ends", 4, 64},
    {"sparc-bpcc-offset-bits", OptionClass::Value, "a branch range in bits; below 4 relaxation never ends", 4, 64},
    {"sparc-bpr-offset-bits", OptionClass::Value, "a branch range in bits; below 4 relaxation never ends", 4, 64},
    {"aarch64-sve-vector-bits-min", OptionClass::Value,
     "an SVE register size; the architecture stops at 2048 bits, huge values never finish", 0, 2048},
    {"aarch64-sve-vector-bits-max", OptionClass::Value,
     "an SVE register size; the architecture stops at 2048 bits, huge values (with -min) never "
     "finish", 0, 2048},
    {"amdgpu-promote-alloca-to-vector-vgpr-ratio", OptionClass::Value,
     "a divisor: 0 divides by zero (SIGFPE)", 1},
    {"amdgpu-snop-padding", OptionClass::Value,
     "wait states padded before every instruction; huge values never finish", 0, 16},

    // Crash LLVM (found by the sweep, or on purpose).
    {"start-after", OptionClass::Unsafe,
     "codegen started mid-pipeline expects machine IR; on LLVM IR it crashes (SIGSEGV)"},
    {"start-before", OptionClass::Unsafe,
     "codegen started mid-pipeline expects machine IR; on LLVM IR it crashes (SIGSEGV)"},
    {"pre-RA-sched", OptionClass::Unsafe,
     "the vliw-td scheduler crashes on X86 (SIGSEGV); tests/data/crashers keeps a case"},
    {"misched", OptionClass::Unsafe,
     "the machine scheduler registry holds every linked backend's schedulers; another target's "
     "(gcn-*, r600, hexagon) crashes the compile (SIGSEGV, found by the sweep)"},
    {"unroll-revisit-child-loops", OptionClass::Unsafe,
     "with -unroll-peel-count (allowed) the unroller peels the loop it revisits again, for ever "
     "(found by tests/test_scoping_sweep.py's batches); a debugging aid, not needed to unroll"},
    {"codegen-pipeline-trigger-crash", OptionClass::Unsafe, "crashes the code generator on purpose"},
    {"opt-pipeline-trigger-crash", OptionClass::Unsafe, "crashes the optimiser on purpose"},
};
// clang-format on

// The type names LLVM's parsers print for numbers, and the value
// descriptions LLVM's options use for numbers ("-stress-regalloc=<N>").
constexpr StringRef NumericTypes[] = {"uint",         "int", "ulong", "long", "number", "char",
                                      "ElementCount", "N",   "n",     "x",    "seed"};

bool matches(StringRef pattern, StringRef text) { return Regex(pattern, Regex::IgnoreCase).match(text); }

} // namespace

const char *className(OptionClass kind) {
  switch (kind) {
  case OptionClass::Value:
    return "value";
  case OptionClass::Code:
    return "code";
  case OptionClass::File:
    return "file";
  case OptionClass::Print:
    return "print";
  case OptionClass::Exit:
    return "exit";
  case OptionClass::State:
    return "state";
  case OptionClass::Unsafe:
    return "unsafe";
  case OptionClass::Unknown:
    return "unknown";
  }
  return "unknown";
}

namespace {

template <typename T> std::optional<double> integer(StringRef text) {
  T number;
  if (text.getAsInteger(0, number)) // what cl::parser<T>::parse calls
    return std::nullopt;
  return static_cast<double>(number);
}

} // namespace

std::optional<double> readNumber(ValueReader reader, StringRef text) {
  switch (reader) {
  case ValueReader::Bool:
    // parseBool in LLVM's CommandLine.cpp; "" is a bare -flag.
    if (text.empty() || text == "true" || text == "TRUE" || text == "True" || text == "1")
      return 1.0;
    if (text == "false" || text == "FALSE" || text == "False" || text == "0")
      return 0.0;
    return std::nullopt;
  case ValueReader::Int:
    return integer<int>(text);
  case ValueReader::Long:
    return integer<long>(text);
  case ValueReader::LongLong:
    return integer<long long>(text);
  case ValueReader::Unsigned:
    return integer<unsigned>(text);
  case ValueReader::UnsignedLong:
    return integer<unsigned long>(text);
  case ValueReader::UnsignedLongLong:
    return integer<unsigned long long>(text);
  case ValueReader::Double:
  case ValueReader::Float: {
    double number; // parseDouble: to_float (strtod over the whole text)
    if (!to_float(text, number))
      return std::nullopt;
    return reader == ValueReader::Float ? static_cast<double>(static_cast<float>(number)) : number;
  }
  case ValueReader::String:
  case ValueReader::Char:
  case ValueReader::Unknown:
    break;
  }
  StringRef digits = text;
  digits.consume_front("-");
  if (digits.empty() || !all_of(digits, isDigit) || (digits.size() > 1 && digits.front() == '0'))
    return std::nullopt;
  return integer<long long>(text);
}

bool admits(const Verdict &verdict, ValueReader reader, StringRef text) {
  std::optional<double> number = readNumber(reader, text);
  return number && *number >= verdict.minValue && *number <= verdict.maxValue;
}

// The rules, first match wins. Each is derived from what LLVM itself says
// about the option: its name, its help text and its value's type. The rules
// over names and help come before any that needs the type, so an option they
// tell as code, file, print or exit is refused whether or not its type was
// learned; with no type learned, the file rule reads the name and help as
// for a string.
Verdict classifyOption(const OptionFacts &facts) {
  StringRef name = facts.name, help = facts.help, type = facts.type;
  for (const Reviewed &entry : Table)
    if (name == entry.name)
      return Verdict{entry.kind, entry.reason, entry.minValue, entry.maxValue};

  if (name == "help" || name.starts_with("help-") || name == "version")
    return Verdict{OptionClass::Exit, "prints help or the version and calls exit()"};
  if (name.contains_insensitive("plugin") || help.contains_insensitive("plugin"))
    return Verdict{OptionClass::Code, "loads a plugin library into the process"};
  if (matches("(^|-)view(-|$)", name))
    return Verdict{OptionClass::Code, "shows graphs by starting a viewer program found on PATH"};

  // TableGen makes two options per GlobalISel combiner ("<combiner>-disable-
  // rule", "<combiner>-only-enable-rule") whose callback appends each value
  // to a static list: resetting the option does not empty it.
  if (matches("^[a-z0-9]+(combiner|lowering)-(disable|only-enable)-rule$", name))
    return Verdict{OptionClass::State,
                   "a GlobalISel combiner rule toggle: a callback appends each value to a global "
                   "rule list that resetting the option does not clear"};

  bool numeric = type == "bool" || type == "enum" || is_contained(NumericTypes, type);
  if (type.contains_insensitive("file") || type.contains_insensitive("directory"))
    return Verdict{OptionClass::File,
                   "its value is a path ('" + type.str() + "'): LLVM reads or writes that file"};
  if (!numeric && matches("file|path|director|(^|[^a-z])dir([^a-z]|$)|output|yaml|json|csv|channel",
                          (name + " " + help).str()))
    return Verdict{OptionClass::File, "a string naming a file or path: LLVM reads or writes that file"};

  // Printing and dumping: what the name says it does. Debug *info* is a
  // value of the compile, not a debugging aid.
  bool debugInfo = matches("debug-(info|loc|line|entr|variable|macro|ata)|live-debug", name);
  if (matches("(^|-)(print|printing|printer|dump|dot|stats|stats-json|timers?|verbose)(-|$)|dump|"
              "debugify|^stats$|^time-",
              name) ||
      (!debugInfo && matches("(^|-)debug(-|$)", name)))
    return Verdict{OptionClass::Print,
                   "prints, dumps or times onto the process's streams (or writes dot files)"};

  if (numeric)
    return Verdict{OptionClass::Value, "a plain value of the compile (" + type.str() + ")"};
  if (type.empty())
    return Verdict{OptionClass::Unknown,
                   "its value type could not be learned without printing LLVM's help (an enum or a "
                   "custom parser, on a platform without the output capture), and no name or help "
                   "rule classifies it"};
  return Verdict{OptionClass::Unknown, "no rule classifies this option: not reviewed for the safe policy"};
}

} // namespace llvmplug
