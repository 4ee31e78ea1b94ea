; triple: riscv64-unknown-linux-gnu
; output: obj
; all: crash:SIGSEGV
; found by: issue 25 (also x86-64 ELF and COFF, AArch64, wasm, PowerPC, SystemZ)
module asm ".pseudoprobe 1 2 0 0 f"
define void @f() {
  ret void
}
