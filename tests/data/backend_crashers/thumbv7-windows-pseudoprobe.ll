; backend: ARM
; triple: thumbv7-pc-windows-msvc
; flags: -O2
; output: asm
; expect: guarded
; llvm 23.1.1: SIGSEGV in ScoreboardHazardRecognizer::EmitInstruction on a pseudo-probe (as arm-pseudoprobe.ll, in Thumb2 mode, assembly output)
; found by: tests/test_fresh_state.py (its PSEUDO_PROBE module)
define void @f() {
  call void @llvm.pseudoprobe(i64 1, i64 1, i32 0, i64 -1)
  ret void
}

declare void @llvm.pseudoprobe(i64, i64, i32, i64)
