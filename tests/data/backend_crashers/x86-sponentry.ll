; backend: X86
; triple: x86_64-unknown-linux-gnu
; flags: -O2
; output: obj
; expect: guarded
; llvm 23.1.1: SIGSEGV in instruction selection (no lowering; the same on AVR, Lanai, MSP430, NVPTX, PowerPC, Sparc, SystemZ, WebAssembly, XCore; AArch64 and ARM lower it)
; found by: tests/campaign_backends.py --seed 1 (intrinsic)
declare ptr @llvm.sponentry.p0()

define ptr @f() {
  %p = call ptr @llvm.sponentry.p0()
  ret ptr %p
}
