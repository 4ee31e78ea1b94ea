; triple: x86_64-apple-macosx
; output: obj
; all: crash:SIGSEGV
; found by: tests/campaign_asm.py --seed 1 --case 6512 (reduced; also arm64-apple-macosx)
module asm "x = 1f"
define void @f() {
  ret void
}
