; backend: AVR
; triple: avr-unknown-unknown
; flags: -O2 -mcpu=atmega328p
; output: obj
; expect: guarded
; llvm 23.1.1: SIGSEGV in instruction selection (no lowering; MSP430 too)
; found by: tests/campaign_backends.py --seed 2026 --case 19004 (intrinsic)
declare i64 @llvm.readcyclecounter()

define i64 @f() {
  %c = call i64 @llvm.readcyclecounter()
  ret i64 %c
}
