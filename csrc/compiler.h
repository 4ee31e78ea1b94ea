// compiler.h: one module through parse -> verify -> optimise -> codegen.
#ifndef LLVMPLUG_COMPILER_H
#define LLVMPLUG_COMPILER_H

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace llvmplug {

struct Compiled {
  // The object, assembly, bitcode or IR text; one per part when split.
  std::vector<std::string> parts;
  std::string warnings; // warning diagnostics and remarks, if any
};

// See llvmplug_compile in llvmplug.h for the meaning of the arguments.
// Takes the runtime lock itself (shared without per-call options, else
// exclusive). Throws Failure. Per-call options are restored before it
// returns.
Compiled compileModule(llvm::StringRef module, llvm::StringRef target, llvm::StringRef flags,
                       unsigned parts);

} // namespace llvmplug

#endif
