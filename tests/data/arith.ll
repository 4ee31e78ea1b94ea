; A few functions with known results, used across the tests.
source_filename = "arith.ll"

define i32 @add(i32 %a, i32 %b) {
  %s = add i32 %a, %b
  ret i32 %s
}

; sum of 0..n-1, a loop the optimiser turns into a closed form.
define i64 @triangle(i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
  %acc = phi i64 [ 0, %entry ], [ %acc.next, %loop ]
  %acc.next = add i64 %acc, %i
  %next = add i64 %i, 1
  %done = icmp uge i64 %next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret i64 %acc.next
}

define double @scale(double %x) {
  %y = fmul double %x, 2.5
  ret double %y
}
