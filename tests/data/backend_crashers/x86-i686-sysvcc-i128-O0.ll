; backend: X86
; triple: i686-unknown-linux-gnu
; flags: -O0
; output: asm
; expect: crash:SIGSEGV
; llvm 23.1.1: segfaults on the x86-64 System V calling convention used on 32-bit x86 with an i128 result
; found by: tests/campaign_backends.py --seed 2026 --case 8220 (callconv)
define x86_64_sysvcc i128 @callee(<4 x i32> %a0, i8 %a1, [2 x i64] %a2) {
  ret i128 1
}

define x86_64_sysvcc i128 @caller(<4 x i32> %x0, i8 %x1, [2 x i64] %x2) {
  %r = call x86_64_sysvcc i128 @callee(<4 x i32> %x0, i8 %x1, [2 x i64] %x2)
  ret i128 %r
}
