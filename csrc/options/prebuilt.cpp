#include "prebuilt.h"

#include "capture.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <map>

using namespace llvm;

namespace llvmplug {

bool previousLoad() {
  static const bool chosen = [] {
    const char *value = std::getenv("LLVMPLUG_PREVIOUS_LOAD");
    return value && *value && std::strcmp(value, "0") != 0;
  }();
  return chosen;
}

namespace {

bool setInEnvironment(const char *name) {
  const char *value = std::getenv(name);
  return value && *value && std::strcmp(value, "0") != 0;
}

std::optional<Verdict> verdictOf(const prebuilt::VerdictRow &row) {
  if (!row.present)
    return std::nullopt;
  return Verdict{row.kind, row.reason, row.minValue, row.maxValue};
}

std::vector<PassEntry> builtPasses() {
  const prebuilt::Tables &tables = prebuilt::Built;
  std::vector<PassEntry> entries;
  entries.reserve(tables.passCount);
  for (size_t i = 0; i < tables.passCount; ++i) {
    const prebuilt::PassRow &row = tables.passes[i];
    PassEntry entry{row.name, {}, row.syntax, {}, row.analysis, verdictOf(row.verdict)};
    for (uint32_t k = 0; k < row.kindCount; ++k)
      entry.kinds.emplace_back(tables.kinds[row.firstKind + k]);
    for (uint32_t p = 0; p < row.parameterCount; ++p) {
      const prebuilt::ParameterRow &parameter = tables.parameters[row.firstParameter + p];
      entry.parameters.push_back(
          PassParameter{parameter.name, parameter.value, verdictOf(parameter.verdict)});
    }
    entries.push_back(std::move(entry));
  }
  return entries;
}

std::vector<ClassifiedOption> builtOptions() {
  std::vector<ClassifiedOption> options;
  for (size_t i = 0; i < prebuilt::Built.optionCount; ++i) {
    const prebuilt::OptionRow &row = prebuilt::Built.options[i];
    options.push_back(ClassifiedOption{row.name, Classified{*verdictOf(row.verdict), row.reader}});
  }
  return options;
}

// ---- Every field, as text, for the comparison --------------------------------
//
// The structured bindings name every field: one added to these structures is
// a compile error here (and in the generator) until it is written and compared.

// Exactly (17 digits), and infinities too, which JSON has no number for.
std::string number(double value) {
  std::string text;
  raw_string_ostream(text) << format("%.17g", value);
  return text;
}

json::Value canonical(const std::optional<Verdict> &verdict) {
  if (!verdict)
    return nullptr;
  const auto &[kind, reason, minValue, maxValue] = *verdict;
  // Bounds as text: JSON has no infinity.
  return json::Object{
      {"class", className(kind)}, {"reason", reason}, {"min", number(minValue)}, {"max", number(maxValue)}};
}

std::string canonical(const PassEntry &entry) {
  const auto &[name, kinds, syntax, parameters, analysis, verdict] = entry;
  json::Array shown;
  for (const PassParameter &parameter : parameters) {
    const auto &[parameterName, value, parameterVerdict] = parameter;
    shown.push_back(
        json::Object{{"name", parameterName}, {"value", value}, {"verdict", canonical(parameterVerdict)}});
  }
  json::Value row = json::Object{{"name", name},         {"kinds", json::Array(kinds)},
                                 {"syntax", syntax},     {"parameters", std::move(shown)},
                                 {"analysis", analysis}, {"verdict", canonical(verdict)}};
  std::string text;
  raw_string_ostream(text) << row;
  return text;
}

std::string canonical(const ClassifiedOption &option) {
  const auto &[name, classified] = option;
  const auto &[verdict, reader] = classified;
  json::Value row = json::Object{{"name", name},
                                 {"reader", static_cast<int>(reader)},
                                 {"verdict", canonical(std::optional<Verdict>(verdict))}};
  std::string text;
  raw_string_ostream(text) << row;
  return text;
}

// At most this many differences are listed; the rest are counted.
constexpr size_t MaxDifferences = 40;

template <typename Row>
void compareRows(StringRef what, const std::vector<Row> &built, const std::vector<Row> &computed,
                 std::vector<std::string> &differences) {
  std::map<std::string, std::string> builtRows, computedRows;
  std::vector<std::string> builtOrder, computedOrder;
  for (const Row &row : built) {
    builtRows[row.name] = canonical(row);
    builtOrder.push_back(row.name);
  }
  for (const Row &row : computed) {
    computedRows[row.name] = canonical(row);
    computedOrder.push_back(row.name);
  }
  for (const auto &[name, text] : computedRows) {
    auto found = builtRows.find(name);
    if (found == builtRows.end())
      differences.push_back(what.str() + " '" + name + "': not in the build's tables");
    else if (found->second != text)
      differences.push_back(what.str() + " '" + name + "': the build's " + found->second + ", this copy's " +
                            text);
  }
  for (const auto &[name, text] : builtRows)
    if (!computedRows.count(name))
      differences.push_back(what.str() + " '" + name + "': in the build's tables, not in this copy");
  if (builtRows.size() == computedRows.size() && builtOrder != computedOrder)
    differences.push_back(what.str() + "s: the same rows in another order");
}

std::vector<std::string> Differences; // written once, at load (checkPrebuiltTables)
size_t DifferenceCount = 0;

} // namespace

TableSource tableSource() {
  // Once per copy: each copy reads the environment when it first runs.
  static const TableSource Source = [] {
    if (setInEnvironment("LLVMPLUG_CHECK_TABLES"))
      return TableSource::Check;
    if (previousLoad() || !prebuilt::Built.built)
      return TableSource::Load;
    return TableSource::Build;
  }();
  return Source;
}

std::vector<PassEntry> catalogueEntries() {
  return tableSource() == TableSource::Build ? builtPasses() : PassCatalogue::compute();
}

std::optional<Classified> prebuiltClass(StringRef name) {
  const prebuilt::Tables &tables = prebuilt::Built;
  if (tableSource() != TableSource::Build || tables.captureWorks != OutputCapture::works())
    return std::nullopt;
  const prebuilt::OptionRow *end = tables.options + tables.optionCount;
  const prebuilt::OptionRow *row =
      std::lower_bound(tables.options, end, name, [](const prebuilt::OptionRow &row, StringRef name) {
        return StringRef(row.name) < name;
      });
  if (row == end || StringRef(row->name) != name)
    return std::nullopt;
  return Classified{*verdictOf(row->verdict), row->reader};
}

void checkPrebuiltTables() {
  if (tableSource() != TableSource::Check)
    return;
  std::vector<std::string> found;
  if (!prebuilt::Built.built) {
    found.push_back("this build has no prebuilt tables");
  } else {
    if (prebuilt::Built.captureWorks != OutputCapture::works())
      found.push_back("the build learned option shapes " +
                      std::string(prebuilt::Built.captureWorks ? "with" : "without") +
                      " printing, this copy cannot do the same");
    compareRows("pass", builtPasses(), PassCatalogue::compute(), found);
    compareRows("option", builtOptions(), classifyRegisteredOptions(), found);
  }
  DifferenceCount = found.size();
  if (found.size() > MaxDifferences)
    found.resize(MaxDifferences);
  Differences = std::move(found);
}

json::Value describeTables() {
  TableSource source = tableSource();
  json::Object tables{{"source", source == TableSource::Build  ? "build"
                                 : source == TableSource::Load ? "load"
                                                               : "check"}};
  if (source == TableSource::Check) {
    tables["differences"] = json::Array(Differences);
    tables["difference_count"] = static_cast<int64_t>(DifferenceCount);
  }
  return tables;
}

// Declared by the pass policy (pass_policy.h), made here from this layer's
// entries, so that policy/ needs nothing of options/.
const PassCatalogue &PassCatalogue::get() {
  static const PassCatalogue catalogue(catalogueEntries());
  return catalogue;
}

} // namespace llvmplug
