; backend: ARM
; triple: armv7-unknown-linux-gnueabihf
; flags: -O2
; output: obj
; expect: guarded
; llvm 23.1.1: SIGSEGV in ScoreboardHazardRecognizer::EmitInstruction (ScheduleDAGRRList) on a pseudo-probe, when the function is scheduled with latency by a CPU with itineraries (generic armv7 with VFP, cortex-a5 to a17, cortex-r4f to r8, krait, ARMv6 with VFP); -O0, minsize, soft-float, Thumb1 and MachineScheduler CPUs (cortex-a57...) work
; found by: tests/test_fresh_state.py (its PSEUDO_PROBE module)
define void @f() {
  call void @llvm.pseudoprobe(i64 1, i64 1, i32 0, i64 -1)
  ret void
}

declare void @llvm.pseudoprobe(i64, i64, i32, i64)
