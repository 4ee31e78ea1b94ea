; backend: X86
; triple: x86_64-unknown-linux-gnu
; flags: -O0
; output: obj
; expect: guarded
; llvm 23.1.1: SIGSEGV in DwarfDebug::finishEntityDefinitions (DIE::getUnitDie) for a LineTablesOnly unit with local variables, on every DWARF backend and version (not on Apple targets, not with CodeView)
; found by: tests/campaign_backends.py --seed 1 (debuginfo: 631 crashes on all 19 backends that emit DWARF)
define i32 @f(i32 %x) !dbg !10 {
  %a = alloca i32, align 4
    #dbg_declare(ptr %a, !20, !DIExpression(), !30)
  store i32 %x, ptr %a, align 4, !dbg !30
  %v = load i32, ptr %a, align 4, !dbg !30
  ret i32 %v, !dbg !30
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3}
!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: "campaign", isOptimized: false, runtimeVersion: 0, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "campaign.c", directory: "/tmp")
!2 = !{i32 7, !"Dwarf Version", i32 5}
!3 = !{i32 2, !"Debug Info Version", i32 3}
!10 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 3, type: !12, scopeLine: 3, spFlags: DISPFlagDefinition, unit: !0)
!12 = !DISubroutineType(types: !13)
!13 = !{!15, !15}
!15 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!20 = !DILocalVariable(name: "a", scope: !10, file: !1, line: 4, type: !15)
!30 = !DILocation(line: 4, column: 3, scope: !10)
