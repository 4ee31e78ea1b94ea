; Valid but for its debug info: annotations !{!{!1}}, which the verifier
; passes and DwarfUnit::addAnnotation reads as !{!"name", value} (SIGSEGV).
source_filename = "annotations-link.ll"
define i32 @f() !dbg !10 {
  %a = alloca i32, align 4
    #dbg_declare(ptr %a, !12, !DIExpression(), !13)
  store i32 2, ptr %a, align 4, !dbg !13
  %v = load i32, ptr %a, align 4, !dbg !13
  ret i32 %v, !dbg !13
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3}
!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: "x", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "a.c", directory: "/")
!2 = !{i32 7, !"Dwarf Version", i32 5}
!3 = !{i32 2, !"Debug Info Version", i32 3}
!5 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!10 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 1, type: !11, scopeLine: 1, spFlags: DISPFlagDefinition, unit: !0)
!11 = !DISubroutineType(types: !14)
!14 = !{!5}
!12 = !DILocalVariable(name: "a", scope: !10, file: !1, line: 2, type: !5, annotations: !20)
!13 = !DILocation(line: 2, column: 1, scope: !10)
!20 = !{!21}
!21 = !{!1}
