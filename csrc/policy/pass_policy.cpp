#include "pass_policy.h"

#include "failure.h"
#include "messages.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/PassInstrumentation.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/GlobPattern.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <map>
#include <set>

using namespace llvm;

namespace llvmplug {

namespace {

struct Reviewed {
  const char *name;
  OptionClass kind;
  const char *reason;
};

// The reviewed passes and analyses, with a reason each (pass_policy.def).
#define REVIEWED_PASS(NAME, CLASS, REASON) {NAME, OptionClass::CLASS, REASON},
constexpr Reviewed Table[] = {
#include "pass_policy.def"
};

// Parameters the rules cannot decide, as "pass:parameter" (pass_policy.def).
#define REVIEWED_PASS_PARAMETER(NAME, CLASS, REASON) {NAME, OptionClass::CLASS, REASON},
constexpr Reviewed ParameterTable[] = {
#include "pass_policy.def"
};

// ---- Numbers --------------------------------------------------------------
//
// A number a pass parameter takes ("full-unroll-max=N", devirt's count, the
// indices of lower-allow-check's "cutoffs[indices]=N") is read by the pass's
// own parser in PassBuilder.cpp, with StringRef::getAsInteger(0, T) into the
// C++ type T named here (0x, 0b, 0o and 0 prefixes; a sign only for a signed
// T; an APInt reads any run of digits). Some values crash LLVM or ask for
// gigabytes (lower-allow-check<cutoffs[4294967295]=5> overflows the size of
// the vector the index selects: SIGSEGV), so a numeric parameter is "value"
// only with a reviewed range here, and the safe policy accepts a number only
// if it reads as LLVM reads it and lies within the range. A numeric
// parameter no entry covers has no class (unreviewed): refused.
struct NumberRange {
  ValueReader reader; // a reader reading exactly the numbers LLVM's T does within the range
  double minValue, maxValue;
};
struct ReviewedNumber {
  const char *name; // "pass:parameter" as printPassNames spells it ("devirt:" for the count)
  NumberRange value;
  // For "name[indices]=N": each index, which LLVM splits on '|'.
  std::optional<NumberRange> index;
  const char *reason;
};
// The reviewed numeric parameters (pass_policy.def).
#define REVIEWED_PASS_NUMBER(NAME, READER, MIN, MAX, REASON)                                                 \
  {NAME, {ValueReader::READER, MIN, MAX}, std::nullopt, REASON},
#define REVIEWED_PASS_NUMBER_INDEXED(NAME, READER, MIN, MAX, IREADER, IMIN, IMAX, REASON)                    \
  {NAME, {ValueReader::READER, MIN, MAX}, NumberRange{ValueReader::IREADER, IMIN, IMAX}, REASON},
constexpr ReviewedNumber Numbers[] = {
#include "pass_policy.def"
};

const ReviewedNumber *findNumber(StringRef pass, StringRef parameter) {
  for (const ReviewedNumber &number : Numbers)
    if ((pass + ":" + parameter).str() == number.name)
      return &number;
  return nullptr;
}

std::string describeRange(const NumberRange &range) {
  auto text = [](double value) { return std::to_string(static_cast<long long>(value)); };
  return text(range.minValue) + " to " + text(range.maxValue);
}

bool inRange(const NumberRange &range, StringRef text) {
  std::optional<double> number = readNumber(range.reader, text);
  return number && *number >= range.minValue && *number <= range.maxValue;
}

// What in `piece`, a use of the numeric `parameter` of `pass`, is not a
// number LLVM reads within the reviewed range, or "" if nothing is.
std::string outOfRange(StringRef pass, StringRef parameter, StringRef piece) {
  const ReviewedNumber *number = findNumber(pass, parameter);
  if (!number)
    return "no reviewed range"; // classifyParameter gave it no class already
  auto [name, value] = piece.split('=');
  if (parameter.empty())
    value = piece; // devirt<N>: the piece is the count
  if (!inRange(number->value, value))
    return "'" + value.str() + "'";
  if (number->index) {
    StringRef indices = name.drop_until([](char c) { return c == '['; }).drop_front();
    indices.consume_back("]");
    SmallVector<StringRef, 4> each;
    indices.split(each, '|', -1, /*KeepEmpty=*/true);
    for (StringRef index : each)
      if (!inRange(*number->index, index))
        return "index '" + index.str() + "'";
  }
  return "";
}

bool matches(StringRef pattern, StringRef text) { return Regex(pattern, Regex::IgnoreCase).match(text); }

// ---- LLVM's pipeline grammar ----------------------------------------------
//
// As PassBuilder::parsePipelineText reads it: elements separated by commas,
// an element's inner pipeline in parentheses. An element's text is a name
// optionally followed by <parameters>; the parameters never hold ',', '(' or
// ')', which always separate elements.
struct Element {
  StringRef text;
  std::vector<Element> inner;
};

std::optional<std::vector<Element>> parsePipeline(StringRef text) {
  std::vector<Element> top;
  std::vector<std::vector<Element> *> stack{&top};
  for (;;) {
    size_t at = text.find_first_of(",()");
    stack.back()->push_back(Element{text.substr(0, at), {}});
    if (at == StringRef::npos)
      break;
    char separator = text[at];
    text = text.substr(at + 1);
    if (separator == ',')
      continue;
    if (separator == '(') {
      stack.push_back(&stack.back()->back().inner);
      continue;
    }
    do {
      if (stack.size() == 1)
        return std::nullopt;
      stack.pop_back();
    } while (text.consume_front(")"));
    if (text.empty())
      break;
    if (!text.consume_front(","))
      return std::nullopt;
  }
  if (stack.size() != 1)
    return std::nullopt;
  return top;
}

// Parameters split on ';' at the top level: "mode=<mode>" keeps its <>.
std::vector<StringRef> splitParameters(StringRef text) {
  std::vector<StringRef> pieces;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i <= text.size(); ++i) {
    if (i == text.size() || (text[i] == ';' && depth == 0)) {
      if (i > start)
        pieces.push_back(text.slice(start, i));
      start = i + 1;
    } else if (text[i] == '<') {
      ++depth;
    } else if (text[i] == '>') {
      --depth;
    }
  }
  return pieces;
}

// What an element's name starts with: "print" for print<da><...>.
StringRef baseName(StringRef text) {
  return text.take_until([](char c) { return c == '<'; });
}

// The index of the '>' closing the '<' at `open`, or npos.
size_t closing(StringRef text, size_t open) {
  int depth = 0;
  for (size_t i = open; i < text.size(); ++i) {
    if (text[i] == '<')
      ++depth;
    else if (text[i] == '>' && --depth == 0)
      return i;
  }
  return StringRef::npos;
}

// A printPassNames line of a pass with parameters is NAME<PARAMS>, and both
// may hold <>: "print<structural-hash><detailed;...>", "alloc-token<mode=<mode>>".
// NAME is the longest prefix after which exactly one <...> group remains.
std::pair<StringRef, StringRef> splitNameAndSyntax(StringRef line) {
  for (size_t open = line.rfind('<'); open != StringRef::npos && open > 0; open = line.rfind('<', open - 1)) {
    StringRef name = line.take_front(open);
    if (closing(line, open) == line.size() - 1 &&
        std::count(name.begin(), name.end(), '<') == std::count(name.begin(), name.end(), '>'))
      return {name, line.slice(open + 1, line.size() - 1)};
  }
  return {line, ""};
}

// ---- Rules ------------------------------------------------------------------

std::optional<Verdict> classifyParameter(StringRef pass, const PassParameter &parameter) {
  for (const Reviewed &entry : ParameterTable)
    if ((pass + ":" + parameter.name).str() == entry.name)
      return Verdict{entry.kind, entry.reason};
  // Words, not substrings: "profile-peeling" holds "file" but is a switch.
  constexpr const char *PathWords = "(^|[-_])(file|filename|path|dir|directory)s?([-_]|$)|filename";
  if (matches(PathWords, parameter.name) || matches(PathWords, parameter.value))
    return Verdict{OptionClass::File, "names a file: LLVM opens that path"};
  if (parameter.value.empty())
    return Verdict{OptionClass::Value, "a switch of the pass"};
  if (parameter.value == "N") {
    const ReviewedNumber *number = findNumber(pass, parameter.name);
    if (!number)
      return std::nullopt; // a number with no reviewed range: unreviewed
    return Verdict{OptionClass::Value,
                   std::string(number->reason) + "; accepted: " + describeRange(number->value) +
                       (number->index ? ", indices " + describeRange(*number->index) : "")};
  }
  return std::nullopt;
}

std::optional<Verdict> classifyPass(const PassEntry &entry, const std::set<std::string> &standard) {
  StringRef name = entry.name;
  for (const Reviewed &reviewed : Table)
    if (name == reviewed.name)
      return Verdict{reviewed.kind, reviewed.reason};
  if (name.starts_with("trigger-"))
    return Verdict{OptionClass::Unsafe, "crashes LLVM or breaks the module on purpose"};
  if (matches("(^|-)view(-|$)", name))
    return Verdict{OptionClass::Code, "shows graphs by starting a viewer program found on PATH"};
  if (matches("(^|[-<])(print|printer|dump|dot|stats|debugify)([-<>]|$)", name))
    return Verdict{OptionClass::Print, "prints, dumps or writes dot files (onto the process's "
                                       "streams or into the working directory)"};
  if (name.starts_with("verify"))
    return Verdict{OptionClass::Unsafe, "checks LLVM's own results; on a mismatch it prints to the "
                                        "process's stderr and aborts (or reports a fatal error)"};
  if (is_contained(entry.kinds, "machine function pass") ||
      is_contained(entry.kinds, "machine module pass") ||
      is_contained(entry.kinds, "machine function analysis"))
    return Verdict{OptionClass::Unsafe,
                   "a machine pass: it needs the code generator's analyses, which a -passes "
                   "pipeline over LLVM IR does not set up"};
  if (!entry.analysis && standard.count(entry.name))
    return Verdict{OptionClass::Value, "runs in LLVM's own default pipelines (O1-O3, (Thin)LTO)"};
  return std::nullopt;
}

// ---- The registry -------------------------------------------------------------

// Names PassBuilder itself parses around the registry: pass managers and
// adaptors that hold an inner pipeline.
struct Adaptor {
  const char *name;
  const char *syntax;
  OptionClass kind;
  const char *reason;
};
constexpr Adaptor Adaptors[] = {
    {"module", "", OptionClass::Value, "a pass manager: runs its inner pipeline over the module"},
    {"cgscc", "", OptionClass::Value, "a pass manager: runs its inner pipeline over each call-graph SCC"},
    {"function", "eager-inv;no-rerun", OptionClass::Value,
     "a pass manager: runs its inner pipeline over each function"},
    {"loop", "", OptionClass::Value, "a pass manager: runs its inner pipeline over each loop"},
    {"loop-mssa", "", OptionClass::Value,
     "a pass manager: runs its inner pipeline over each loop, with MemorySSA"},
    {"coro-cond", "", OptionClass::Value, "runs its inner pipeline only on modules with coroutines"},
    {"devirt", "N", OptionClass::Value,
     "repeats its inner CGSCC pipeline while it devirtualises calls, at most N times"},
    {"machine-function", "", OptionClass::Unsafe,
     "runs machine passes over functions the code generator has not built: crashes (SIGSEGV) "
     "even with no-op-machine-function inside"},
};

// printPassNames' section titles: "Function passes with params:".
std::string kindOf(StringRef title, bool &analysis, bool &skip) {
  title.consume_back(":");
  title.consume_back(" (WIP)");
  title.consume_back(" with params");
  analysis = title.ends_with("analyses");
  skip = title.ends_with("alias analyses"); // aa-pipeline names, not -passes
  std::string kind = title.lower();
  if (StringRef(kind).ends_with("passes"))
    kind.resize(kind.size() - 2); // "passes" -> "pass"
  else if (StringRef(kind).ends_with("analyses"))
    kind = kind.substr(0, kind.size() - 2) + "is"; // "analyses" -> "analysis"
  return kind;
}

void collectNames(const std::vector<Element> &elements, std::set<std::string> &names) {
  for (const Element &element : elements) {
    StringRef text = element.text;
    names.insert(text.str());
    size_t open = text.find('<');
    if (open != StringRef::npos)
      names.insert(text.take_front(open).str());
    // "print<da><...>", "require<x>": the longest name with one group.
    names.insert(splitNameAndSyntax(text).first.str());
    collectNames(element.inner, names);
  }
}

// Every pass of LLVM's default pipelines, as the pipelines print themselves.
std::set<std::string> standardPasses() {
  PassInstrumentationCallbacks callbacks;
  PipelineTuningOptions tuning; // as the default<O2> and default<O3> aliases set it
  tuning.LoopVectorization = tuning.SLPVectorization = true;
  PassBuilder builder(nullptr, tuning, std::nullopt, &callbacks);
  auto name = [&](StringRef className) {
    StringRef passName = callbacks.getPassNameForClassName(className);
    return passName.empty() ? className : passName;
  };
  std::vector<ModulePassManager> pipelines;
  for (OptimizationLevel level : {OptimizationLevel::O1, OptimizationLevel::O2, OptimizationLevel::O3}) {
    pipelines.push_back(builder.buildPerModuleDefaultPipeline(level));
    pipelines.push_back(builder.buildThinLTOPreLinkDefaultPipeline(level));
    pipelines.push_back(builder.buildThinLTODefaultPipeline(level, nullptr));
    pipelines.push_back(builder.buildLTOPreLinkDefaultPipeline(level));
    pipelines.push_back(builder.buildLTODefaultPipeline(level, nullptr));
  }
  pipelines.push_back(builder.buildO0DefaultPipeline(OptimizationLevel::O0));
  std::set<std::string> names;
  for (ModulePassManager &pipeline : pipelines) {
    std::string text;
    raw_string_ostream os(text);
    pipeline.printPipeline(os, name);
    if (std::optional<std::vector<Element>> elements = parsePipeline(os.str()))
      collectNames(*elements, names);
  }
  return names;
}

} // namespace

