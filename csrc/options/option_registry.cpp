#include "option_registry.h"

#include "capture.h"
#include "failure.h"
#include "habits.h"
#include "messages.h"
#include "option_shapes.h"
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
        policyRefusal(
            "value '" + value.str() + "' of option '-" + name.str() + "'",
            "the safe range is " + bound(verdict.minValue) + " to " + bound(verdict.maxValue) + ", read as " +
                (reader == ValueReader::Unknown ? "a plain decimal number" : "the option's parser reads it") +
                ": " + verdict.reason));
  }
  throw Failure(LLVMPLUG_ERROR_OPTION,
                policyRefusal("option '-" + name.str() + "'",
                              std::string(className(verdict.kind)) + ": " + verdict.reason));
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
  std::vector<cl::Option *> touched = distinct(settings);
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

bool debugInfoUpgradeDisabled() {
  auto &registered = cl::getRegisteredOptions();
  auto found = registered.find("disable-auto-upgrade-debug-info");
  if (found == registered.end())
    return false;
  // Read only once its vtable shows it is a cl::opt<bool> (option_shapes.h);
  // otherwise the debug info is upgraded (and the module verified).
  return plainBoolValue(*found->second).value_or(false);
}

std::vector<cl::Option *> OptionRegistry::distinct(const std::vector<Setting> &settings) {
  std::vector<cl::Option *> options;
  for (const Setting &s : settings)
    if (std::find(options.begin(), options.end(), s.option) == options.end())
      options.push_back(s.option);
  return options;
}

cl::Option *OptionRegistry::find(StringRef name) {
  auto &registered = cl::getRegisteredOptions();
  auto found = registered.find(name);
  return found == registered.end() ? nullptr : found->second;
}

} // namespace llvmplug
