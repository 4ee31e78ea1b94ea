; triple: lanai-unknown-unknown
; output: obj
; all: crash:SIGSEGV
; found by: tests/campaign_asm.py --seed 5 --case 5962 (reduced: .dc is .dc.w, 2 bytes)
define void @f() {
  call void asm sideeffect ".dc 1f\0A1:", ""()
  ret void
}
