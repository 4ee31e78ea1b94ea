; backend: AVR
; triple: avr-unknown-unknown
; flags: -O2 -mcpu=atmega328p
; output: obj
; expect: guarded
; llvm 23.1.1: SIGSEGV in AVRMCInstLower::lowerInstruction (AsmPrinter::GetBlockAddressSymbol); llvm.returnaddress too; an unused call compiles
; found by: issue 18, confirmed by tests/campaign_backends.py --seed 1 (intrinsic)
declare ptr @llvm.frameaddress.p0(i32)

define ptr @frame() {
  %p = call ptr @llvm.frameaddress.p0(i32 0)
  ret ptr %p
}
