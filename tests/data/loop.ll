define void @scale(ptr %p, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %idx = zext i32 %i to i64
  %slot = getelementptr float, ptr %p, i64 %idx
  %v = load float, ptr %slot
  %w = fmul float %v, 3.0
  store float %w, ptr %slot
  %next = add i32 %i, 1
  %done = icmp eq i32 %next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}
