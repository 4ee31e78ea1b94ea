; triple: aarch64-unknown-linux-gnu
; output: obj
; all: crash:SIGSEGV
; found by: issue 25 (also x86-64 ELF and COFF, RISC-V, wasm, PowerPC, SystemZ)
module asm ".cv_filechecksumoffset 1"
define void @f() {
  ret void
}
