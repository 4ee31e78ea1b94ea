// gpu_checks.h: what a GPU compile leaves for nobody to define.
//
// A host object's undefined functions are the linker's business. GPU code is
// different: ptxas takes one PTX module and an AMDGPU code object is linked on
// its own, so a function the kernel calls but nothing defines (libdevice's
// __nv_expf when libdevice was not linked in) only fails later, in another
// tool, with a message that does not say why. The compile says so instead.
#ifndef LLVMPLUG_GPU_CHECKS_H
#define LLVMPLUG_GPU_CHECKS_H

#include <string>

namespace llvm {
class Module;
class Triple;
} // namespace llvm

namespace llvmplug {

// For NVPTX and AMDGPU: a warning line naming the functions `module` calls or
// takes the address of but does not define (intrinsics aside); "" otherwise.
std::string undefinedGpuFunctions(const llvm::Module &module, const llvm::Triple &triple);

} // namespace llvmplug

#endif
