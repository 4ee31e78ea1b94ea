; A small module that reaches many passes (loops to vectorise and unroll,
; calls to inline, a switch, floating point, memory); used by the option
; scoping sweep (tests/test_scoping_sweep.py).
source_filename = "sweep.ll"

@table = internal constant [4 x i32] [i32 3, i32 1, i32 4, i32 1]

define internal i32 @helper(i32 %x) {
  %y = mul i32 %x, 7
  %z = xor i32 %y, 5
  ret i32 %z
}

define void @saxpy(ptr noalias %y, ptr noalias %x, float %a, i64 %n) {
entry:
  %empty = icmp eq i64 %n, 0
  br i1 %empty, label %exit, label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
  %px = getelementptr inbounds float, ptr %x, i64 %i
  %py = getelementptr inbounds float, ptr %y, i64 %i
  %vx = load float, ptr %px, align 4
  %vy = load float, ptr %py, align 4
  %m = fmul float %a, %vx
  %s = fadd float %m, %vy
  store float %s, ptr %py, align 4
  %next = add nuw i64 %i, 1
  %done = icmp eq i64 %next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

define i32 @dispatch(i32 %k, i32 %v) {
entry:
  switch i32 %k, label %other [
    i32 0, label %a
    i32 1, label %b
    i32 2, label %c
    i32 7, label %d
  ]
a:
  %ra = call i32 @helper(i32 %v)
  br label %join
b:
  %idx = and i32 %v, 3
  %p = getelementptr inbounds [4 x i32], ptr @table, i32 0, i32 %idx
  %rb = load i32, ptr %p, align 4
  br label %join
c:
  %rc = sdiv i32 %v, 3
  br label %join
d:
  %rd = shl i32 %v, 2
  br label %join
other:
  br label %join
join:
  %r = phi i32 [ %ra, %a ], [ %rb, %b ], [ %rc, %c ], [ %rd, %d ], [ -1, %other ]
  ret i32 %r
}

define i64 @sum(ptr %p, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %next, %body ]
  %acc = phi i64 [ 0, %entry ], [ %acc.next, %body ]
  %more = icmp slt i64 %i, %n
  br i1 %more, label %body, label %exit
body:
  %q = getelementptr inbounds i64, ptr %p, i64 %i
  %v = load i64, ptr %q, align 8
  %acc.next = add i64 %acc, %v
  %next = add nsw i64 %i, 1
  br label %loop
exit:
  ret i64 %acc
}

declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)

define void @copy(ptr %d, ptr %s) {
  call void @llvm.memcpy.p0.p0.i64(ptr %d, ptr %s, i64 64, i1 false)
  ret void
}
