// parse.h: the one way in for every module llvmplug is given, the module to
// compile and each link module alike, IR text or bitcode, with the same
// limits (nesting.h, asm_policy.h) applied to each, and debug info upgraded
// as LLVM's readers do, without their printing and fatal verifier
// (debuginfo.h).
//
// Parsed as llc parses: once the parser has read the module's triple (and
// before anything that depends on the data layout), `target` chooses the
// target and returns its data layout, which the module is parsed with. The
// IR parser fills in what the layout decides (the alignment of a load or
// store written without one), so a module without a `target datalayout`
// parsed with LLVM's default and given the target's afterwards would differ
// from llc's output.
#ifndef LLVMPLUG_PARSE_H
#define LLVMPLUG_PARSE_H

#include "asm_policy.h"
#include "llvmplug.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <memory>
#include <string>

namespace llvm {
class Function;
class LLVMContext;
class Module;
} // namespace llvm

namespace llvmplug {

// What parsing needs to know of the target the module is compiled for.
struct TargetFacts {
  std::string dataLayout;
  AsmRules asmRules;
};

struct ParseOptions {
  // Names the input in messages ("link module 2: ..."); "" for the module.
  std::string name;
  // The status of a failure to parse (PARSE for the module, LINK for a link
  // module); limits fail with LIMIT and policy refusals with OPTION.
  llvmplug_status parseStatus = LLVMPLUG_ERROR_PARSE;
  // The status of a module that parses but fails the verifier where LLVM's
  // reader would verify it (debuginfo.h): VERIFY for the module, LINK for a
  // link module.
  llvmplug_status verifyStatus = LLVMPLUG_ERROR_VERIFY;
  // Called with the module's own triple and data layout strings once they
  // are read. It may throw: the exception is held while LLVM's parser
  // unwinds normally, and rethrown once it has returned. Without it the
  // module keeps its own data layout and its asm text is not checked (for
  // llvmplug's own bitcode, already checked).
  llvm::function_ref<TargetFacts(llvm::StringRef triple, llvm::StringRef layout)> target;
  // Bitcode only: load function bodies when they are needed (materialize).
  bool lazy = false;
};

// Parse `bytes` (IR text, or bitcode raw or wrapped, told apart by magic)
// into `context`, refusing input nested deeper than MaxNestingDepth or with
// asm text the target's rules refuse. The caller's bytes must outlive a
// lazily loaded module. Throws Failure.
std::unique_ptr<llvm::Module> parseModule(llvm::StringRef bytes, llvm::LLVMContext &context,
                                          const ParseOptions &options);

// Load the body of a lazily loaded function, with the same checks. Does
// nothing for a function already loaded. Throws Failure.
void materialize(llvm::Function &function, const AsmRules &rules, const ParseOptions &options);

} // namespace llvmplug

#endif
