; triple: wasm32-unknown-unknown
; output: obj
; all: crash:SIGSEGV
; found by: issue 25
define void @f() {
  call void asm sideeffect ".cfi_restore f", ""()
  ret void
}
