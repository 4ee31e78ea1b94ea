; triple: hexagon-unknown-linux-musl
; output: obj
; all: timeout
; found by: tests/campaign_asm.py --seed 3 --case 28155 and 30855 (reduced: a bad instruction in a packet left open)
module asm "{ foo"
define void @f() {
  ret void
}
