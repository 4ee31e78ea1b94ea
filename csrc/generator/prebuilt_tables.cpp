// prebuilt_tables.cpp: the build's generator of the shim's prebuilt policy
// tables (csrc/options/prebuilt.h).
//
//   llvmplug_prebuilt_tables OUTPUT.cpp
//
// cmake/LLVMPlugPrebuilt.cmake links it from the shim's own objects and LLVM
// libraries, so it registers the options and passes a loaded shim does. It
// starts LLVM as a copy starts (runtime.h: every backend, the warm-up
// compile), computes every table with the code a copy would run, and writes
// them as C++ source. The file is rewritten only when its text changes, so an
// unchanged table is not compiled again.
#include "capture.h"
#include "failure.h"
#include "option_registry.h"
#include "pass_policy.h"
#include "prebuilt.h"
#include "runtime.h"
#include "start.h"
#include "threads.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <exception>

using namespace llvm;

namespace llvmplug::prebuilt {
// The generator computes the tables: it has none to use.
extern const Tables Built = {};
} // namespace llvmplug::prebuilt

namespace {

using namespace llvmplug;

// A C++ string literal holding `text` exactly: octal escapes for all but
// printable ASCII (a hex escape would swallow a following hex digit), and
// '?' escaped so that no trigraph forms.
std::string literal(StringRef text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    if (c == '"' || c == '\\' || c == '?') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else {
      char escape[5];
      std::snprintf(escape, sizeof escape, "\\%03o", c);
      out += escape;
    }
  }
  return out + "\"";
}

std::string number(double value) {
  if (std::isinf(value))
    return value > 0 ? "Inf" : "-Inf";
  std::string text;
  raw_string_ostream(text) << format("%.17g", value);
  return text;
}

std::string enumerator(OptionClass kind) {
  // className's word is the enumerator's name: "value" is OptionClass::Value.
  std::string name = className(kind);
  name[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(name[0])));
  return "OptionClass::" + name;
}

std::string enumerator(ValueReader reader) {
  switch (reader) {
  case ValueReader::Unknown:
    return "ValueReader::Unknown";
  case ValueReader::Bool:
    return "ValueReader::Bool";
  case ValueReader::Int:
    return "ValueReader::Int";
  case ValueReader::Long:
    return "ValueReader::Long";
  case ValueReader::LongLong:
    return "ValueReader::LongLong";
  case ValueReader::Unsigned:
    return "ValueReader::Unsigned";
  case ValueReader::UnsignedLong:
    return "ValueReader::UnsignedLong";
  case ValueReader::UnsignedLongLong:
    return "ValueReader::UnsignedLongLong";
  case ValueReader::Double:
    return "ValueReader::Double";
  case ValueReader::Float:
    return "ValueReader::Float";
  case ValueReader::String:
    return "ValueReader::String";
  case ValueReader::Char:
    return "ValueReader::Char";
  }
  throw Failure(LLVMPLUG_ERROR_INTERNAL, "a value reader the generator cannot write");
}

// The structured bindings below name every field of what they write: a field
// added to PassEntry, PassParameter, Verdict, Classified or ClassifiedOption
// is a compile error here until it is written (and read back in prebuilt.cpp).
std::string verdictRow(const std::optional<Verdict> &verdict) {
  if (!verdict)
    return "{false, OptionClass::Unknown, \"\", 0, 0}";
  const auto &[kind, reason, minValue, maxValue] = *verdict;
  return "{true, " + enumerator(kind) + ", " + literal(reason) + ", " + number(minValue) + ", " +
         number(maxValue) + "}";
}

std::string array(const char *type, const char *name, const std::string &rows) {
  // C++ has no empty arrays: an empty table is a null pointer (see below).
  return rows.empty() ? std::string()
                      : "constexpr " + std::string(type) + " " + name + "[] = {\n" + rows + "};\n\n";
}

