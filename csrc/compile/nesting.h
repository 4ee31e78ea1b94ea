// nesting.h (not limits.h, which would shadow the C header): the nesting depth llvmplug accepts, checked
// before LLVM recurses.
//
// Why: LLVM's parser, verifier and code generator recurse on nested input
// (constant expressions, aggregate types and constants, metadata nodes).
// Input nested deeper than the stack allows kills the process with SIGSEGV,
// which no exception can report. threads.h gives LLVM a large stack; this file
// refuses input nested deeper than that stack was measured to hold (with a
// wide margin) with LLVMPLUG_ERROR_LIMIT, before LLVM works on it.
#ifndef LLVMPLUG_NESTING_H
#define LLVMPLUG_NESTING_H

#include "llvm/ADT/StringRef.h"

namespace llvm {
class Function;
class Module;
} // namespace llvm

namespace llvmplug {

// Deepest accepted nesting: brackets in IR text, and types, constants and
// metadata nodes in a parsed module. Measured (tests/test_deep_input.py):
// 10,000 nested constant GEPs compile at -O0 and -O2 within threads.h's stack.
constexpr unsigned MaxNestingDepth = 10000;

// The checks parse.h runs on every module it parses. Each throws
// Failure(LLVMPLUG_ERROR_LIMIT) naming what is nested too deeply.
// IR text, before it is parsed (the parser recurses on brackets).
void checkTextNesting(llvm::StringRef text);
// A parsed module: its types, global initialisers, named metadata and the
// bodies of its materialised functions (a lazily loaded function is checked
// by checkFunctionDepth when it is materialised).
void checkModuleDepth(llvm::Module &module);
// One function's body, types, constants and metadata.
void checkFunctionDepth(llvm::Function &function);

} // namespace llvmplug

#endif
