// link.h: modules linked into the one being compiled, before optimisation.
//
// What NVIDIA's and AMD's toolchains do with libdevice and the ROCm device
// libraries: only what the module needs is linked in (a library of hundreds
// of functions costs only the few a kernel calls), and what was linked in is
// internalised, so the optimiser may inline or drop it and the output
// exports nothing the caller did not define.
//
// What a link module brings in, and nothing else:
//  - the definitions the module needs, directly or through definitions of
//    other link modules, to a fixed point, whatever the order of the link
//    modules (the ROCm device libraries call each other both ways);
//  - the module flags and named metadata LLVM's linker merges (conflicting
//    module flags are a LinkError).
// A link module that carries something that would land in the output
// whether or not anything references it is refused: module-level asm, and
// any non-empty appending list (llvm.global_ctors and llvm.global_dtors,
// whose functions would run; llvm.used and llvm.compiler.used, whose
// symbols would be kept; llvm.global.annotations...).
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
void linkModules(llvm::Module &module, llvm::ArrayRef<llvm::StringRef> links,
                 llvm::LLVMContext &context, const AsmRules &rules);

} // namespace llvmplug

#endif
