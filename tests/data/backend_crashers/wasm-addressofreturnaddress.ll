; backend: WebAssembly
; triple: wasm32-unknown-unknown
; flags: -O2
; output: obj
; expect: guarded
; llvm 23.1.1: SIGSEGV in instruction selection (no lowering; the same on AMDGPU, AVR, Lanai, MSP430, NVPTX, PowerPC, Sparc, SystemZ, XCore; X86 and AArch64 lower it)
; found by: tests/campaign_backends.py --seed 1 (intrinsic)
declare ptr @llvm.addressofreturnaddress.p0()

define ptr @f() {
  %p = call ptr @llvm.addressofreturnaddress.p0()
  ret ptr %p
}
