// link.h: modules linked into the one being compiled, before optimisation.
//
// What NVIDIA's and AMD's toolchains do with libdevice and the ROCm device
// libraries: only what the module references is linked in (a library of
// hundreds of functions costs only the few a kernel calls), and what was
// linked in is internalised, so the optimiser may inline or drop it and the
// output exports nothing the caller did not define.
#ifndef LLVMPLUG_LINK_H
#define LLVMPLUG_LINK_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace llvmplug {

// Link each of `links` (IR text or bitcode) into `module`, whose triple and
// data layout are already final, in order. Throws Failure(LLVMPLUG_ERROR_LINK)
// naming the input for: one that does not parse; one whose triple is for
// another architecture, or whose data layout disagrees on byte order or
// pointer size; a strong definition of a name already defined (by the module
// or an earlier input); anything the linker itself refuses; and a linked
// module that fails the verifier.
// An input without a triple or data layout takes the module's; one for the
// same architecture but another vendor or OS (libdevice is
// nvptx64-nvidia-gpulibs) is retargeted to the module's, as NVIDIA's
// toolchains do.
void linkModules(llvm::Module &module, llvm::ArrayRef<llvm::StringRef> links,
                 llvm::LLVMContext &context);

} // namespace llvmplug

#endif
