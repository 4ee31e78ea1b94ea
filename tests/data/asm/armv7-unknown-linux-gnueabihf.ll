; ModuleID = 'inline_asm.c'
source_filename = "inline_asm.c"
target datalayout = "e-m:e-p:32:32-Fi8-i64:64-v128:64:128-a:0:32-n32-S64"
target triple = "armv7-unknown-linux-gnueabihf"

@banner = dso_local constant [11 x i8] c"inline asm\00", align 1
@shared = dso_local local_unnamed_addr global i32 0, align 4
@llvm.compiler.used = appending global [1 x ptr] [ptr @banner], section "llvm.metadata"

; Function Attrs: nounwind
define dso_local void @fences() local_unnamed_addr #0 {
  tail call void asm sideeffect "dmb ish", "~{memory}"() #2, !srcloc !5
  ret void
}

; Function Attrs: nofree nosync nounwind memory(none)
define dso_local i32 @tls() local_unnamed_addr #1 {
  %1 = tail call i32 asm "mrc p15, 0, $0, c13, c0, 3", "=r"() #3, !srcloc !6
  ret i32 %1
}

; Function Attrs: nofree nosync nounwind memory(none)
define dso_local i32 @add4(i32 noundef %0) local_unnamed_addr #1 {
  %2 = tail call i32 asm ".syntax unified\0A\09adds $0, $0, #4", "=r,0,~{cc}"(i32 %0) #3, !srcloc !7
  ret i32 %2
}

; Function Attrs: nounwind
define dso_local void @use() local_unnamed_addr #0 {
  tail call void asm sideeffect "", "~{memory}"() #2, !srcloc !8
  %1 = load i32, ptr @shared, align 4, !tbaa !9
  %2 = add i32 %1, 1
  store i32 %2, ptr @shared, align 4, !tbaa !9
  tail call void asm sideeffect "", "~{memory}"() #2, !srcloc !13
  ret void
}

attributes #0 = { nounwind "no-builtins" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="generic" "target-features"="+armv7-a,+dsp,+fp64,+vfp2,+vfp2sp,+vfp3d16,+vfp3d16sp,-aes,-d32,-fp-armv8,-fp-armv8d16,-fp-armv8d16sp,-fp-armv8sp,-fp16,-fp16fml,-fullfp16,-neon,-sha2,-thumb-mode,-vfp3,-vfp3sp,-vfp4,-vfp4d16,-vfp4d16sp,-vfp4sp" }
attributes #1 = { nofree nosync nounwind memory(none) "no-builtins" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="generic" "target-features"="+armv7-a,+dsp,+fp64,+vfp2,+vfp2sp,+vfp3d16,+vfp3d16sp,-aes,-d32,-fp-armv8,-fp-armv8d16,-fp-armv8d16sp,-fp-armv8sp,-fp16,-fp16fml,-fullfp16,-neon,-sha2,-thumb-mode,-vfp3,-vfp3sp,-vfp4,-vfp4d16,-vfp4d16sp,-vfp4sp" }
attributes #2 = { nounwind }
attributes #3 = { nounwind memory(none) }

!llvm.module.flags = !{!0, !1, !2, !3}
!llvm.ident = !{!4}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 1, !"min_enum_size", i32 4}
!2 = !{i32 8, !"PIC Level", i32 2}
!3 = !{i32 7, !"PIE Level", i32 2}
!4 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
!5 = !{i64 2693}
!6 = !{i64 2765}
!7 = !{i64 2858, i64 2876}
!8 = !{i64 2147536416}
!9 = !{!10, !10, i64 0}
!10 = !{!"int", !11, i64 0}
!11 = !{!"omnipotent char", !12, i64 0}
!12 = !{!"Simple C/C++ TBAA"}
!13 = !{i64 2147536454}
