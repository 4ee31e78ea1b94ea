; triple: powerpc64-ibm-aix
; output: obj
; all: crash:SIGSEGV
; found by: issue 25 (one of 70 directive/argument pairs on AIX)
module asm ".globl x"
define void @f() {
  ret void
}
