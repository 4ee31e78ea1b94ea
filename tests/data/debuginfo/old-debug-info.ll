; Valid, with debug info of an older version (2): stripped as it is read.
source_filename = "old-debug-info.ll"
define i32 @f() !dbg !5 {
  %a = add i32 1, 1, !dbg !9
  ret i32 %a, !dbg !9
}
!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "x", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "a.c", directory: "/tmp")
!3 = !{i32 2, !"Debug Info Version", i32 2}
!5 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 1, type: !6, unit: !0, spFlags: DISPFlagDefinition)
!6 = !DISubroutineType(types: !7)
!7 = !{null}
!9 = !DILocation(line: 1, scope: !5)
