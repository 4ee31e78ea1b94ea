; backend: AMDGPU
; triple: r600-unknown-unknown
; flags: -O0
; output: asm
; expect: guarded
; llvm 23.1.1: SIGSEGV at -O0 for any switch, and for a conditional branch to a block that does not end the function (if-then, loops); -O1 and above work
; found by: issue 18
define i32 @f(i32 %x) {
entry:
  switch i32 %x, label %d [ i32 0, label %a
                            i32 1, label %b ]
a:
  ret i32 10
b:
  ret i32 20
d:
  ret i32 0
}
