// option_shapes.h: what an LLVM option is, learned from the option itself:
// its value type as LLVM's help prints it, how its parser reads a value, its
// named values, its value and default; and from that shape and the option
// policy (option_policy.h), its class.
//
// Only reads: the registry (option_registry.h) is the one place that writes
// an option. cl::Option's virtual interface does not tell an option's C++
// type, which decides how its value is read, so the type is found by the
// option's vtable (probes of every type the shim can name), else, on Linux
// only, by parsing LLVM's own help output for it (capture.h).
#ifndef LLVMPLUG_OPTION_SHAPES_H
#define LLVMPLUG_OPTION_SHAPES_H

#include "option_policy.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace llvm::cl {
class Option;
}

namespace llvmplug {

// What an option is: its value type as LLVM's help prints it, how its
// parser reads a value, its named values, its value and default.
struct Shape {
  std::string type; // empty: not learned
  ValueReader reader = ValueReader::Unknown;
  llvm::json::Array values;
  llvm::json::Value value = nullptr, defaultValue = nullptr;
};

// `width`: helpWidth(), as LLVM's help printer passes it.
Shape shapeOf(llvm::cl::Option &option, size_t width);

// The width LLVM's help printer passes: the widest registered option's.
size_t helpWidth();

// The value of a plain cl::opt<bool>; nothing for an option of another type.
std::optional<bool> plainBoolValue(llvm::cl::Option &option);

// Text as JSON holds it (invalid UTF-8 replaced).
std::string utf8(llvm::StringRef s);

// An option's class, and how its parser reads a value (for range checks).
struct Classified {
  Verdict verdict;
  ValueReader reader;
};

// An option's name and class, for the tables the build computes
// (prebuilt.h).
struct ClassifiedOption {
  std::string name;
  Classified classified;
};

// One option's class from its shape and LLVM's metadata, without the
// prebuilt tables (OptionRegistry::classify() looks there first).
Classified computeClass(llvm::cl::Option &option);

// Every registered option, sorted by name, classified as computeClass()
// does. Slow (about 0.4 s).
std::vector<ClassifiedOption> classifyRegisteredOptions();

} // namespace llvmplug

#endif
