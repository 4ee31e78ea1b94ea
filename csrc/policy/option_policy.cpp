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

// The reviewed exceptions, with a reason each (option_policy.def).
#define REVIEWED_OPTION(NAME, CLASS, REASON) {NAME, OptionClass::CLASS, REASON},
#define REVIEWED_OPTION_RANGE(NAME, MIN, MAX, REASON) {NAME, OptionClass::Value, REASON, MIN, MAX},
constexpr Reviewed Table[] = {
#include "option_policy.def"
};

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
