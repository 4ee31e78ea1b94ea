; backend: X86
; triple: x86_64-unknown-linux-gnu
; flags: -O0
; output: obj
; expect: stripped
; verifier: imported entity must be a namespace, module, subprogram, type or global variable
; llvm 23.1.1: SIGSEGV in DwarfCompileUnit::constructImportedEntityDIE: an entity that is not a namespace, module, subprogram, type or global variable has no DIE to import (null entity, a file, a label...); elements are cast<DIImportedEntity>
; found by: looking for siblings of the annotations crash (DwarfUnit casts on fields the verifier does not check)
define void @f() !dbg !10 {
  %a = alloca i32, align 4
    #dbg_declare(ptr %a, !12, !DIExpression(), !13)
  ret void, !dbg !13
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, producer: "x", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug, imports: !40)
!1 = !DIFile(filename: "a.cpp", directory: "/")
!2 = !{i32 7, !"Dwarf Version", i32 5}
!3 = !{i32 2, !"Debug Info Version", i32 3}
!5 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!10 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 1, type: !11, scopeLine: 1, spFlags: DISPFlagDefinition, unit: !0)
!11 = !DISubroutineType(types: !{null})
!12 = !DILocalVariable(name: "a", scope: !10, file: !1, line: 2, type: !5)
!13 = !DILocation(line: 2, column: 1, scope: !10)
!40 = !{!41}
!41 = !DIImportedEntity(tag: DW_TAG_imported_declaration, scope: !0, entity: !1, file: !1, line: 1)
