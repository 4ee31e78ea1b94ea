; backend: AMDGPU
; triple: amdgcn-amd-amdhsa
; flags: -O2 -mcpu=gfx90a
; output: obj
; expect: guarded
; llvm 23.1.1: SIGSEGV in SelectionDAGBuilder::visitRet (any use of the result, p0 or p5; r600 is not affected)
; found by: issue 18
declare ptr addrspace(5) @llvm.frameaddress.p5(i32)

define ptr addrspace(5) @frame() {
  %p = call ptr addrspace(5) @llvm.frameaddress.p5(i32 0)
  ret ptr addrspace(5) %p
}
