; triple: loongarch64-unknown-linux-gnu
; output: bc
; all: crash:SIGSEGV
; found by: tests/campaign_asm.py --seed 5 --case 7313 (.option relax, push, pop alike; loongarch32 too)
module asm ".option norelax"
define void @f() {
  ret void
}
