; backend: AMDGPU
; triple: amdgcn-amd-amdhsa
; flags: -O2 -mcpu=gfx90a
; output: asm
; expect: crash:SIGSEGV
; llvm 23.1.1: segfaults on a memcpy into address space 8 (buffer resources, which are not memory pointers)
; found by: tests/campaign_backends.py --seed 2026 --case 2323 (addrspace)
declare void @llvm.memcpy.p8.p1.i64(ptr addrspace(8), ptr addrspace(1), i64, i1)

define void @f(ptr addrspace(8) %d, ptr addrspace(1) %s) {
  call void @llvm.memcpy.p8.p1.i64(ptr addrspace(8) %d, ptr addrspace(1) %s, i64 64, i1 false)
  ret void
}