std::vector<PassEntry> PassCatalogue::compute() {
  std::vector<PassEntry> entries;
  PassBuilder builder; // no target machine: LLVM's own registry only
  std::string text;
  raw_string_ostream os(text);
  builder.printPassNames(os);

  std::map<std::string, size_t> index;
  auto add = [&](StringRef name, StringRef kind, StringRef syntax, bool analysis) {
    auto [at, fresh] = index.emplace(name.str(), entries.size());
    if (fresh)
      entries.push_back(PassEntry{name.str(), {}, syntax.str(), {}, analysis, std::nullopt});
    PassEntry &entry = entries[at->second];
    if (!is_contained(entry.kinds, kind))
      entry.kinds.push_back(kind.str());
    if (entry.syntax.empty())
      entry.syntax = syntax.str();
  };
  for (const Adaptor &adaptor : Adaptors)
    add(adaptor.name, "pass manager", adaptor.syntax, false);

  std::string kind;
  bool analysis = false, skip = false, parametrised = false;
  SmallVector<StringRef, 0> lines;
  StringRef(os.str()).split(lines, '\n', -1, false);
  for (StringRef line : lines) {
    if (!line.starts_with(" ")) {
      kind = kindOf(line, analysis, skip);
      parametrised = line.contains("with params");
      continue;
    }
    if (skip)
      continue;
    line = line.trim();
    if (parametrised) {
      auto [name, syntax] = splitNameAndSyntax(line);
      add(name, kind, syntax, analysis);
    } else {
      add(line, kind, "", analysis);
    }
  }

  std::set<std::string> standard = standardPasses();
  for (PassEntry &entry : entries) {
    for (StringRef piece : splitParameters(entry.syntax)) {
      auto [name, value] = piece.split('=');
      PassParameter parameter{name.str(), value.str(), std::nullopt};
      if (entry.kinds == std::vector<std::string>{"pass manager"} && piece == "N")
        parameter = PassParameter{"", "N", std::nullopt};
      parameter.verdict = classifyParameter(entry.name, parameter);
      entry.parameters.push_back(std::move(parameter));
    }
    for (const Adaptor &adaptor : Adaptors)
      if (entry.name == adaptor.name)
        entry.verdict = Verdict{adaptor.kind, adaptor.reason};
    if (!entry.verdict)
      entry.verdict = classifyPass(entry, standard);
  }
  return entries;
}

