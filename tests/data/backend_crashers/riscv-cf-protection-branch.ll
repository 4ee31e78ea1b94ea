; backend: RISCV
; triple: riscv64-unknown-linux-gnu
; flags: -O2
; output: obj
; expect: guarded
; llvm 23.1.1: SIGSEGV in RISCVAsmPrinter::emitEndOfAsmFile (MDString::getString of the missing cf-branch-label-scheme flag) when cf-protection-branch is set (riscv32 and riscv64, object and assembly); with the scheme "unlabeled" it compiles
; found by: tests/test_fresh_state.py (its FLAGS module)
!llvm.module.flags = !{!0}
!0 = !{i32 8, !"cf-protection-branch", i32 1}
