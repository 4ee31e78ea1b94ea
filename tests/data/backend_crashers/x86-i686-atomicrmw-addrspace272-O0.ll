; backend: X86
; triple: i686-unknown-linux-gnu
; flags: -O0
; output: obj
; expect: timeout
; llvm 23.1.1: hangs at -O0 (an atomicrmw through a 64-bit "ptr64" address space on 32-bit x86)
; found by: tests/campaign_backends.py --seed 1 --case 5920 (addrspace)
define i32 @f(ptr addrspace(272) %p) {
  %v = atomicrmw add ptr addrspace(272) %p, i32 1 seq_cst, align 4
  ret i32 %v
}