PassCatalogue::PassCatalogue(std::vector<PassEntry> entries) : entries_(std::move(entries)) {
  for (size_t i = 0; i < entries_.size(); ++i)
    byBase_[baseName(entries_[i].name).str()].push_back(i);
}

namespace {

// `why` is "class: reason".
std::string refusal(StringRef what, StringRef why) { return policyRefusal(what.str() + " in -passes", why); }

std::string refusal(StringRef what, const std::optional<Verdict> &verdict) {
  return refusal(what, verdict ? std::string(className(verdict->kind)) + ": " + verdict->reason
                               : std::string("unreviewed: no rule classifies it"));
}

const PassParameter *findParameter(const PassEntry &entry, StringRef piece) {
  auto [name, value] = piece.split('=');
  bool assigned = piece.contains('=');
  for (const PassParameter &parameter : entry.parameters) {
    if (parameter.name.empty()) {
      long long count;
      if (!assigned && !piece.getAsInteger(0, count))
        return &parameter;
      continue;
    }
    StringRef declared = parameter.name;
    // "cutoffs[indices]=N" is written "cutoffs[3]=N".
    size_t bracket = declared.find('[');
    bool indexed = bracket != StringRef::npos && name.starts_with(declared.take_front(bracket + 1)) &&
                   name.ends_with("]");
    if ((name == declared || indexed) && assigned == !parameter.value.empty())
      return &parameter;
  }
  return nullptr;
}

// A parameter LLVM does not list for the pass: a typo, or a level LLVM 23
// dropped. Said as such, not as a matter of policy (LLVM refuses it too).
[[noreturn]] void unknownParameter(const PassEntry &entry, StringRef piece) {
  bool levels = StringRef(entry.syntax).contains("O2");
  if (levels && (piece == "Os" || piece == "Oz"))
    throw Failure(LLVMPLUG_ERROR_OPTION, "'" + entry.name + "<" + piece.str() +
                                             ">' in -passes: LLVM 23's pipelines have no " + piece.str() +
                                             " level; use " + entry.name + "<O2> with the functions marked " +
                                             (piece == "Os" ? "optsize" : "minsize") +
                                             " in the IR (what clang -" + piece.str() + " writes)");
  std::vector<StringRef> names;
  for (const PassParameter &parameter : entry.parameters)
    if (!parameter.name.empty())
      names.push_back(parameter.name);
  throw Failure(
      LLVMPLUG_ERROR_OPTION,
      "unknown parameter '" + piece.str() + "' of pass '" + entry.name + "' in -passes (" +
          (entry.syntax.empty() ? std::string("it takes none") : "it takes <" + entry.syntax + ">") + ")" +
          closestNames(piece.split('=').first, names));
}

void checkParameters(const PassEntry &entry, StringRef parameters) {
  for (StringRef piece : splitParameters(parameters)) {
    const PassParameter *parameter = findParameter(entry, piece);
    std::string what = "parameter '" + piece.str() + "' of pass '" + entry.name + "'";
    if (!parameter)
      unknownParameter(entry, piece);
    if (!parameter->verdict || parameter->verdict->kind != OptionClass::Value)
      throw Failure(LLVMPLUG_ERROR_OPTION, refusal(what, parameter->verdict));
    if (parameter->value == "N") {
      std::string why = outOfRange(entry.name, parameter->name, piece);
      if (!why.empty())
        throw Failure(LLVMPLUG_ERROR_OPTION,
                      refusal(what, why + " is out of range: " + parameter->verdict->reason));
    }
  }
}

} // namespace

