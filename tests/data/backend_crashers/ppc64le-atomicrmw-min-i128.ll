; backend: PowerPC
; triple: powerpc64le-unknown-linux-gnu
; flags: -O2
; output: asm
; expect: crash:SIGSEGV
; llvm 23.1.1: segfaults expanding a 128-bit atomicrmw min
; found by: tests/campaign_backends.py --seed 1 --case 25552 (atomic)
define i128 @f(ptr %p, i128 %v) {
  %r = atomicrmw min ptr %p, i128 %v acquire, align 16
  ret i128 %r
}
