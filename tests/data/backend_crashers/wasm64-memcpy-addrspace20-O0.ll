; backend: WebAssembly
; triple: wasm64-unknown-unknown
; flags: -O0 -mattr=+simd128
; output: obj
; expect: crash:SIGSEGV
; llvm 23.1.1: segfaults on a memcpy into address space 20 (funcref tables)
; found by: tests/campaign_backends.py --seed 1 --case 738 (addrspace)
declare void @llvm.memcpy.p20.p0.i64(ptr addrspace(20), ptr, i64, i1)

define void @f(ptr addrspace(20) %d, ptr %s) {
  call void @llvm.memcpy.p20.p0.i64(ptr addrspace(20) %d, ptr %s, i64 64, i1 false)
  ret void
}
