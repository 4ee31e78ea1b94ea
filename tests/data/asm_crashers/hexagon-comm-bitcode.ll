; triple: hexagon-unknown-linux-musl
; output: bc
; all: crash:SIGABRT
; found by: tests/campaign_asm.py --seed 3 --case 45597 (reduced; .lcomm alike: "realloc(): invalid pointer")
module asm ".comm tab, 64"
define void @f() {
  ret void
}
