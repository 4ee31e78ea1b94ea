; -pre-RA-sched=vliw-td selects a scheduler for VLIW targets; on x86 it
; dereferences a hazard recognizer x86 does not have (Debian's LLVM 14 llc
; crashes the same way).
define i32 @add(i32 %a, i32 %b) {
  %s = add i32 %a, %b
  ret i32 %s
}
