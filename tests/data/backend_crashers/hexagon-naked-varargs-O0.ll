; backend: Hexagon
; triple: hexagon-unknown-linux-musl
; flags: -O0 -mcpu=hexagonv73
; output: obj
; expect: flaky crash:SIGSEGV
; llvm 23.1.1: segfaults (in 3 of 8 runs, 0 of 6 in another: it reads memory it does not own) on a naked function whose body needs a frame (its allocas, va_arg); without naked it compiles. Frontends emit only inline asm in naked functions
; found by: tests/campaign_backends.py --seed 1 --case 23906 (varargs, mutation: attrs naked)
declare void @llvm.va_start.p0(ptr)
declare void @llvm.va_end.p0(ptr)
declare void @llvm.va_copy.p0(ptr, ptr)
define ptr @v(i32 %n, ...) naked {
  %ap = alloca [32 x i8], align 16
  %ap2 = alloca [32 x i8], align 16
  call void @llvm.va_start.p0(ptr %ap)
  call void @llvm.va_copy.p0(ptr %ap2, ptr %ap)
  %x = va_arg ptr %ap2, ptr
  call void @llvm.va_end.p0(ptr %ap)
  ret ptr %x
}
declare i32 @printf(ptr, ...)
define ptr @caller() {
  %r = call ptr (i32, ...) @v(i32 1, i32 1, i128 1, i128 1, float 0.0, float 0.0, i32 1, ptr null, float 0.0)
  %p = call i32 (ptr, ...) @printf(ptr null, i32 1, i128 1, i128 1, float 0.0, float 0.0, i32 1, ptr null, float 0.0)
  ret ptr %r
}
