// compiler.h: one module through parse -> verify -> optimise -> codegen.
#ifndef LLVMPLUG_COMPILER_H
#define LLVMPLUG_COMPILER_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace llvmplug {

class OptionRegistry;

struct Compiled {
  std::string data;     // object, assembly, bitcode or IR text
  std::string warnings; // warning diagnostics and remarks, if any
};

// See llvmplug_compile in llvmplug.h for the meaning of the arguments;
// links are modules[1..] (see link.h). Throws Failure. Per-call options are
// restored before it returns.
Compiled compileModule(const OptionRegistry &options, llvm::StringRef module,
                       llvm::StringRef target, llvm::StringRef flags,
                       llvm::ArrayRef<llvm::StringRef> links = {});

} // namespace llvmplug

#endif
