#include "option_shapes.h"

#include "capture.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstring>

using namespace llvm;

namespace llvmplug {

std::string utf8(StringRef s) { return json::isUTF8(s) ? s.str() : json::fixUTF8(s); }

// The width LLVM's help printer passes: the widest option's. Some options
// (debug-counter) compute their padding as width minus a name length, and a
// smaller width wraps around into a near-endless indent.
size_t helpWidth() {
  size_t width = 0;
  for (const auto &entry : cl::getRegisteredOptions())
    width = std::max(width, entry.second->getOptionWidth());
  return width;
}

namespace {

// --- Shapes learned without printing ---------------------------------------
//
// cl::Option's virtual interface tells the name, help, value description and
// whether a value is expected, but not the C++ type of the option, which
// decides how its value is read. The type is found by the option's vtable: a
// probe of every type the shim can name (cl::opt and cl::list of LLVM's basic
// parser types, with internal and external storage) is built once at load
// time, and an option whose vtable is a probe's has exactly the probe's type,
// so it can be read through that type's interface. This needs no printing and
// no write() override, so it holds on every platform. (If a linker folded two
// probes' vtables into one, those types behave identically.) Enums, custom
// parsers and subclasses match no probe: only the Linux capture can tell
// their shape, and elsewhere they stay unknown.

// The vptr: first in any object whose first base (cl::Option) is polymorphic,
// under both the Itanium and the Microsoft C++ ABI.
const void *vtableOf(const cl::Option &option) {
  const void *vtable;
  std::memcpy(&vtable, static_cast<const void *>(&option), sizeof vtable);
  return vtable;
}

// The probes live in a subcommand of their own, so that they never join the
// top-level options that callers set and list.
cl::SubCommand &probeCommand() {
  static cl::SubCommand Command("llvmplug-type-probes", "");
  return Command;
}

template <typename T> std::string text(const T &value) {
  std::string out;
  raw_string_ostream os(out);
  os << value; // as LLVM's printOptionDiff writes it (bool as 0 or 1)
  return out;
}

std::string text(cl::boolOrDefault value) { return std::to_string(static_cast<int>(value)); }

struct KnownType {
  const void *vtable;
  ValueReader reader;
  StringRef valueName;                 // the parser's; empty for bool
  void (*read)(cl::Option &, Shape &); // value and default; null for lists
};

template <typename T, bool External> void readScalar(cl::Option &option, Shape &shape) {
  auto &typed = static_cast<cl::opt<T, External> &>(option);
  shape.value = utf8(text(typed.getValue()));
  if (typed.getDefault().hasValue())
    shape.defaultValue = utf8(text(typed.getDefault().getValue()));
}

template <typename T> void addProbes(std::vector<KnownType> &known, ValueReader reader) {
  // Each probe registers itself under its name, so it leaves the registry
  // before it goes (a vtable and the parser's name are static data that
  // outlive it). ~Option does not touch the registry.
  cl::opt<T> internal("llvmplug-probe", cl::sub(probeCommand()), cl::ReallyHidden);
  cl::opt<T, true> external("llvmplug-probe-external", cl::sub(probeCommand()), cl::ReallyHidden);
  cl::list<T> list("llvmplug-probe-list", cl::sub(probeCommand()), cl::ReallyHidden);
  StringRef name = internal.getParser().getValueName();
  known.push_back({vtableOf(internal), reader, name, &readScalar<T, false>});
  known.push_back({vtableOf(external), reader, name, &readScalar<T, true>});
  known.push_back({vtableOf(list), reader, name, nullptr});
  internal.removeArgument();
  external.removeArgument();
  list.removeArgument();
}

std::vector<KnownType> probeTypes() {
  std::vector<KnownType> known;
  addProbes<bool>(known, ValueReader::Bool);
  addProbes<cl::boolOrDefault>(known, ValueReader::Bool);
  addProbes<int>(known, ValueReader::Int);
  addProbes<long>(known, ValueReader::Long);
  addProbes<long long>(known, ValueReader::LongLong);
  addProbes<unsigned>(known, ValueReader::Unsigned);
  addProbes<unsigned long>(known, ValueReader::UnsignedLong);
  addProbes<unsigned long long>(known, ValueReader::UnsignedLongLong);
  addProbes<double>(known, ValueReader::Double);
  addProbes<float>(known, ValueReader::Float);
  addProbes<std::string>(known, ValueReader::String);
  addProbes<char>(known, ValueReader::Char);
  return known;
}

const KnownType *knownType(const cl::Option &option) {
  // Built on first use (a static local: once, even with threads), not while
  // the library loads: a shim built with LLVM's symbols exported must fail at
  // load in LLVM's own way (tests/test_negative_control.py). Safe beside
  // calls reading the top-level options: the probes touch only their own
  // subcommand.
  static const std::vector<KnownType> KnownTypes = probeTypes();
  const void *vtable = vtableOf(option);
  for (const KnownType &known : KnownTypes)
    if (known.vtable == vtable)
      return &known;
  return nullptr;
}

// --- Shapes read from LLVM's help (Linux only) -------------------------------

// The parser a printed type name stands for. "long" and "ulong" each name
// two parsers (long and long long); on Linux, the only platform that reads
// help text, both have 64 bits and read alike.
ValueReader readerNamed(StringRef parserName) {
  return StringSwitch<ValueReader>(parserName)
      .Case("bool", ValueReader::Bool)
      .Case("int", ValueReader::Int)
      .Case("long", ValueReader::LongLong)
      .Case("uint", ValueReader::Unsigned)
      .Case("ulong", ValueReader::UnsignedLongLong)
      .Case("number", ValueReader::Double)
      .Case("string", ValueReader::String)
      .Case("char", ValueReader::Char)
      .Default(ValueReader::Unknown);
}

// For options of a type no probe has: parse what printOptionInfo and
// printOptionValue write, captured (capture.h). Where the capture does not
// work nothing is printed (it would reach the host's streams) and the shape
// stays unknown.
void readPrinted(cl::Option &option, size_t width, Shape &shape) {
  if (!OutputCapture::works())
    return;
  OutputCapture capture;
  option.printOptionInfo(width);
  std::string info = capture.take();
  SmallVector<StringRef, 8> lines;
  StringRef(info).split(lines, '\n', -1, false);
  if (lines.empty())
    return; // printed nothing: not learned
  StringRef first = lines.front();
  size_t open = first.find("=<");
  shape.type = open == StringRef::npos
                   ? "bool"
                   : first.substr(open + 2).take_until([](char c) { return c == '>'; }).str();
  // A value description replaces the parser's name in the help, so the
  // parser is known only when none is set.
  if (option.ValueStr.empty())
    shape.reader = readerNamed(shape.type);
  for (StringRef line : ArrayRef(lines).drop_front()) {
    line = line.ltrim();
    if (line.consume_front("="))
      shape.values.push_back(utf8(line.take_until(isSpace)));
  }
  if (!shape.values.empty()) {
    shape.type = "enum";
    shape.reader = ValueReader::Unknown;
  }

  option.printOptionValue(width, /*Force=*/true);
  std::string shown = capture.take();
  StringRef line = StringRef(shown).rtrim();
  size_t eq = line.find("= ");
  size_t def = line.rfind(" (default: ");
  if (eq != StringRef::npos && def != StringRef::npos && def >= eq) {
    shape.value = utf8(line.slice(eq + 2, def).trim());
    StringRef d = line.substr(def + 11);
    d.consume_back(")");
    if (d != "*no default*")
      shape.defaultValue = utf8(d);
  }
}

} // namespace

Shape shapeOf(cl::Option &option, size_t width) {
  Shape shape;
  if (const KnownType *known = knownType(option)) {
    // As basic_parser_impl::printOptionInfo names it.
    shape.type = known->valueName.empty()
                     ? "bool"
                     : (option.ValueStr.empty() ? known->valueName : option.ValueStr).str();
    shape.reader = known->reader;
    if (known->read)
      known->read(option, shape);
    return shape;
  }
  readPrinted(option, width, shape);
  return shape;
}

std::optional<bool> plainBoolValue(cl::Option &option) {
  // Read through its type only once its vtable shows it is a cl::opt<bool>.
  const KnownType *type = knownType(option);
  if (!type || type->read != &readScalar<bool, false>)
    return std::nullopt;
  return static_cast<cl::opt<bool> &>(option).getValue();
}

Classified computeClass(cl::Option &option) {
  static const size_t Width = helpWidth(); // options register at load time only
  Shape shape = shapeOf(option, Width);
  OptionFacts facts{option.ArgStr, option.HelpStr, shape.type, shape.reader};
  return Classified{classifyOption(facts), shape.reader};
}

std::vector<ClassifiedOption> classifyRegisteredOptions() {
  std::vector<std::pair<StringRef, cl::Option *>> registered;
  for (const auto &entry : cl::getRegisteredOptions())
    registered.emplace_back(entry.first, entry.second);
  std::sort(registered.begin(), registered.end());
  std::vector<ClassifiedOption> classified;
  for (auto &[name, option] : registered)
    classified.push_back(ClassifiedOption{name.str(), computeClass(*option)});
  return classified;
}

} // namespace llvmplug
