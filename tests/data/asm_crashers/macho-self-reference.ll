; triple: x86_64-apple-macosx
; output: obj
; all: timeout
; found by: issue 25: MC spins for ever on a Mach-O symbol defined as itself (with a use, it reports the cycle)
module asm "x = x"
define void @f() {
  ret void
}