void checkPipelineNesting(StringRef pipeline) {
  unsigned depth = 0;
  for (char c : pipeline) {
    if (c == '(' && ++depth > MaxPipelineDepth)
      throw Failure(LLVMPLUG_ERROR_LIMIT, "the -passes pipeline is nested deeper than " +
                                              std::to_string(MaxPipelineDepth) + " levels");
    if (c == ')' && depth > 0)
      --depth;
  }
}

// Whether every '<' of a pipeline element is closed by a '>' after it.
static bool balanced(StringRef text) {
  int depth = 0;
  for (char c : text)
    if ((c == '<' && ++depth < 0) || (c == '>' && --depth < 0))
      return false;
  return depth == 0;
}

std::string PassCatalogue::unknownPass(StringRef text) const {
  // require<domtre>: an analysis; instcombin<...>: a pass with its parameters.
  StringRef analysis = text;
  bool wrapped = (analysis.consume_front("require<") || analysis.consume_front("invalidate<")) &&
                 analysis.consume_back(">");
  std::vector<StringRef> names;
  for (const PassEntry &entry : entries_)
    if (entry.analysis == wrapped)
      names.push_back(entry.name);
  std::string near = closestNames(wrapped ? analysis : baseName(text), names);
  if (wrapped && !near.empty()) { // "; did you mean a, b?" as the element names them: require<a>
    std::string list = StringRef(near).drop_front(StringRef("; did you mean ").size()).drop_back().str();
    SmallVector<StringRef, 3> pieces;
    StringRef(list).split(pieces, ", ");
    std::string prefix = text.take_front(text.find('<') + 1).str();
    near = "; did you mean ";
    for (size_t i = 0; i < pieces.size(); ++i)
      near += (i ? ", " : "") + prefix + pieces[i].str() + ">";
    near += "?";
  }
  if (!near.empty())
    return "unknown pass '" + text.str() + "' in -passes" + near;
  return "unknown pass '" + text.str() + "' in -passes: LLVM's pass registry has no such " +
         (wrapped ? "analysis" : "pass") +
         " (Plugin.passes() lists them; a target's own passes are not in it and, unreviewed, are "
         "refused under the safe policy)";
}

