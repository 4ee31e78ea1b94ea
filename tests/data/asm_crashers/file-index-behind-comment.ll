; triple: x86_64-unknown-linux-gnu
; output: obj
; all: crash:SIGSEGV
; found by: issue 25 (llvmplug 2.1 missed the number behind the comment)
module asm ".file /**/ 4294967295 \22x.c\22"
define void @f() {
  ret void
}
