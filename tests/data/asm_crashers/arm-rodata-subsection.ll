; triple: armv7-unknown-linux-gnueabihf
; output: obj
; all: crash:SIGSEGV
; found by: tests/campaign_asm.py --seed 3 --case 2248 and 13804 (reduced; '.data 1' alike)
module asm ".rodata 1"
define void @f() {
  ret void
}
