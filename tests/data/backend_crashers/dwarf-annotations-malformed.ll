; backend: X86
; triple: x86_64-unknown-linux-gnu
; flags: -O0
; output: obj
; expect: stripped
; verifier: invalid annotations
; llvm 23.1.1: SIGSEGV in DwarfUnit::addAnnotation: each annotation is read as !{!"name", value} (cast<MDNode>, cast<MDString> of operand 0, operand 1 without a size check); the verifier does not check annotations (all five node kinds that carry them, every -O level)
; found by: a colleague's report (a DILocalVariable with annotations: !{!{!1}})
define void @f() !dbg !10 {
  %a = alloca i32, align 4
    #dbg_declare(ptr %a, !12, !DIExpression(), !13)
  ret void, !dbg !13
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, producer: "x", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "a.cpp", directory: "/")
!2 = !{i32 7, !"Dwarf Version", i32 5}
!3 = !{i32 2, !"Debug Info Version", i32 3}
!5 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!10 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 1, type: !11, scopeLine: 1, spFlags: DISPFlagDefinition, unit: !0)
!11 = !DISubroutineType(types: !{null})
!12 = !DILocalVariable(name: "a", scope: !10, file: !1, line: 2, type: !5, annotations: !20)
!13 = !DILocation(line: 2, column: 1, scope: !10)
!20 = !{!21}
!21 = !{!1}
