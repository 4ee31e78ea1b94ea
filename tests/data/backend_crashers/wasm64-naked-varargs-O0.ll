; backend: WebAssembly
; triple: wasm64-unknown-unknown
; flags: -O0 -mattr=+simd128
; output: asm
; expect: crash:SIGSEGV
; llvm 23.1.1: segfaults on a naked function whose body needs a frame (its allocas, va_arg); without naked it compiles. Frontends emit only inline asm in naked functions
; found by: tests/campaign_backends.py --seed 7 --case 11318 (varargs, mutation: attrs naked)
declare void @llvm.va_start.p0(ptr)

define double @v(i32 %n, ...) naked {
  %ap = alloca [32 x i8], align 16
  call void @llvm.va_start.p0(ptr %ap)
  %x = va_arg ptr %ap, double
  ret double %x
}

define double @caller() {
  %r = call double (i32, ...) @v(i32 1, double 0.0, <4 x float> zeroinitializer, i32 1, i64 1, ptr null, i32 1)
  ret double %r
}
