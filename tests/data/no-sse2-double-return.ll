; x86-64 returns a double in an SSE register; with SSE2 turned off LLVM 23
; reports "SSE2 register return with SSE2 disabled" as an error diagnostic,
; keeps going, and crashes later in the X86 FP stackifier (Debian's LLVM 14
; llc stops there with "LLVM ERROR: Access past stack top!" and aborts).
define double @scale(double %x) {
  %y = fmul double %x, 2.0
  ret double %y
}