std::string source(const std::vector<PassEntry> &passes, const std::vector<ClassifiedOption> &options,
                   bool captureWorks) {
  std::string kindRows, parameterRows, passRows, optionRows;
  size_t kindCount = 0, parameterCount = 0;
  for (const PassEntry &entry : passes) {
    const auto &[name, kinds, syntax, parameters, analysis, verdict] = entry;
    passRows += "    {" + literal(name) + ", " + literal(syntax) + ", " + (analysis ? "true" : "false") +
                ", " + verdictRow(verdict) + ", " + std::to_string(kindCount) + ", " +
                std::to_string(kinds.size()) + ", " + std::to_string(parameterCount) + ", " +
                std::to_string(parameters.size()) + "},\n";
    for (const std::string &kind : kinds) {
      kindRows += "    " + literal(kind) + ",\n";
      ++kindCount;
    }
    for (const PassParameter &parameter : parameters) {
      const auto &[parameterName, value, parameterVerdict] = parameter;
      parameterRows += "    {" + literal(parameterName) + ", " + literal(value) + ", " +
                       verdictRow(parameterVerdict) + "},\n";
      ++parameterCount;
    }
  }
  for (const ClassifiedOption &option : options) {
    const auto &[name, classified] = option;
    const auto &[verdict, reader] = classified;
    optionRows += "    {" + literal(name) + ", " + enumerator(reader) + ", " + verdictRow(verdict) + "},\n";
  }
  auto pointer = [](const std::string &rows, const char *name) {
    return rows.empty() ? std::string("nullptr") : std::string(name);
  };
  return "// Generated by csrc/generator/prebuilt_tables.cpp for this build: do not edit.\n"
         "// The policy tables of the shim (csrc/options/prebuilt.h): " +
         std::to_string(options.size()) + " options, " + std::to_string(passes.size()) +
         " passes.\n"
         "#include \"prebuilt.h\"\n\n#include <limits>\n\n"
         "namespace llvmplug::prebuilt {\n\nnamespace {\n\n"
         "constexpr double Inf = std::numeric_limits<double>::infinity();\n\n" +
         array("const char *", "Kinds", kindRows) + array("ParameterRow", "Parameters", parameterRows) +
         array("PassRow", "Passes", passRows) + array("OptionRow", "Options", optionRows) +
         "} // namespace\n\n"
         "extern const Tables Built = {true, " +
         (captureWorks ? "true" : "false") + ", " + pointer(optionRows, "Options") + ", " +
         std::to_string(options.size()) + ", " + pointer(passRows, "Passes") + ", " +
         std::to_string(passes.size()) + ", " + pointer(kindRows, "Kinds") + ", " +
         pointer(parameterRows, "Parameters") + "};\n\n} // namespace llvmplug::prebuilt\n";
}

// Write `text` to `path` unless it already holds it; through a temporary
// file, so that an interrupted build leaves no half-written source.
void writeIfChanged(StringRef path, StringRef text) {
  if (ErrorOr<std::unique_ptr<MemoryBuffer>> old = MemoryBuffer::getFile(path, /*IsText=*/false))
    if ((*old)->getBuffer() == text)
      return;
  std::string temporary = (path + ".tmp").str();
  {
    std::error_code error;
    raw_fd_ostream out(temporary, error, sys::fs::OF_None);
    if (error)
      throw Failure(LLVMPLUG_ERROR_INTERNAL, "cannot write " + temporary + ": " + error.message());
    out << text;
    out.close();
    if (out.has_error())
      throw Failure(LLVMPLUG_ERROR_INTERNAL, "cannot write " + temporary + ": " + out.error().message());
  }
  if (std::error_code error = sys::fs::rename(temporary, path))
    throw Failure(LLVMPLUG_ERROR_INTERNAL, "cannot replace " + path.str() + ": " + error.message());
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s OUTPUT.cpp\n", argv[0]);
    return 2;
  }
  try {
    std::string text;
    // On a kept thread confined as a copy's are (threads.h), so that what
    // is computed here is what a copy would compute.
    runOnLLVMThread([&] {
      ExclusiveLock hold(runtimeLock());
      runtime(); // as a copy starts: every backend registered, the warm-up compile
      // Options at their defaults still: the catalogue LLVM's default pipelines give.
      text = source(PassCatalogue::compute(), classifyRegisteredOptions(), OutputCapture::works());
    });
    stopThreads();
    writeIfChanged(argv[1], text);
    return 0;
  } catch (const Failure &failure) {
    std::fprintf(stderr, "llvmplug_prebuilt_tables: %s\n", failure.message.c_str());
  } catch (const std::exception &error) {
    std::fprintf(stderr, "llvmplug_prebuilt_tables: %s\n", error.what());
  }
  return 1;
}
