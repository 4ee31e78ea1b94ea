; backend: MSP430
; triple: msp430-unknown-unknown
; flags: -O0
; output: asm
; expect: guarded
; llvm 23.1.1: SIGSEGV in instruction selection (no lowering), at -O0 and -O2
; found by: tests/campaign_backends.py --seed 1 (intrinsic)
declare i64 @llvm.readcyclecounter()

define i64 @f() {
  %c = call i64 @llvm.readcyclecounter()
  ret i64 %c
}
