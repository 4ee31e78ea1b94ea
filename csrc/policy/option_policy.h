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
// option no rule classifies is "unknown": refused by the safe policy and
// listed with that class and why, so a new LLVM's options fail the test suite
// (tests/test_policy.py) until someone reviews them. So is an option whose
// value type could not be learned (option_shapes.h) and that no name or help rule
// classifies: the policy fails closed where it cannot tell.
#ifndef LLVMPLUG_OPTION_POLICY_H
#define LLVMPLUG_OPTION_POLICY_H

#include "llvm/ADT/StringRef.h"

#include <cmath>
#include <optional>
#include <string>

namespace llvmplug {

enum class OptionClass {
  Value,   // a value of the compile: allowed by the safe policy
  Code,    // loads code or starts a program
  File,    // reads or writes files or directories chosen by the caller
  Print,   // prints, dumps or times onto the process's streams
  Exit,    // prints and exits the process
  State,   // changes state that outlives the call (or exits on bad input)
  Unsafe,  // crashes or hangs LLVM for some values (found by the sweep)
  Unknown, // no rule classifies it, or its type could not be learned: refused
};

// How an option's parser reads a value: LLVM's cl::parser<T> for the C++
// type T of the option (option_shapes.h learns T without printing). Unknown for
// enums, custom parsers and options whose type could not be learned.
enum class ValueReader {
  Unknown,
  Bool,         // parser<bool>, parser<boolOrDefault>
  Int,          // parser<int>: StringRef::getAsInteger(0), so 0x, 0b, 0o, 0 prefixes
  Long,         // parser<long>
  LongLong,     // parser<long long>
  Unsigned,     // parser<unsigned>
  UnsignedLong, // parser<unsigned long>
  UnsignedLongLong,
  Double, // parser<double>: strtod over the whole text (hex floats, inf, nan)
  Float,  // parser<float>: as double, then narrowed
  String,
  Char,
};

// What classification needs to know about one option, as LLVM describes it.
struct OptionFacts {
  llvm::StringRef name;
  llvm::StringRef help;
  // The value type as LLVM's help prints it: "bool" (no value), a parser
  // name ("uint", "int", "string", ...), "enum" (a list of named values),
  // or the option's own value description ("filename", "N", ...). Empty
  // when it could not be learned.
  llvm::StringRef type;
  ValueReader reader = ValueReader::Unknown;
};

struct Verdict {
  OptionClass kind;
  std::string reason; // why, in words, for messages and listings
  // For a "value" option some of whose numbers hang LLVM or exhaust memory
  // (found by tests/campaigns/sweep_options.py): the range the safe policy accepts.
  // Infinite by default: any value the option's parser accepts.
  double minValue = -HUGE_VAL;
  double maxValue = HUGE_VAL;
  bool bounded() const { return minValue != -HUGE_VAL || maxValue != HUGE_VAL; }
};

// The class of one option: Unknown when no rule or table entry covers it.
Verdict classifyOption(const OptionFacts &facts);

// The number `text` means to an option read by `reader`, read exactly as
// that parser reads it; nullopt when the parser would refuse it. With an
// unknown reader only a plain decimal integer (no sign but '-', no prefix,
// no leading zero) counts, since every LLVM number parser reads it alike.
std::optional<double> readNumber(ValueReader reader, llvm::StringRef text);

// Whether the range of a bounded verdict admits `text`, read as above.
bool admits(const Verdict &verdict, ValueReader reader, llvm::StringRef text);

// "value", "code", "file", "print", "exit", "state", "unsafe" or "unknown".
const char *className(OptionClass kind);

} // namespace llvmplug

#endif
