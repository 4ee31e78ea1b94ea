; triple: wasm32-unknown-unknown
; output: obj
; all: crash:SIGSEGV
; found by: issue 25 (one of 118 directive/argument pairs on wasm32)
define void @f() {
  call void asm sideeffect ".byte x", ""()
  ret void
}
