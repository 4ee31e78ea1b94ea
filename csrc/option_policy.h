// option_policy.h: which LLVM options the safe policy lets a caller set.
//
// Why: some cl::opts are not values of a compile. They load a library
// (-x86-lvi-load-opt-plugin), read or write files (-stack-usage-file), print
// to the host's streams (-print-after-all), start programs (-view-*), exit
// the process (-help), or keep state that outlives the call (-debug-counter,
// -opt-bisect). A service that passes caller-supplied flags must not reach
// those, so every registered option gets a class and only "value" options
// pass the safe policy (LLVMPLUG_POLICY_SAFE, the default of every copy).
//
// How: rules derived from LLVM's own metadata (name, help text, value type
// or value description) classify almost every option; the reviewed
// exceptions live in one table in option_policy.cpp with a reason each. An
// option no rule classifies is "unreviewed": refused by the safe policy and
// reported with class null, so a new LLVM's options fail the test suite
// (tests/test_policy.py) until someone reviews them.
#ifndef LLVMPLUG_OPTION_POLICY_H
#define LLVMPLUG_OPTION_POLICY_H

#include "llvm/ADT/StringRef.h"

#include <cmath>
#include <optional>
#include <string>

namespace llvmplug {

enum class OptionClass {
  Value,  // a value of the compile: allowed by the safe policy
  Code,   // loads code or starts a program
  File,   // reads or writes files or directories chosen by the caller
  Print,  // prints, dumps or times onto the process's streams
  Exit,   // prints and exits the process
  State,  // changes state that outlives the call (or exits on bad input)
  Unsafe, // crashes or hangs LLVM for some values (found by the sweep)
};

// What classification needs to know about one option, as LLVM describes it.
struct OptionFacts {
  llvm::StringRef name;
  llvm::StringRef help;
  // The value type as LLVM's help prints it: "bool" (no value), a parser
  // name ("uint", "int", "string", ...), "enum" (a list of named values),
  // or the option's own value description ("filename", "N", ...).
  llvm::StringRef type;
};

struct Verdict {
  OptionClass kind;
  std::string reason; // why, in words, for messages and listings
  // For a "value" option some of whose numbers hang LLVM or exhaust memory
  // (found by tests/sweep_options.py): the range the safe policy accepts.
  // Infinite by default: any value the option's parser accepts.
  double minValue = -HUGE_VAL;
  double maxValue = HUGE_VAL;
};

// The class of one option; nullopt when no rule or table entry covers it.
std::optional<Verdict> classifyOption(const OptionFacts &facts);

// "value", "code", "file", "print", "exit", "state" or "unsafe".
const char *className(OptionClass kind);

} // namespace llvmplug

#endif
