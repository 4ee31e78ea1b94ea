; triple: powerpc64le-unknown-linux-gnu
; output: obj
; all: crash:SIGABRT
; found by: tests/campaign_asm.py --seed 1 --case 4196 (reduced)
define void @f() {
  call void asm sideeffect ".byte s0", ""()
  ret void
}
