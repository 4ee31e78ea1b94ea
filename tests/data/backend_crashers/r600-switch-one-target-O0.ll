; backend: AMDGPU
; triple: r600-unknown-unknown
; flags: -O0 -mcpu=cypress
; output: asm
; expect: guarded
; llvm 23.1.1: SIGSEGV at -O0: a switch whose only live target branches on (to a join) instead of ending the function
; found by: tests/campaign_backends.py --seed 7 --case 5683 (switch), past the first version of the r600 guard
define i32 @f(i64 %x, i32 %y) {
entry:
  switch i64 %x, label %u [ i64 714448, label %b0 ]
b0:
  %v0 = add i32 %y, 1
  br label %join
u:
  unreachable
join:
  ret i32 %v0
}
