; backend: BPF
; triple: bpfel
; flags: -O2
; output: obj
; expect: stripped
; verifier: invalid annotations
; llvm 23.1.1: SIGABRT in BTFDebug: a btf_decl_tag annotation's value is cast<MDString> (an integer value works for DWARF, not for BTF)
; found by: looking for siblings of the annotations crash (DwarfUnit casts on fields the verifier does not check)
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
!10 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 1, type: !11, scopeLine: 1, spFlags: DISPFlagDefinition, unit: !0, annotations: !20)
!11 = !DISubroutineType(types: !{null})
!12 = !DILocalVariable(name: "a", scope: !10, file: !1, line: 2, type: !5)
!13 = !DILocation(line: 2, column: 1, scope: !10)
!20 = !{!21}
!21 = !{!"btf_decl_tag", i32 1}
