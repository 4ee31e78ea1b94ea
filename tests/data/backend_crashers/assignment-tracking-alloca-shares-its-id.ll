; backend: X86
; triple: x86_64-unknown-linux-gnu
; flags: -passes=mem2reg
; output: obj
; expect: stripped
; verifier: DIAssignID attached to an alloca and to another instruction
; llvm 23.1.1: SIGSEGV in DbgRecord::eraseFromParent from PromoteMem2Reg: the dbg_assign linked to both the promoted alloca and its store is erased twice (-passes=mem2reg; compile_parts and compile_modules at -O1 and up, whose pre-link pipelines run it)
; found by: issue 29's work on one reference walk (a #dbg_assign through compile_parts and compile_modules)
define i32 @f(i32 %x) !dbg !4 {
  %a = alloca i32, align 4, !DIAssignID !10
  store i32 %x, ptr %a, align 4, !DIAssignID !10
    #dbg_assign(i32 %x, !7, !DIExpression(), !10, ptr %a, !DIExpression(), !8)
  %v = load i32, ptr %a
  ret i32 %v, !dbg !8
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3}
!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "a.c", directory: "/")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = !{i32 7, !"debug-info-assignment-tracking", i1 true}
!4 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 1, type: !5, unit: !0, spFlags: DISPFlagDefinition, retainedNodes: !{})
!5 = !DISubroutineType(types: !{!6, !6})
!6 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!7 = !DILocalVariable(name: "a", scope: !4, file: !1, line: 1, type: !6)
!8 = !DILocation(line: 1, scope: !4)
!10 = distinct !DIAssignID()
