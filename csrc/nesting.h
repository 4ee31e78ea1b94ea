// nesting.h (not limits.h, which would shadow the C header): the nesting depth llvmplug accepts, checked before LLVM recurses.
//
// Why: LLVM's parser, verifier and code generator recurse on nested input
// (constant expressions, aggregate types and constants, metadata nodes).
// Input nested deeper than the stack allows kills the process with SIGSEGV,
// which no exception can report. stack.h gives LLVM a large stack; this file
// refuses input nested deeper than that stack was measured to hold (with a
// wide margin) with LLVMPLUG_ERROR_LIMIT, before LLVM works on it.
#ifndef LLVMPLUG_NESTING_H
#define LLVMPLUG_NESTING_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <memory>

namespace llvm {
class Module;
}

namespace llvmplug {

// Deepest accepted nesting: brackets in IR text, and types, constants and
// metadata nodes in a parsed module. Measured (tests/test_deep_input.py):
// 10,000 nested constant GEPs compile at -O0 and -O2 within stack.h's stack.
constexpr unsigned MaxNestingDepth = 10000;

// Parse with `parse`, refusing input nested deeper than MaxNestingDepth:
// IR text is checked before parsing (the parser recurses), every module
// (text or bitcode) after parsing, before the verifier and codegen run.
// Throws Failure(LLVMPLUG_ERROR_LIMIT).
std::unique_ptr<llvm::Module>
parseWithinLimits(llvm::StringRef bytes,
                  llvm::function_ref<std::unique_ptr<llvm::Module>()> parse);

} // namespace llvmplug

#endif
