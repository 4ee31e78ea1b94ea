; backend: PowerPC
; triple: powerpc64-ibm-aix
; flags: -O0
; output: obj
; expect: guarded
; llvm 23.1.1: SIGSEGV in DwarfCompileUnit::addAddrTableBase (DWARF 5 on XCOFF, object and assembly; DWARF 3 and 4 work)
; found by: issue 18
define void @f() !dbg !5 {
  ret void, !dbg !8
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}
!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "x", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "a.c", directory: "/")
!3 = !{i32 7, !"Dwarf Version", i32 5}
!4 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 1, type: !6, scopeLine: 1, spFlags: DISPFlagDefinition, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{null}
!8 = !DILocation(line: 1, column: 1, scope: !5)
