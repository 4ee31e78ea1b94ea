; triple: lanai-unknown-unknown
; output: obj
; all: crash:SIGSEGV
; found by: tests/campaign_asm.py --seed 1 --case 5557 (reduced)
define void @f() {
  call void asm sideeffect ".short .", ""()
  ret void
}