void PassCatalogue::checkSafe(StringRef pipeline) const {
  std::optional<std::vector<Element>> elements = parsePipeline(pipeline);
  if (!elements)
    return; // LLVM's parser refuses it with its own message
  std::vector<const Element *> pending;
  for (const Element &element : *elements)
    pending.push_back(&element);
  while (!pending.empty()) {
    const Element &element = *pending.back();
    pending.pop_back();
    for (const Element &inner : element.inner)
      pending.push_back(&inner);
    StringRef text = element.text;
    if (text.empty())
      continue; // LLVM refuses an empty name itself
    if (!balanced(text))
      throw Failure(LLVMPLUG_ERROR_OPTION,
                    "malformed -passes element '" + text.str() +
                        "': its '<' and '>' do not pair up (parameters are written name<a;b=1>)");

    // invalidate<analysis> only drops cached results; require<analysis>
    // computes the analysis, which is what the analysis' class says.
    StringRef analysis = text;
    bool require = analysis.consume_front("require<") && analysis.consume_back(">");
    bool invalidate = !require && analysis.consume_front("invalidate<") && analysis.consume_back(">");
    std::vector<std::pair<const PassEntry *, StringRef>> found; // entry, parameters
    std::vector<size_t> candidates;
    auto addCandidates = [&](StringRef name) {
      auto named = byBase_.find(baseName(name).str());
      if (named != byBase_.end())
        candidates.insert(candidates.end(), named->second.begin(), named->second.end());
    };
    addCandidates(text); // invalidate<all> is a pass of its own
    if (require || invalidate)
      addCandidates(analysis);
    for (size_t index : candidates) {
      const PassEntry &entry = entries_[index];
      if (entry.analysis) {
        if ((require || invalidate) && analysis == entry.name)
          found.emplace_back(&entry, "");
        continue;
      }
      // As PassBuilder::checkParametrizedPassName: the name, then nothing
      // or one <parameters>.
      StringRef rest = text;
      if (!rest.consume_front(entry.name))
        continue;
      if (rest.empty())
        found.emplace_back(&entry, "");
      else if (!entry.syntax.empty() && rest.consume_front("<") && rest.consume_back(">"))
        found.emplace_back(&entry, rest);
    }
    if (found.empty())
      throw Failure(LLVMPLUG_ERROR_OPTION, unknownPass(text));
    if (invalidate)
      continue;
    // A name registered twice (a pass and an analysis printer, at two
    // levels) is allowed only if every reading of it is.
    for (auto [entry, parameters] : found) {
      if (!entry->verdict || entry->verdict->kind != OptionClass::Value)
        throw Failure(
            LLVMPLUG_ERROR_OPTION,
            refusal((entry->analysis ? "analysis '" : "pass '") + entry->name + "'", entry->verdict));
      checkParameters(*entry, parameters);
    }
  }
}

