; backend: WebAssembly
; triple: wasm32-unknown-unknown
; flags: -O2 -mcpu=lime1
; output: asm
; expect: crash:SIGSEGV
; llvm 23.1.1: segfaults on a store through address space 20 (funcref tables)
; found by: tests/campaign_backends.py --seed 2026 --case 738 (addrspace)
define void @f(ptr addrspace(20) %p, float %v) {
  store volatile float %v, ptr addrspace(20) %p, align 4
  ret void
}
