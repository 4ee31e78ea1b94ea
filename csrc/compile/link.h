// link.h: modules linked into the one being compiled, before optimisation.
//
// What NVIDIA's and AMD's toolchains do with libdevice and the ROCm device
// libraries: only what the module needs is linked in (a library of hundreds
// of functions costs only the few a kernel calls), and what was linked in is
// internalised, so the optimiser may inline or drop it and the output
// exports nothing the caller did not define.
//
// What a link module brings in, as a program linker pulls members out of a
// static archive:
//  - the definitions the module needs, directly or through definitions of
//    other link modules, to a fixed point, whatever the order of the link
//    modules (the ROCm device libraries call each other both ways); of a
//    name several define, the first, as the linker takes it;
//  - from a link module a definition is taken from (a pulled member): its
//    llvm.global_ctors and global_dtors (their functions run in the
//    program, as the member's static constructors would) and its llvm.used
//    and llvm.compiler.used entries (kept), with what they need in turn;
//    and its module flags and named metadata, merged as LLVM's linker merges
//    them (conflicting module flags are a LinkError);
//  - from a link module nothing is taken from: nothing at all.
// Refused: module-level asm (what it defines, and so whether the module
// needs it, is not known before it is assembled, and it would land in the
// output whatever is pulled) and any other non-empty appending list (not
// something a linker takes with a member; unknown, so refused). An
// available_externally body in a link module is never linked (an object
// file has none: it stands for a definition elsewhere), and the module's
// own gives way to a definition a link module has.
#ifndef LLVMPLUG_LINK_H
#define LLVMPLUG_LINK_H

#include "asm_policy.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace llvmplug {

// Link `links` (IR text or bitcode) into `module`, whose triple and data
// layout are final. Each is parsed by parse.h with the module's data layout
// and the same limits, and the asm `rules` of its target. Throws Failure
// naming the input: LLVMPLUG_ERROR_LINK for one that does not parse; one
// whose triple is for another architecture, or whose data layout disagrees
// on byte order or pointer size; a strong definition of a name already
// defined (by the module or another input); what the header above refuses;
// anything the linker itself refuses; and a linked module that fails the
// verifier. Limits and asm refusals keep their own status (LIMIT, OPTION).
// An input without a triple or data layout takes the module's; one for the
// same architecture but another vendor or OS (libdevice is
// nvptx64-nvidia-gpulibs) is retargeted to the module's, as NVIDIA's
// toolchains do.
void linkModules(llvm::Module &module, llvm::ArrayRef<llvm::StringRef> links, llvm::LLVMContext &context,
                 const AsmRules &rules);

} // namespace llvmplug

#endif
