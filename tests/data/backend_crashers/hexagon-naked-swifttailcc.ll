; backend: Hexagon
; triple: hexagon-unknown-linux-musl
; flags: -O2
; output: asm
; expect: crash:SIGSEGV
; llvm 23.1.1: segfaults on a naked function whose body needs a frame (its allocas, va_arg); without naked it compiles. Frontends emit only inline asm in naked functions
; found by: tests/campaign_backends.py --seed 1 --case 17426 (callconv, mutation: attrs naked)
define swifttailcc i128 @callee(float %a0, i16 %a1, ptr %a2, <4 x i32> %a3, <2 x double> %a4, i128 %a5, double %a6, [2 x i64] %a7, [2 x i64] %a8, { i32, i64 } %a9) naked {
  ret i128 1
}
define swifttailcc i128 @caller(float %x0, i16 %x1, ptr %x2, <4 x i32> %x3, <2 x double> %x4, i128 %x5, double %x6, [2 x i64] %x7, [2 x i64] %x8, { i32, i64 } %x9) {
  %r = call swifttailcc i128 @callee(float %x0, i16 %x1, ptr %x2, <4 x i32> %x3, <2 x double> %x4, i128 %x5, double %x6, [2 x i64] %x7, [2 x i64] %x8, { i32, i64 } %x9)
  ret i128 %r
}
