// debuginfo.h: what LLVM's UpgradeDebugInfo (lib/IR/AutoUpgrade.cpp) does to
// a module as it is read, with the verifier's report kept for a Failure.
//
// LLVM's IR parser and bitcode reader (materializeModule) run UpgradeDebugInfo
// on every module they finish. For debug info of the current version it
// verifies the module with its report sent to the host's stderr, and calls
// report_fatal_error on a broken module: a FatalError here, with the copy
// suspect, for what is only bad input. parse.cpp reads every module without
// it and runs upgradeDebugInfo instead, which does the same, but reports a
// broken module as a Failure carrying the verifier's report. As LLVM: debug
// info alone broken is diagnosed (DiagnosticInfoIgnoringInvalidDebugMetadata,
// a warning) and stripped; debug info of another version is stripped and
// diagnosed (DiagnosticInfoDebugMetadataVersion); a module without debug info
// is left as it is.
#ifndef LLVMPLUG_DEBUGINFO_H
#define LLVMPLUG_DEBUGINFO_H

#include "llvmplug.h"

namespace llvm {
class Module;
}

namespace llvmplug {

// Throws Failure(`status`, the verifier's report) for a module with debug
// info of the current version that fails the verifier. A lazily loaded
// module with every function materialised is checked as the verifier checks
// it once the reader has finished it (the verifier skips its check of
// intrinsics' uses while a module is still being read). One with functions
// still to load (a link module) is not verified, only stripped of debug info
// of another version (the reader strips what it loads later too): what it
// loads is verified once linked (link.h).
void upgradeDebugInfo(llvm::Module &module, llvmplug_status status);

} // namespace llvmplug

#endif
