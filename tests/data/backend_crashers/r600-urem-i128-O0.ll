; backend: AMDGPU
; triple: r600-unknown-unknown
; flags: -O0 -mcpu=cypress
; output: asm
; expect: crash:SIGSEGV
; llvm 23.1.1: segfaults on a 128-bit remainder at -O0 (the expansion branches, which R600 at -O0 cannot structurize)
; found by: tests/campaign_backends.py --seed 2026 --case 3363 (wideint)
define i128 @f(i128 %a, i128 %b) {
  %r = urem i128 %a, %b
  ret i128 %r
}
