// compiler.h: one module through parse -> link -> verify -> optimise ->
// codegen (whole, or split into parts generated in parallel).
#ifndef LLVMPLUG_COMPILER_H
#define LLVMPLUG_COMPILER_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace llvmplug {

class OptionRegistry;
class Timings;

struct Compiled {
  // The object, assembly, bitcode or IR text; one per part when split.
  std::vector<std::string> parts;
  std::string warnings; // warning diagnostics and remarks, if any
};

// See llvmplug_compile in llvmplug.h for the meaning of the arguments;
// links are modules[1..] (see link.h). Takes the runtime lock itself: shared
// without per-call options, else exclusive (runtime.h). Throws Failure.
// Per-call options are restored before it returns. Its stages are recorded
// in `timings` (begun by the caller), which is listed as running meanwhile
// (timings.h); they stay recorded when it throws.
Compiled compileModule(llvm::StringRef module, llvm::StringRef target, llvm::StringRef flags,
                       llvm::ArrayRef<llvm::StringRef> links, unsigned parts, Timings &timings);

// Several modules (translation units) optimised and generated together,
// ThinLTO's way (thin.h): one output per module. `links` are linked into
// each. Takes the runtime lock exclusively. Throws Failure. Timed as
// compileModule, one part per module.
Compiled compileModules(llvm::ArrayRef<llvm::StringRef> modules, llvm::ArrayRef<llvm::StringRef> links,
                        llvm::StringRef target, llvm::StringRef flags, unsigned threads, Timings &timings);

// The same for one module with the runtime lock already held and `flags`
// setting no LLVM option (for the runtime's own warm-up compile).
Compiled compileWithLockHeld(const OptionRegistry &options, llvm::StringRef module, llvm::StringRef flags);

} // namespace llvmplug

#endif
