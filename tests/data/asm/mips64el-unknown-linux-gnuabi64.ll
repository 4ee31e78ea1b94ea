; ModuleID = 'inline_asm.c'
source_filename = "inline_asm.c"
target datalayout = "e-m:e-i8:8:32-i16:16:32-i64:64-n32:64-S128"
target triple = "mips64el-unknown-linux-gnuabi64"

@banner = dso_local constant [11 x i8] c"inline asm\00", align 1
@shared = dso_local local_unnamed_addr global i32 0, align 4
@llvm.compiler.used = appending global [1 x ptr] [ptr @banner], section "llvm.metadata"

; Function Attrs: nounwind
define dso_local void @fences() local_unnamed_addr #0 {
  tail call void asm sideeffect ".set push\0A\09.set noreorder\0A\09sync\0A\09.set pop", "~{memory},~{$1}"() #1, !srcloc !4
  ret void
}

; Function Attrs: nounwind
define dso_local void @use() local_unnamed_addr #0 {
  tail call void asm sideeffect "", "~{memory},~{$1}"() #1, !srcloc !5
  %1 = load i32, ptr @shared, align 4, !tbaa !6
  %2 = add i32 %1, 1
  store i32 %2, ptr @shared, align 4, !tbaa !6
  tail call void asm sideeffect "", "~{memory},~{$1}"() #1, !srcloc !10
  ret void
}

attributes #0 = { nounwind "no-builtins" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="mips64r2" "target-features"="+mips64r2,-noabicalls" }
attributes #1 = { nounwind }

!llvm.module.flags = !{!0, !1, !2}
!llvm.ident = !{!3}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 8, !"PIC Level", i32 1}
!2 = !{i32 7, !"PIE Level", i32 1}
!3 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
!4 = !{i64 3432, i64 3444, i64 3462, i64 3470}
!5 = !{i64 2147535697}
!6 = !{!7, !7, i64 0}
!7 = !{!"int", !8, i64 0}
!8 = !{!"omnipotent char", !9, i64 0}
!9 = !{!"Simple C/C++ TBAA"}
!10 = !{i64 2147535735}
