// pass_policy.h: which passes a -passes pipeline may name under the safe
// policy.
//
// Why: a pass is code LLVM runs on the caller's module, and some passes do
// more than transform it. trigger-crash-module crashes the process on
// purpose, insert-gcov-profiling writes .gcno files wherever the module's
// !llvm.gcov metadata says, memprof-use<profile-filename=...> opens any path
// (/dev/stdin blocks the host), aa-eval and helloworld print to the host's
// stderr. A pattern over names cannot tell these from the passes of an -O2
// pipeline, so the safe policy is an allow-list: a pipeline may only name
// passes, and pass parameters, classed "value"; everything else, including
// every name nobody has classified, is refused with the pass's class and why.
//
// How: the catalogue is LLVM's own registry, read from
// PassBuilder::printPassNames (every module, CGSCC, function, loop and
// machine pass and analysis PassRegistry.def compiles into PassBuilder, with
// its parameter syntax). Rules over that registry classify most entries: a
// pass that LLVM's own default pipelines (O1-O3, (Thin)LTO) run is a
// value of the compile; names that say print, dot, view or verify are what
// they say. The rest are in one reviewed table in pass_policy.cpp with a
// reason each. An entry no rule covers has no class: refused, and reported
// so that tests/test_pass_policy.py fails until someone reviews it. Passes a
// target machine registers itself (AMDGPU's, NVPTX's) are not in LLVM's
// registry and so are refused under the safe policy.
#ifndef LLVMPLUG_PASS_POLICY_H
#define LLVMPLUG_PASS_POLICY_H

#include "option_policy.h"

#include "llvm/ADT/StringRef.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace llvmplug {

// One parameter a pass takes inside <...>, as printPassNames spells it:
// "no-partial" (a switch), "full-unroll-max=N", "profile-filename=S"; a
// count with no name ("repeat<N>") has an empty name.
struct PassParameter {
  std::string name;
  std::string value; // the placeholder after '=' ("N", "S"); empty for a switch
  std::optional<Verdict> verdict;
};

// PassParameter and PassEntry are written into the shim by the build
// (prebuilt.h): a field added to either must be written there too
// (prebuilt.cpp and the generator fail to compile until it is).
struct PassEntry {
  std::string name; // as a pipeline names it: "loop-unroll", "print<domtree>"
  // What LLVM registers it as: "module pass", "function analysis", ...; a
  // name may be registered at several levels.
  std::vector<std::string> kinds;
  std::string syntax; // its parameters as printPassNames shows them, or ""
  std::vector<PassParameter> parameters;
  bool analysis = false; // named in pipelines as require<name>/invalidate<name>
  std::optional<Verdict> verdict;
};

// The deepest nesting of inner pipelines accepted, under every policy. LLVM
// parses and runs nested pass managers recursively: on threads.h's stack,
// module(, function( or cgscc( nested 6,000 deep crash the process (SIGSEGV),
// 4,000 compile (measured; tests/test_pass_policy.py keeps both sides).
constexpr unsigned MaxPipelineDepth = 1000;

// Throws Failure (LLVMPLUG_ERROR_LIMIT) if `pipeline` nests inner pipelines
// deeper than MaxPipelineDepth.
void checkPipelineNesting(llvm::StringRef pipeline);

class PassCatalogue {
public:
  // The catalogue of this copy of LLVM, made on first use from the entries
  // the build computed (prebuilt.h), or from compute() where the build did
  // not (then at load, in runtime.cpp, before any caller's option can change
  // which passes LLVM's default pipelines hold). Defined in prebuilt.cpp, the
  // layer above that holds those entries: the policy includes nothing of it.
  static const PassCatalogue &get();

  // Every entry, computed from this copy's PassBuilder and classified: what
  // the build runs (csrc/generator/) to make the prebuilt entries. Run it
  // only with every option at its default.
  static std::vector<PassEntry> compute();

  // Throws Failure (LLVMPLUG_ERROR_OPTION) naming the first pass or pass
  // parameter of `pipeline` that is not classed "value", with its class and
  // reason. Text LLVM cannot parse is left to LLVM's own parser.
  void checkSafe(llvm::StringRef pipeline) const;

  // JSON array describing the entries whose names match a glob pattern:
  // name, kinds, parameters (name, value, class, reason), class, reason.
  std::string describe(llvm::StringRef pattern) const;

private:
  explicit PassCatalogue(std::vector<PassEntry> entries);
  // The message for a pipeline element no entry matches, with the closest names.
  std::string unknownPass(llvm::StringRef text) const;
  std::vector<PassEntry> entries_;
  // Entries by the part of their name before any '<' ("print" for
  // print<domtree>): the candidates for one pipeline element.
  std::map<std::string, std::vector<size_t>> byBase_;
};

} // namespace llvmplug

#endif
