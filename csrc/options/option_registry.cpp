#include "option_registry.h"

#include "capture.h"
#include "failure.h"
#include "habits.h"
#include "pass_policy.h"
#include "prebuilt.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/GlobPattern.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/StringSaver.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Triple.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <set>

using namespace llvm;

namespace llvmplug {

namespace {

// Options whose handlers print help or a version and then call exit().
constexpr StringRef ExitingOptions[] = {"help", "help-hidden", "help-list", "help-list-hidden",
                                        "h",    "version"};

bool accumulates(const cl::Option &option) {
  auto flag = option.getNumOccurrencesFlag();
  return flag == cl::ZeroOrMore || flag == cl::OneOrMore;
}

std::vector<cl::Option *> distinctOptions(const std::vector<Setting> &settings) {
  std::vector<cl::Option *> options;
  for (const Setting &s : settings)
    if (std::find(options.begin(), options.end(), s.option) == options.end())
      options.push_back(s.option);
  return options;
}

// The registered names closest to `name`, for "did you mean" messages.
std::string suggestions(StringRef name) {
  std::vector<std::pair<unsigned, StringRef>> scored;
  unsigned limit = std::max<unsigned>(2, name.size() / 3);
  for (const auto &entry : cl::getRegisteredOptions()) {
    unsigned distance = name.edit_distance(entry.first, true, limit + 1);
    if (distance <= limit)
      scored.emplace_back(distance, entry.first);
  }
  std::sort(scored.begin(), scored.end());
  std::string text;
  for (size_t i = 0; i < scored.size() && i < 3; ++i)
    text += (i ? ", -" : "-") + scored[i].second.str();
  return text;
}

// LLVM prefixes its messages with the program name, empty here.
std::string tidy(std::string text) {
  StringRef trimmed = StringRef(text).trim();
  trimmed.consume_front(":");
  return trimmed.trim().str();
}

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

// What an option is: its value type as LLVM's help prints it, how its
// parser reads a value, its named values, its value and default.
struct Shape {
  std::string type; // empty: not learned
  ValueReader reader = ValueReader::Unknown;
  json::Array values;
  json::Value value = nullptr, defaultValue = nullptr;
};

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

json::Object describeOption(cl::Option &option, size_t width, bool sticky, const Verdict &verdict) {
  Shape shape = shapeOf(option, width);
  json::Value type = nullptr;
  if (!shape.type.empty())
    type = utf8(shape.type);
  return json::Object{{"name", utf8(option.ArgStr)},
                      {"type", std::move(type)},
                      {"value", std::move(shape.value)},
                      {"default", std::move(shape.defaultValue)},
                      {"description", utf8(option.HelpStr)},
                      {"values", std::move(shape.values)},
                      {"sticky", sticky},
                      {"class", className(verdict.kind)},
                      {"reason", utf8(verdict.reason)}};
}

} // namespace

std::vector<std::string> tokenizeFlags(StringRef flags) {
  BumpPtrAllocator allocator;
  StringSaver saver(allocator);
  SmallVector<const char *, 16> argv;
  cl::TokenizeGNUCommandLine(flags, saver, argv);
  std::vector<std::string> tokens;
  for (const char *arg : argv)
    if (arg)
      tokens.emplace_back(arg);
  return tokens;
}

std::vector<Setting> OptionRegistry::resolve(ArrayRef<std::string> tokens) const {
  auto &registered = cl::getRegisteredOptions();
  std::vector<Setting> settings;
  for (size_t i = 0; i < tokens.size(); ++i) {
    StringRef token = tokens[i];
    StringRef body = token;
    if (!body.consume_front("-") || body.empty() || body == "-")
      throw Failure(LLVMPLUG_ERROR_OPTION,
                    "expected an option such as -name=value, got '" + token.str() + "'");
    body.consume_front("-");
    auto [name, value] = body.split('=');
    bool hasValue = body.contains('=');

    if (is_contained(ExitingOptions, name))
      throw Failure(LLVMPLUG_ERROR_OPTION, "option '-" + name.str() + "' is not available through llvmplug");
    auto found = registered.find(name);
    if (found == registered.end()) {
      if (std::optional<std::string> habit = compilerHabit(token))
        throw Failure(LLVMPLUG_ERROR_OPTION, *habit);
      std::string near = suggestions(name);
      throw Failure(LLVMPLUG_ERROR_OPTION,
                    "unknown option '-" + name.str() + "'" +
                        (near.empty() ? std::string() : "; did you mean " + near + "?"));
    }
    cl::Option *option = found->second;
    if (option->isPositional() || option->isSink() || option->isConsumeAfter() || option->isDefaultOption())
      throw Failure(LLVMPLUG_ERROR_OPTION, "option '-" + name.str() + "' is not available through llvmplug");

    std::string written = token.str();
    if (!hasValue && option->getValueExpectedFlag() == cl::ValueRequired) {
      if (i + 1 == tokens.size())
        throw Failure(LLVMPLUG_ERROR_OPTION,
                      "option '-" + name.str() + "' needs a value (-" + name.str() + "=VALUE)");
      value = tokens[++i];
      written += " " + value.str();
    } else if (hasValue && option->getValueExpectedFlag() == cl::ValueDisallowed) {
      throw Failure(LLVMPLUG_ERROR_OPTION, "option '-" + name.str() + "' does not take a value");
    }
    checkAllowed(*option, name, value);
    settings.push_back(Setting{option, std::move(written), value.str()});
  }
  return settings;
}

void OptionRegistry::apply(const std::vector<Setting> &settings) {
  std::set<cl::Option *> seen;
  for (const Setting &s : settings) {
    // Scalars: the last occurrence wins. Lists: occurrences accumulate, but
    // start from the default rather than from what was set before.
    if (seen.insert(s.option).second || !accumulates(*s.option))
      s.option->reset();
    // As LLVM's own parser does: a CommaSeparated option (-mattr=+a,+b)
    // takes each piece as a value of one occurrence.
    SmallVector<StringRef, 4> values;
    if (s.option->getMiscFlags() & cl::CommaSeparated)
      StringRef(s.value).split(values, ',');
    else
      values.push_back(s.value);
    OutputCapture capture;
    for (size_t i = 0; i < values.size(); ++i) {
      if (s.option->addOccurrence(0, s.option->ArgStr, values[i], /*MultiArg=*/i > 0)) {
        std::string detail = tidy(capture.take());
        throw Failure(LLVMPLUG_ERROR_OPTION,
                      "bad value in '" + s.token + "'" + (detail.empty() ? std::string() : ": " + detail));
      }
    }
  }
}

namespace {

Classified computeClass(cl::Option &option) {
  static const size_t Width = helpWidth(); // options register at load time only
  Shape shape = shapeOf(option, Width);
  OptionFacts facts{option.ArgStr, option.HelpStr, shape.type, shape.reader};
  return Classified{classifyOption(facts), shape.reader};
}

} // namespace

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

const Classified &OptionRegistry::classify(cl::Option &option) const {
  std::lock_guard<std::mutex> hold(classesLock_);
  auto found = classes_.find(&option);
  if (found != classes_.end())
    return found->second;
  std::optional<Classified> built = prebuiltClass(option.ArgStr);
  // std::map: the reference stays valid while other entries are added.
  return classes_.emplace(&option, built ? std::move(*built) : computeClass(option)).first->second;
}

void OptionRegistry::checkAllowed(cl::Option &option, StringRef name, StringRef value) const {
  if (policy_ == LLVMPLUG_POLICY_ALL)
    return;
  const auto &[verdict, reader] = classify(option);
  if (verdict.kind == OptionClass::Value) {
    if (!verdict.bounded())
      return;
    // Read each value as the option's own parser will (apply() splits a
    // CommaSeparated option the same way), so that no spelling LLVM reads
    // as another number (0b11100, 0o777, 017) passes a check meant for it.
    SmallVector<StringRef, 4> pieces;
    if (option.getMiscFlags() & cl::CommaSeparated)
      value.split(pieces, ',');
    else
      pieces.push_back(value);
    if (all_of(pieces, [&](StringRef piece) { return admits(verdict, reader, piece); }))
      return;
    auto bound = [](double b) {
      return std::isinf(b) ? std::string("any") : std::to_string(static_cast<long long>(b));
    };
    throw Failure(
        LLVMPLUG_ERROR_OPTION,
        "value '" + value.str() + "' of option '-" + name.str() +
            "' is refused by the safe option policy: the safe range is " + bound(verdict.minValue) + " to " +
            bound(verdict.maxValue) + ", read as " +
            (reader == ValueReader::Unknown ? "a plain decimal number" : "the option's parser reads it") +
            " (" + verdict.reason + "); other values only with Plugin(policy=\"all\")");
  }
  throw Failure(LLVMPLUG_ERROR_OPTION,
                "option '-" + name.str() + "' is refused by the safe option policy (" +
                    className(verdict.kind) + ": " + verdict.reason +
                    "); it is allowed only with Plugin(policy=\"all\"), for trusted callers");
}

void OptionRegistry::checkPipeline(StringRef passes) const {
  checkPipelineNesting(passes);
  // An empty pipeline names nothing; the catalogue is made on first use
  // (a copy that computes it itself did so at load: runtime.cpp).
  if (policy_ == LLVMPLUG_POLICY_ALL || passes.empty())
    return;
  PassCatalogue::get().checkSafe(passes);
}

void OptionRegistry::setPolicy(llvmplug_policy policy) {
  llvmplug_policy previous = policy_;
  policy_ = policy;
  try {
    for (const auto &entry : sticky_)
      for (const Setting &setting : entry.second)
        checkAllowed(*entry.first, entry.first->ArgStr, setting.value);
  } catch (...) {
    policy_ = previous;
    throw;
  }
}

void OptionRegistry::restore(ArrayRef<cl::Option *> options) const noexcept {
  for (cl::Option *option : options) {
    // Each option on its own: one that fails must not keep the rest from
    // being restored. reset() itself only assigns the stored default.
    try {
      option->reset();
      auto it = sticky_.find(option);
      if (it != sticky_.end())
        apply(it->second);
    } catch (...) {
      // The settings were accepted when made sticky, so only running out of
      // memory gets here; the option is left at its default.
      try {
        option->reset();
      } catch (...) {
      }
    }
  }
}

void OptionRegistry::setSticky(const std::vector<Setting> &settings) {
  std::vector<cl::Option *> touched = distinctOptions(settings);
  // Allocate before mutating: build the new ledger first, so that running
  // out of memory leaves both the ledger and LLVM's options as they were;
  // the swap below cannot fail.
  std::map<cl::Option *, std::vector<Setting>> ledger = sticky_;
  for (cl::Option *option : touched)
    ledger[option].clear();
  for (const Setting &s : settings)
    ledger[s.option].push_back(s);
  try {
    apply(settings);
  } catch (...) {
    restore(touched); // the ledger still holds the previous sticky state
    throw;
  }
  sticky_.swap(ledger);
  stickyBeyondValues_ = std::any_of(sticky_.begin(), sticky_.end(), [&](const auto &entry) {
    return classify(*entry.first).verdict.kind != OptionClass::Value;
  });
}

void OptionRegistry::clearSticky() {
  std::vector<cl::Option *> options;
  for (const auto &entry : sticky_)
    options.push_back(entry.first);
  sticky_.clear();
  stickyBeyondValues_ = false;
  restore(options);
}

std::string OptionRegistry::describe(StringRef pattern) const {
  Expected<GlobPattern> glob = GlobPattern::create(pattern.empty() ? "*" : pattern);
  if (!glob)
    throw Failure(LLVMPLUG_ERROR_ARGUMENT,
                  "bad option pattern '" + pattern.str() + "': " + toString(glob.takeError()));
  std::vector<std::pair<StringRef, cl::Option *>> matching;
  for (const auto &entry : cl::getRegisteredOptions())
    if (glob->match(entry.first))
      matching.emplace_back(entry.first, entry.second);
  std::sort(matching.begin(), matching.end());

  size_t width = helpWidth();
  json::Array options;
  for (auto &[name, option] : matching)
    options.push_back(describeOption(*option, width, sticky_.count(option) != 0, classify(*option).verdict));
  std::string text;
  raw_string_ostream os(text);
  os << json::Value(std::move(options));
  return text;
}

// Options that LLVM's targets themselves write while compiling. Measured
// (every registered option's value snapshotted around compiles of every
// backend, for a dozen CPUs each, tests/test_concurrency.py keeps the
// method): WebAssembly, PowerPC, Hexagon, BPF, AVR and Lanai lowering call
// setMinimumJumpTableEntries(), which assigns the global
// -min-jump-table-entries (2, 64, 5, 13, UINT_MAX, 100), so a PowerPC compile
// changed every later x86 compile of the copy; Hexagon's tiny cores also set
// -disable-const64. Each call that runs alone starts these from their
// default (plus sticky settings) and restores them afterwards, like the
// caller's own options; compiles for the targets that write them run alone
// (targetWritesOptions), so no compile reads them while one writes.
constexpr const char *WrittenByTargets[] = {"min-jump-table-entries", "disable-const64"};

bool debugInfoUpgradeDisabled() {
  auto &registered = cl::getRegisteredOptions();
  auto found = registered.find("disable-auto-upgrade-debug-info");
  if (found == registered.end())
    return false;
  // Read through its type only once its vtable shows it is a cl::opt<bool>;
  // otherwise the debug info is upgraded (and the module verified).
  const KnownType *type = knownType(*found->second);
  if (!type || type->read != &readScalar<bool, false>)
    return false;
  return static_cast<cl::opt<bool> &>(*found->second).getValue();
}

bool targetWritesOptions(const Triple &triple) {
  // Fails closed: only the backends the measurement found writing nothing
  // share the copy; any other (a backend added later, an unknown arch) runs
  // alone.
  switch (triple.getArch()) {
  case Triple::x86:
  case Triple::x86_64:
  case Triple::aarch64:
  case Triple::aarch64_be:
  case Triple::aarch64_32:
  case Triple::amdgpu:
  case Triple::r600:
  case Triple::nvptx:
  case Triple::nvptx64:
  case Triple::arm:
  case Triple::armeb:
  case Triple::thumb:
  case Triple::thumbeb:
  case Triple::riscv32:
  case Triple::riscv64:
  case Triple::mips:
  case Triple::mipsel:
  case Triple::mips64:
  case Triple::mips64el:
  case Triple::systemz:
  case Triple::spirv:
  case Triple::spirv32:
  case Triple::spirv64:
  case Triple::loongarch32:
  case Triple::loongarch64:
  case Triple::sparc:
  case Triple::sparcv9:
  case Triple::sparcel:
  case Triple::msp430:
  case Triple::xcore:
    return false;
  default:
    return true;
  }
}

std::string optionSetKey(const std::vector<Setting> &settings) {
  std::string key;
  for (const Setting &s : settings) {
    key += s.option->ArgStr;
    key += '\1';
    key += s.value;
    key += '\0';
  }
  return key;
}

OptionGroups &optionGroups() {
  static OptionGroups groups; // destroyed at unload, when no call is in progress
  return groups;
}

void OptionGroups::enter(const OptionRegistry &registry, const std::vector<Setting> &settings,
                         const std::string &key) {
  std::unique_lock<std::mutex> hold(lock_);
  ++waiting_[key];
  auto othersWaiting = [&] {
    auto same = waiting_.find(current_);
    return waitingTotal() - (same == waiting_.end() ? 0 : same->second);
  };
  // Join the running group if it has this option set, unless others have
  // waited while it admitted a burst (so that no set starves); start a group
  // when the copy is idle.
  changed_.wait(
      hold, [&] { return inside_ == 0 || (current_ == key && (othersWaiting() == 0 || admitted_ < Burst)); });
  if (--waiting_[key] == 0)
    waiting_.erase(key);
  if (inside_ == 0) {
    admitted_ = 0;
    current_ = key;
    if (!settings.empty()) {
      try {
        scope_.emplace(registry, settings, /*alone=*/false);
      } catch (...) {
        current_.clear(); // nothing applied (ScopedOptions restores on failure)
        changed_.notify_all();
        throw;
      }
    }
  }
  ++inside_;
  ++admitted_;
}

void OptionGroups::leave() noexcept {
  std::lock_guard<std::mutex> hold(lock_);
  if (--inside_ == 0) {
    scope_.reset(); // the last one out restores defaults plus sticky settings
    current_.clear();
  }
  changed_.notify_all();
}

size_t OptionGroups::waitingTotal() const {
  size_t total = 0;
  for (const auto &entry : waiting_)
    total += entry.second;
  return total;
}

ScopedOptions::ScopedOptions(const OptionRegistry &registry, const std::vector<Setting> &settings, bool alone)
    : registry_(registry), touched_(distinctOptions(settings)) {
  auto &registered = cl::getRegisteredOptions();
  for (const char *name : WrittenByTargets) {
    if (!alone)
      break;
    auto found = registered.find(name);
    if (found == registered.end() || is_contained(touched_, found->second))
      continue;
    registry_.restore(found->second);
    touched_.push_back(found->second);
  }
  try {
    OptionRegistry::apply(settings);
  } catch (...) {
    registry_.restore(touched_);
    throw;
  }
}

// restore() is noexcept and catches everything itself, so a destructor that
// runs during unwinding cannot reach std::terminate.
ScopedOptions::~ScopedOptions() { registry_.restore(touched_); }

} // namespace llvmplug
