; backend: X86
; triple: i686-unknown-linux-gnu
; flags: -O2
; output: obj
; expect: guarded
; llvm 23.1.1: SIGSEGV in MCELFStreamer::changeSection from WinCFGuard::endModule: the cfguard module flag (Windows Control Flow Guard) on a target without COFF sections, once a function's address escapes (every non-COFF target, object and assembly; GOFF objects and a cfguard flag of 0 work)
; found by: tests/test_fresh_state.py (its FLAGS module at -passes=, where the constructor keeps @init's address)
define void @f() {
  ret void
}

@p = global ptr @f

!llvm.module.flags = !{!0}
!0 = !{i32 2, !"cfguard", i32 2}
