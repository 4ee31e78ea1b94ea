; backend: LoongArch
; triple: loongarch32-unknown-elf
; flags: -O0
; output: asm
; expect: crash:SIGSEGV
; llvm 23.1.1: segfaults on a naked function whose body needs a frame (its allocas, va_arg); without naked it compiles. Frontends emit only inline asm in naked functions
; found by: tests/campaign_backends.py --seed 1 --case 6708 (varargs, mutation: attrs naked)
define i128 @v(i32 %n, ...) naked {
  %ap2 = alloca [32 x i8], align 16
  %x = va_arg ptr %ap2, i128
  ret i128 %x
}
define i128 @caller() {
  %r = call i128 (i32, ...) @v(i32 1, fp128 0.0, ptr null, fp128 0.0, <4 x float> zeroinitializer, double 0.0, fp128 0.0)
  ret i128 %r
}
