; ModuleID = 'inline_asm.c'
source_filename = "inline_asm.c"
target datalayout = "e-m:e-Fn32-i64:64-n32:64-S128-v256:256:256-v512:512:512"
target triple = "powerpc64le-unknown-linux-gnu"

@banner = dso_local constant [11 x i8] c"inline asm\00", align 1
@shared = dso_local local_unnamed_addr global i32 0, align 4
@llvm.compiler.used = appending global [1 x ptr] [ptr @banner], section "llvm.metadata"

; Function Attrs: nounwind
define dso_local void @fences() local_unnamed_addr #0 {
  tail call void asm sideeffect "sync", "~{memory}"() #1, !srcloc !4
  ret void
}

; Function Attrs: nounwind
define dso_local i64 @timebase() local_unnamed_addr #0 {
  %1 = tail call i64 asm sideeffect "mftb $0", "=r"() #1, !srcloc !5
  ret i64 %1
}

; Function Attrs: nounwind
define dso_local void @use() local_unnamed_addr #0 {
  tail call void asm sideeffect "", "~{memory}"() #1, !srcloc !6
  %1 = load i32, ptr @shared, align 4, !tbaa !7
  %2 = add i32 %1, 1
  store i32 %2, ptr @shared, align 4, !tbaa !7
  tail call void asm sideeffect "", "~{memory}"() #1, !srcloc !11
  ret void
}

attributes #0 = { nounwind "no-builtins" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="ppc64le" "target-features"="+altivec,+bpermd,+crbits,+crypto,+direct-move,+extdiv,+htm,+isa-v206-instructions,+isa-v207-instructions,+power8-vector,+vsx,-aix-shared-lib-tls-model-opt,-aix-small-local-dynamic-tls,-aix-small-local-exec-tls,-isa-v30-instructions,-power9-vector,-privileged,-quadword-atomics,-rop-protect,-spe" }
attributes #1 = { nounwind }

!llvm.module.flags = !{!0, !1, !2}
!llvm.ident = !{!3}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 8, !"PIC Level", i32 2}
!2 = !{i32 7, !"PIE Level", i32 2}
!3 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
!4 = !{i64 3244}
!5 = !{i64 3331}
!6 = !{i64 2147542567}
!7 = !{!8, !8, i64 0}
!8 = !{!"int", !9, i64 0}
!9 = !{!"omnipotent char", !10, i64 0}
!10 = !{!"Simple C/C++ TBAA"}
!11 = !{i64 2147542605}
