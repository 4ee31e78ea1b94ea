; ModuleID = 'inline_asm.c'
source_filename = "inline_asm.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

@banner = dso_local constant [11 x i8] c"inline asm\00", align 1
@shared = dso_local local_unnamed_addr global i32 0, align 4
@llvm.compiler.used = appending global [1 x ptr] [ptr @banner], section "llvm.metadata"

; Function Attrs: nounwind
define dso_local void @cpuid(i32 noundef %0, ptr nocapture noundef writeonly %1, ptr nocapture noundef writeonly %2, ptr nocapture noundef writeonly %3, ptr nocapture noundef writeonly %4) local_unnamed_addr #0 {
  %6 = tail call { i32, i32, i32, i32 } asm sideeffect "cpuid", "={ax},={bx},={cx},={dx},0,2,~{dirflag},~{fpsr},~{flags}"(i32 %0, i32 0) #2, !srcloc !4
  %7 = extractvalue { i32, i32, i32, i32 } %6, 0
  %8 = extractvalue { i32, i32, i32, i32 } %6, 1
  %9 = extractvalue { i32, i32, i32, i32 } %6, 2
  %10 = extractvalue { i32, i32, i32, i32 } %6, 3
  store i32 %7, ptr %1, align 4, !tbaa !5
  store i32 %8, ptr %2, align 4, !tbaa !5
  store i32 %9, ptr %3, align 4, !tbaa !5
  store i32 %10, ptr %4, align 4, !tbaa !5
  ret void
}

; Function Attrs: nounwind
define dso_local i64 @rdtsc() local_unnamed_addr #0 {
  %1 = tail call { i32, i32 } asm sideeffect "rdtsc", "={ax},={dx},~{dirflag},~{fpsr},~{flags}"() #2, !srcloc !9
  %2 = extractvalue { i32, i32 } %1, 0
  %3 = extractvalue { i32, i32 } %1, 1
  %4 = zext i32 %3 to i64
  %5 = shl nuw i64 %4, 32
  %6 = zext i32 %2 to i64
  %7 = or disjoint i64 %5, %6
  ret i64 %7
}

; Function Attrs: nounwind
define dso_local i32 @cas(ptr noundef %0, i32 noundef %1, i32 noundef %2) local_unnamed_addr #0 {
  %4 = tail call i32 asm sideeffect "lock; cmpxchgl $2, $1", "={ax},=*m,r,0,*m,~{memory},~{dirflag},~{fpsr},~{flags}"(ptr elementtype(i32) %0, i32 %2, i32 %1, ptr elementtype(i32) %0) #2, !srcloc !10
  ret i32 %4
}

; Function Attrs: nofree nosync nounwind memory(none)
define dso_local i32 @bswap(i32 noundef %0) local_unnamed_addr #1 {
  %2 = tail call i32 asm "bswap $0", "=r,0,~{dirflag},~{fpsr},~{flags}"(i32 %0) #3, !srcloc !11
  ret i32 %2
}

; Function Attrs: nounwind
define dso_local void @zero(ptr noundef %0, i64 noundef %1) local_unnamed_addr #0 {
  %3 = tail call { ptr, i64 } asm sideeffect "rep stosb", "={di},={cx},{ax},0,1,~{memory},~{dirflag},~{fpsr},~{flags}"(i32 0, ptr %0, i64 %1) #2, !srcloc !12
  ret void
}

; Function Attrs: nounwind
define dso_local void @relax() local_unnamed_addr #0 {
  tail call void asm sideeffect "pause", "~{memory},~{dirflag},~{fpsr},~{flags}"() #2, !srcloc !13
  ret void
}

; Function Attrs: nounwind
define dso_local void @intel_block() local_unnamed_addr #0 {
  tail call void asm sideeffect ".intel_syntax noprefix\0A\09mov eax, 1\0A\09lea eax, [eax + 1]\0A\09.att_syntax prefix", "~{eax},~{dirflag},~{fpsr},~{flags}"() #2, !srcloc !14
  ret void
}

; Function Attrs: nounwind
define dso_local void @table_entry() local_unnamed_addr #0 {
  tail call void asm sideeffect "1:\0A\09nop\0A.pushsection .rodata.entries, \22a\22\0A\09.p2align 2\0A\09.long 1b - .\0A.popsection", "~{dirflag},~{fpsr},~{flags}"() #2, !srcloc !15
  ret void
}

; Function Attrs: nofree nosync nounwind memory(none)
define dso_local range(i32 -128, 128) i32 @cmp_flags(i64 noundef %0, i64 noundef %1) local_unnamed_addr #1 {
  %3 = tail call i8 asm "cmp $2, $1\0A\09setl $0", "=q,r,r,~{cc},~{dirflag},~{fpsr},~{flags}"(i64 %0, i64 %1) #3, !srcloc !16
  %4 = sext i8 %3 to i32
  ret i32 %4
}

; Function Attrs: nounwind
define dso_local range(i32 0, 2) i32 @goto_asm(i32 noundef %0) local_unnamed_addr #0 {
  callbr void asm sideeffect "testl $0, $0\0A\09jne ${1:l}", "r,!i,~{cc},~{dirflag},~{fpsr},~{flags}"(i32 %0) #2
          to label %3 [label %2], !srcloc !17

2:                                                ; preds = %1
  br label %3

3:                                                ; preds = %1, %2
  %4 = phi i32 [ 1, %2 ], [ 0, %1 ]
  ret i32 %4
}

; Function Attrs: nounwind
define dso_local void @use() local_unnamed_addr #0 {
  tail call void asm sideeffect "", "~{memory},~{dirflag},~{fpsr},~{flags}"() #2, !srcloc !18
  %1 = load i32, ptr @shared, align 4, !tbaa !5
  %2 = add i32 %1, 1
  store i32 %2, ptr @shared, align 4, !tbaa !5
  tail call void asm sideeffect "", "~{memory},~{dirflag},~{fpsr},~{flags}"() #2, !srcloc !19
  ret void
}

attributes #0 = { nounwind "min-legal-vector-width"="0" "no-builtins" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { nofree nosync nounwind memory(none) "min-legal-vector-width"="0" "no-builtins" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #2 = { nounwind }
attributes #3 = { nounwind memory(none) }

!llvm.module.flags = !{!0, !1, !2}
!llvm.ident = !{!3}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 8, !"PIC Level", i32 2}
!2 = !{i32 7, !"PIE Level", i32 2}
!3 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
!4 = !{i64 732}
!5 = !{!6, !6, i64 0}
!6 = !{!"int", !7, i64 0}
!7 = !{!"omnipotent char", !8, i64 0}
!8 = !{!"Simple C/C++ TBAA"}
!9 = !{i64 870}
!10 = !{i64 1036}
!11 = !{i64 1174}
!12 = !{i64 1272}
!13 = !{i64 1367}
!14 = !{i64 1440, i64 1465, i64 1479, i64 1501}
!15 = !{i64 1727, i64 1732, i64 1765, i64 1802, i64 1816, i64 1832}
!16 = !{i64 1901, i64 1914}
!17 = !{i64 2036, i64 2051}
!18 = !{i64 2147536130}
!19 = !{i64 2147536168}
