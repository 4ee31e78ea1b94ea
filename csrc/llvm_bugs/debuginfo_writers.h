// debuginfo_writers.h: what LLVM 23.1.1's debug info writers (DWARF,
// CodeView, BPF's BTF) assume of debug info and its verifier does not check.
//
// Why: the verifier passes debug info that AsmPrinter's writers then read
// with unchecked casts: an annotation !{!{!1}} read as !{!"name", !"value"}
// (DwarfUnit::addAnnotation), a local variable without a type dereferenced,
// an imported entity of a kind whose DIE is never made. Each is a SIGSEGV at
// every -O level, in any process that emits the module, for what is only
// malformed debug info. LLVM's own rule for debug info its verifier rejects
// is to strip it with a warning (UpgradeDebugInfo, debuginfo.h); these checks
// extend the verifier with the writers' assumptions, so that such a module is
// treated alike: stripped with "ignoring invalid debug info" as it is read, or
// a VerifyError (LinkError) where the verifier runs without the upgrade
// (-disable-auto-upgrade-debug-info, a lazily loaded link module once linked).
//
// Each rule names its reader and is as narrow as the reader's cast, so that
// what clang emits (btf_decl_tag, btf_type_tag, templates, imported
// declarations, Fortran strings and arrays) is untouched;
// tests/data/backend_crashers/ keeps a module for each rule. One rule is a
// pass's assumption, not a writer's: mem2reg's of assignment tracking.
#ifndef LLVMPLUG_DEBUGINFO_WRITERS_H
#define LLVMPLUG_DEBUGINFO_WRITERS_H

namespace llvm {
class Module;
class raw_ostream;
} // namespace llvm

namespace llvmplug {

// Writes the first problem found to `os` as the verifier writes its own (a
// sentence, then the node) and returns true; false if there is none. Walks
// every metadata node the module refers to (named metadata, attachments,
// debug records).
bool brokenForDebugInfoWriters(llvm::Module &module, llvm::raw_ostream &os);

// llvm::verifyModule plus brokenForDebugInfoWriters, which counts as broken
// debug info: with `brokenDebugInfo` it is set and the result stays false
// (as verifyModule does for the verifier's own debug info checks); without,
// the module is broken.
bool verifyModuleAndDebugInfo(llvm::Module &module, llvm::raw_ostream &os, bool *brokenDebugInfo = nullptr);

} // namespace llvmplug

#endif
