; triple: amdgcn-amd-amdhsa
; output: obj
; all: timeout
; found by: tests/campaign_asm.py --seed 2 --case 13708 (code that is not whole 4-byte words: '.byte 1', '.ascii "abc"' alike)
module asm ".zero 7"
define void @f() {
  ret void
}
