; ModuleID = 'inline_asm.c'
source_filename = "inline_asm.c"
target datalayout = "e-m:e-i8:8:32-i16:16:32-i64:64-i128:128-n32:64-S128-Fn32"
target triple = "aarch64-unknown-linux-gnu"

@banner = dso_local constant [11 x i8] c"inline asm\00", align 1
@shared = dso_local local_unnamed_addr global i32 0, align 4
@llvm.compiler.used = appending global [1 x ptr] [ptr @banner], section "llvm.metadata"

; Function Attrs: nounwind
define dso_local i64 @counter() local_unnamed_addr #0 {
  %1 = tail call i64 asm sideeffect "mrs $0, cntvct_el0", "=r"() #2, !srcloc !5
  ret i64 %1
}

; Function Attrs: nounwind
define dso_local void @fences() local_unnamed_addr #0 {
  tail call void asm sideeffect "dmb ish\0A\09isb\0A\09yield", "~{memory}"() #2, !srcloc !6
  ret void
}

; Function Attrs: nounwind
define dso_local i32 @load_acquire(ptr noundef %0) local_unnamed_addr #0 {
  %2 = tail call i32 asm sideeffect "ldar ${0:w}, [$1]", "=r,r,~{memory}"(ptr %0) #2, !srcloc !7
  ret i32 %2
}

; Function Attrs: nofree nosync nounwind memory(none)
define dso_local i32 @crc(i32 noundef %0, i64 noundef %1) local_unnamed_addr #1 {
  %3 = tail call i32 asm ".arch_extension crc\0A\09crc32cx ${0:w}, ${0:w}, $1", "=r,r,0"(i64 %1, i32 %0) #3, !srcloc !8
  ret i32 %3
}

; Function Attrs: nounwind
define dso_local void @use() local_unnamed_addr #0 {
  tail call void asm sideeffect "", "~{memory}"() #2, !srcloc !9
  %1 = load i32, ptr @shared, align 4, !tbaa !10
  %2 = add i32 %1, 1
  store i32 %2, ptr @shared, align 4, !tbaa !10
  tail call void asm sideeffect "", "~{memory}"() #2, !srcloc !14
  ret void
}

attributes #0 = { nounwind "frame-pointer"="non-leaf" "no-builtins" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="generic" "target-features"="+fp-armv8,+neon,+v8a,-fmv" }
attributes #1 = { nofree nosync nounwind memory(none) "frame-pointer"="non-leaf" "no-builtins" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="generic" "target-features"="+fp-armv8,+neon,+v8a,-fmv" }
attributes #2 = { nounwind }
attributes #3 = { nounwind memory(none) }

!llvm.module.flags = !{!0, !1, !2, !3}
!llvm.ident = !{!4}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 8, !"PIC Level", i32 2}
!2 = !{i32 7, !"PIE Level", i32 2}
!3 = !{i32 7, !"frame-pointer", i32 1}
!4 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
!5 = !{i64 2231}
!6 = !{i64 2319, i64 2329, i64 2336}
!7 = !{i64 2436}
!8 = !{i64 2548, i64 2570}
!9 = !{i64 2147536608}
!10 = !{!11, !11, i64 0}
!11 = !{!"int", !12, i64 0}
!12 = !{!"omnipotent char", !13, i64 0}
!13 = !{!"Simple C/C++ TBAA"}
!14 = !{i64 2147536646}
