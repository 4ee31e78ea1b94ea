; backend: X86
; triple: i686-unknown-linux-gnu
; flags: -O0
; output: asm
; expect: crash:SIGSEGV
; llvm 23.1.1: segfaults on a tail call to a preserve_mostcc function returning a vector on 32-bit x86
; found by: tests/campaign_backends.py --seed 1 --case 2020 (callconv)
define preserve_mostcc <4 x i32> @callee(ptr %a0, i16 zeroext %a1, i16 signext %a2, float %a3) {
  ret <4 x i32> zeroinitializer
}

define <4 x i32> @caller(ptr %x0, i16 zeroext %x1, i16 signext %x2, float %x3) {
  %r = tail call preserve_mostcc <4 x i32> @callee(ptr %x0, i16 zeroext %x1, i16 signext %x2, float %x3)
  ret <4 x i32> %r
}
