; ModuleID = 'near.c'
source_filename = "near.c"
target datalayout = "e-m:e-p:64:64-i64:64-i128:128-n32:64-S128"
target triple = "bpfel"

%struct.t1 = type { i32 }

@g1 = dso_local global i32 0, align 4, !dbg !0
@gp = dso_local global ptr null, align 8, !dbg !5
@g2 = dso_local global i32 0, align 4, !dbg !11

; Function Attrs: noinline nounwind optnone
define dso_local i32 @foo(ptr noundef %0) #0 !dbg !23 {
  %2 = alloca ptr, align 8
  store ptr %0, ptr %2, align 8
    #dbg_declare(ptr %2, !31, !DIExpression(), !32)
  %3 = load ptr, ptr %2, align 8, !dbg !33
  %4 = getelementptr inbounds %struct.t1, ptr %3, i32 0, i32 0, !dbg !34
  %5 = load i32, ptr %4, align 4, !dbg !34
  ret i32 %5, !dbg !35
}

attributes #0 = { noinline nounwind optnone "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }

!llvm.dbg.cu = !{!2}
!llvm.module.flags = !{!18, !19, !20, !21}
!llvm.ident = !{!22}

!0 = !DIGlobalVariableExpression(var: !1, expr: !DIExpression())
!1 = distinct !DIGlobalVariable(name: "g1", scope: !2, file: !3, line: 8, type: !8, isLocal: false, isDefinition: true, annotations: !16)
!2 = distinct !DICompileUnit(language: DW_LANG_C11, file: !3, producer: "Debian clang version 19.1.7 (3~deb12u1)", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug, globals: !4, splitDebugInlining: false, nameTableKind: None)
!3 = !DIFile(filename: "near.c", directory: "/nonexistent/llvmplug/near-c", checksumkind: CSK_MD5, checksum: "80acb1f906a8db23f49db5b5b949befd")
!4 = !{!0, !5, !11}
!5 = !DIGlobalVariableExpression(var: !6, expr: !DIExpression())
!6 = distinct !DIGlobalVariable(name: "gp", scope: !2, file: !3, line: 9, type: !7, isLocal: false, isDefinition: true)
!7 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !8, size: 64, annotations: !9)
!8 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!9 = !{!10}
!10 = !{!"btf_type_tag", !"tt"}
!11 = !DIGlobalVariableExpression(var: !12, expr: !DIExpression())
!12 = distinct !DIGlobalVariable(name: "g2", scope: !2, file: !3, line: 11, type: !13, isLocal: false, isDefinition: true)
!13 = !DIDerivedType(tag: DW_TAG_typedef, name: "myint", file: !3, line: 10, baseType: !8, annotations: !14)
!14 = !{!15}
!15 = !{!"btf_decl_tag", !"tag1"}
!16 = !{!15, !17}
!17 = !{!"btf_decl_tag", !"tag2"}
!18 = !{i32 7, !"Dwarf Version", i32 5}
!19 = !{i32 2, !"Debug Info Version", i32 3}
!20 = !{i32 1, !"wchar_size", i32 4}
!21 = !{i32 7, !"frame-pointer", i32 2}
!22 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
!23 = distinct !DISubprogram(name: "foo", scope: !3, file: !3, line: 12, type: !24, scopeLine: 12, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !2, retainedNodes: !30, annotations: !16)
!24 = !DISubroutineType(types: !25)
!25 = !{!8, !26}
!26 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !27, size: 64)
!27 = distinct !DICompositeType(tag: DW_TAG_structure_type, name: "t1", file: !3, line: 7, size: 32, elements: !28, annotations: !16)
!28 = !{!29}
!29 = !DIDerivedType(tag: DW_TAG_member, name: "a", scope: !27, file: !3, line: 7, baseType: !8, size: 32, annotations: !16)
!30 = !{}
!31 = !DILocalVariable(name: "arg", arg: 1, scope: !23, file: !3, line: 12, type: !26, annotations: !16)
!32 = !DILocation(line: 12, column: 34, scope: !23)
!33 = !DILocation(line: 12, column: 62, scope: !23)
!34 = !DILocation(line: 12, column: 67, scope: !23)
!35 = !DILocation(line: 12, column: 55, scope: !23)
