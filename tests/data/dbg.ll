source_filename = "dbg.c"
define i32 @twice(i32 %x) !dbg !7 {
  %y = shl i32 %x, 1, !dbg !10
  ret i32 %y, !dbg !10
}
!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}
!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "test", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "dbg.c", directory: "/src")
!3 = !{i32 7, !"Dwarf Version", i32 4}
!4 = !{i32 2, !"Debug Info Version", i32 3}
!7 = distinct !DISubprogram(name: "twice", scope: !1, file: !1, line: 1, type: !8, scopeLine: 1, unit: !0)
!8 = !DISubroutineType(types: !9)
!9 = !{null}
!10 = !DILocation(line: 2, column: 3, scope: !7)