std::string PassCatalogue::describe(StringRef pattern) const {
  Expected<GlobPattern> glob = GlobPattern::create(pattern.empty() ? "*" : pattern);
  if (!glob)
    throw Failure(LLVMPLUG_ERROR_ARGUMENT,
                  "bad pass pattern '" + pattern.str() + "': " + toString(glob.takeError()));
  auto verdictFields = [](json::Object &object, const std::optional<Verdict> &verdict) {
    object["class"] = verdict ? json::Value(className(verdict->kind)) : json::Value(nullptr);
    object["reason"] = verdict ? verdict->reason
                               : std::string("no rule classifies this pass: not reviewed for the "
                                             "safe policy");
  };
  // The reviewed range of a numeric parameter (and of its indices), or null.
  auto rangeFields = [](json::Object &object, const PassEntry &entry, const PassParameter &parameter) {
    const ReviewedNumber *number = parameter.value == "N" ? findNumber(entry.name, parameter.name) : nullptr;
    auto range = [](const std::optional<NumberRange> &range) {
      return range ? json::Value(json::Array{range->minValue, range->maxValue}) : json::Value(nullptr);
    };
    object["range"] = range(number ? std::optional<NumberRange>(number->value) : std::nullopt);
    object["index_range"] = range(number ? number->index : std::nullopt);
  };
  std::vector<const PassEntry *> matching;
  for (const PassEntry &entry : entries_)
    if (glob->match(entry.name))
      matching.push_back(&entry);
  std::sort(matching.begin(), matching.end(),
            [](const PassEntry *a, const PassEntry *b) { return a->name < b->name; });
  json::Array passes;
  for (const PassEntry *entry : matching) {
    json::Array parameters;
    for (const PassParameter &parameter : entry->parameters) {
      json::Object object{{"name", parameter.name}, {"value", parameter.value}};
      verdictFields(object, parameter.verdict);
      rangeFields(object, *entry, parameter);
      parameters.push_back(std::move(object));
    }
    json::Array kinds;
    for (const std::string &kind : entry->kinds)
      kinds.push_back(kind);
    json::Object object{{"name", entry->name},
                        {"kinds", std::move(kinds)},
                        {"analysis", entry->analysis},
                        {"syntax", entry->syntax},
                        {"parameters", std::move(parameters)}};
    verdictFields(object, entry->verdict);
    passes.push_back(std::move(object));
  }
  std::string text;
  raw_string_ostream os(text);
  os << json::Value(std::move(passes));
  return text;
}

} // namespace llvmplug
