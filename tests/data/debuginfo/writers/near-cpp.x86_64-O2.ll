; ModuleID = 'near.cpp'
source_filename = "near.cpp"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

%struct.S = type { [3 x i32] }
%struct.Wrap = type { i32 }

@_ZN2ns2nvE = dso_local local_unnamed_addr global i32 1, align 4, !dbg !0
@_ZN1D2svE = dso_local local_unnamed_addr global i32 2, align 4, !dbg !5
@pm = dso_local local_unnamed_addr global i64 -1, align 8, !dbg !49
@pmf = dso_local local_unnamed_addr global { i64, i64 } zeroinitializer, align 8, !dbg !52
@s = dso_local local_unnamed_addr global %struct.S zeroinitializer, align 4, !dbg !57
@al = dso_local local_unnamed_addr global %struct.Wrap zeroinitializer, align 4, !dbg !75
@vp = dso_local local_unnamed_addr global ptr null, align 8, !dbg !82
@gv = dso_local local_unnamed_addr global <4 x i32> zeroinitializer, align 16, !dbg !86
@ge = dso_local local_unnamed_addr global i16 0, align 2, !dbg !92

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(none) uwtable
define dso_local noundef range(i32 -2147483647, -2147483648) i32 @_ZN2ns2nfEi(i32 noundef %0) local_unnamed_addr #0 !dbg !97 {
    #dbg_value(i32 %0, !101, !DIExpression(), !114)
  %2 = add nsw i32 %0, 1, !dbg !115
  ret i32 %2, !dbg !116
}

; Function Attrs: mustprogress nofree norecurse nounwind memory(read, argmem: none, inaccessiblemem: readwrite) uwtable
define dso_local noundef i32 @_Z3usei(i32 noundef %0) local_unnamed_addr #1 !dbg !117 {
  %2 = alloca i32, align 4, !DIAssignID !131
    #dbg_assign(i1 undef, !120, !DIExpression(DW_OP_LLVM_fragment, 96, 32), !131, ptr %2, !DIExpression(), !132)
    #dbg_assign(i1 undef, !120, !DIExpression(DW_OP_LLVM_fragment, 136, 56), !133, ptr undef, !DIExpression(), !132)
    #dbg_assign(i1 undef, !120, !DIExpression(DW_OP_LLVM_fragment, 256, 64), !134, ptr undef, !DIExpression(), !132)
  %3 = alloca [4 x i32], align 16, !DIAssignID !135
    #dbg_assign(i1 undef, !129, !DIExpression(), !135, ptr %3, !DIExpression(), !132)
    #dbg_value(i32 %0, !119, !DIExpression(), !132)
  call void @llvm.lifetime.start.p0(i64 4, ptr nonnull %2), !dbg !136
    #dbg_value(ptr undef, !137, !DIExpression(), !141)
    #dbg_value(ptr poison, !120, !DIExpression(DW_OP_LLVM_fragment, 0, 64), !132)
    #dbg_value(ptr poison, !120, !DIExpression(DW_OP_LLVM_fragment, 192, 64), !132)
  store volatile i32 0, ptr %2, align 4, !dbg !143, !tbaa !144, !DIAssignID !149
    #dbg_assign(i32 0, !120, !DIExpression(DW_OP_LLVM_fragment, 96, 32), !149, ptr %2, !DIExpression(), !132)
    #dbg_value(i8 1, !120, !DIExpression(DW_OP_LLVM_fragment, 128, 8), !132)
    #dbg_value(<4 x i32> <i32 1, i32 2, i32 3, i32 4>, !121, !DIExpression(), !132)
    #dbg_value(i8 0, !122, !DIExpression(), !132)
  call void @llvm.lifetime.start.p0(i64 16, ptr nonnull %3) #4, !dbg !150
  call void @llvm.memset.p0.i64(ptr noundef nonnull align 16 dereferenceable(16) %3, i8 0, i64 16, i1 false), !dbg !151, !DIAssignID !152
    #dbg_assign(i8 0, !129, !DIExpression(), !152, ptr %3, !DIExpression(), !132)
  %4 = and i32 %0, 3, !dbg !153
  %5 = zext nneg i32 %4 to i64, !dbg !154
  %6 = getelementptr inbounds [4 x i32], ptr %3, i64 0, i64 %5, !dbg !154
  %7 = load i32, ptr %6, align 4, !dbg !154, !tbaa !155
  %8 = load i32, ptr @_ZN2ns2nvE, align 4, !dbg !156, !tbaa !155
  %9 = load i16, ptr @ge, align 2, !dbg !157, !tbaa !158
  %10 = sext i16 %9 to i32, !dbg !160
  %11 = load i32, ptr @_ZN1D2svE, align 4, !dbg !161, !tbaa !155
  %12 = add i32 %7, 8, !dbg !162
  %13 = add i32 %12, %8, !dbg !163
  %14 = add i32 %13, %10, !dbg !164
  %15 = add nsw i32 %14, %11, !dbg !165
  call void @llvm.lifetime.end.p0(i64 16, ptr nonnull %3) #4, !dbg !166
  call void @llvm.lifetime.end.p0(i64 4, ptr nonnull %2), !dbg !166
  ret i32 %15, !dbg !166
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture) #2

; Function Attrs: mustprogress nocallback nofree nounwind willreturn memory(argmem: write)
declare void @llvm.memset.p0.i64(ptr nocapture writeonly, i8, i64, i1 immarg) #3

; Function Attrs: mustprogress nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture) #2

attributes #0 = { mustprogress nofree norecurse nosync nounwind willreturn memory(none) uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { mustprogress nofree norecurse nounwind memory(read, argmem: none, inaccessiblemem: readwrite) uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #2 = { mustprogress nocallback nofree nosync nounwind willreturn memory(argmem: readwrite) }
attributes #3 = { mustprogress nocallback nofree nounwind willreturn memory(argmem: write) }
attributes #4 = { nounwind }

!llvm.dbg.cu = !{!7}
!llvm.module.flags = !{!106, !107, !108, !109, !110, !111, !112}
!llvm.ident = !{!113}

!0 = !DIGlobalVariableExpression(var: !1, expr: !DIExpression())
!1 = distinct !DIGlobalVariable(name: "nv", linkageName: "_ZN2ns2nvE", scope: !2, file: !3, line: 2, type: !4, isLocal: false, isDefinition: true)
!2 = !DINamespace(name: "ns", scope: null)
!3 = !DIFile(filename: "near.cpp", directory: "/tmp/c2/nm", checksumkind: CSK_MD5, checksum: "3926da368fa007c1e3177e694513ff1f")
!4 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!5 = !DIGlobalVariableExpression(var: !6, expr: !DIExpression())
!6 = distinct !DIGlobalVariable(name: "sv", linkageName: "_ZN1D2svE", scope: !7, file: !3, line: 19, type: !4, isLocal: false, isDefinition: true, declaration: !33)
!7 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !3, producer: "Debian clang version 19.1.7 (3~deb12u1)", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug, enums: !8, retainedTypes: !14, globals: !48, imports: !94, splitDebugInlining: false, nameTableKind: None)
!8 = !{!9}
!9 = !DICompositeType(tag: DW_TAG_enumeration_type, name: "E", file: !3, line: 22, baseType: !10, size: 16, flags: DIFlagEnumClass, elements: !11, identifier: "_ZTS1E")
!10 = !DIBasicType(name: "short", size: 16, encoding: DW_ATE_signed)
!11 = !{!12, !13}
!12 = !DIEnumerator(name: "A", value: -1)
!13 = !DIEnumerator(name: "B", value: 2)
!14 = !{!4, !15}
!15 = distinct !DICompositeType(tag: DW_TAG_structure_type, name: "D", file: !3, line: 10, size: 320, flags: DIFlagTypePassByReference | DIFlagNonTrivial, elements: !16, vtableHolder: !15, identifier: "_ZTS1D")
!16 = !{!17, !30, !31, !33, !34, !40, !43, !44}
!17 = !DIDerivedType(tag: DW_TAG_inheritance, scope: !15, baseType: !18, offset: 24, flags: DIFlagVirtual, extraData: i32 0)
!18 = distinct !DICompositeType(tag: DW_TAG_structure_type, name: "Base", file: !3, line: 9, size: 128, flags: DIFlagTypePassByReference | DIFlagNonTrivial, elements: !19, vtableHolder: !18, identifier: "_ZTS4Base")
!19 = !{!20, !25, !26}
!20 = !DIDerivedType(tag: DW_TAG_member, name: "_vptr$Base", scope: !3, file: !3, baseType: !21, size: 64, flags: DIFlagArtificial)
!21 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !22, size: 64)
!22 = !DIDerivedType(tag: DW_TAG_pointer_type, name: "__vtbl_ptr_type", baseType: !23, size: 64)
!23 = !DISubroutineType(types: !24)
!24 = !{!4}
!25 = !DIDerivedType(tag: DW_TAG_member, name: "b", scope: !18, file: !3, line: 9, baseType: !4, size: 32, offset: 64)
!26 = !DISubprogram(name: "~Base", scope: !18, file: !3, line: 9, type: !27, scopeLine: 9, containingType: !18, virtualIndex: 0, flags: DIFlagPrototyped, spFlags: DISPFlagVirtual | DISPFlagOptimized)
!27 = !DISubroutineType(types: !28)
!28 = !{null, !29}
!29 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !18, size: 64, flags: DIFlagArtificial | DIFlagObjectPointer)
!30 = !DIDerivedType(tag: DW_TAG_member, name: "_vptr$D", scope: !3, file: !3, baseType: !21, size: 64, flags: DIFlagArtificial)
!31 = !DIDerivedType(tag: DW_TAG_variable, name: "sm", scope: !15, file: !3, line: 11, baseType: !32, flags: DIFlagStaticMember, extraData: i32 3)
!32 = !DIDerivedType(tag: DW_TAG_const_type, baseType: !4)
!33 = !DIDerivedType(tag: DW_TAG_variable, name: "sv", scope: !15, file: !3, line: 12, baseType: !4, flags: DIFlagStaticMember)
!34 = !DIDerivedType(tag: DW_TAG_member, scope: !15, file: !3, line: 14, baseType: !35, size: 32, offset: 64)
!35 = distinct !DICompositeType(tag: DW_TAG_union_type, scope: !15, file: !3, line: 14, size: 32, flags: DIFlagExportSymbols | DIFlagTypePassByValue, elements: !36, identifier: "_ZTSN1DUt_E")
!36 = !{!37, !38}
!37 = !DIDerivedType(tag: DW_TAG_member, name: "u1", scope: !35, file: !3, line: 14, baseType: !4, size: 32)
!38 = !DIDerivedType(tag: DW_TAG_member, name: "u2", scope: !35, file: !3, line: 14, baseType: !39, size: 32)
!39 = !DIBasicType(name: "float", size: 32, encoding: DW_ATE_float)
!40 = !DIDerivedType(tag: DW_TAG_member, name: "cv", scope: !15, file: !3, line: 15, baseType: !41, size: 32, offset: 96)
!41 = !DIDerivedType(tag: DW_TAG_const_type, baseType: !42)
!42 = !DIDerivedType(tag: DW_TAG_volatile_type, baseType: !4)
!43 = !DIDerivedType(tag: DW_TAG_member, name: "bits", scope: !15, file: !3, line: 16, baseType: !4, size: 3, offset: 128, flags: DIFlagBitField, extraData: i64 128)
!44 = !DISubprogram(name: "D", scope: !15, file: !3, line: 17, type: !45, scopeLine: 17, flags: DIFlagPrototyped, spFlags: DISPFlagOptimized)
!45 = !DISubroutineType(types: !46)
!46 = !{null, !47}
!47 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !15, size: 64, flags: DIFlagArtificial | DIFlagObjectPointer)
!48 = !{!0, !5, !49, !52, !57, !75, !82, !86, !92}
!49 = !DIGlobalVariableExpression(var: !50, expr: !DIExpression())
!50 = distinct !DIGlobalVariable(name: "pm", scope: !7, file: !3, line: 23, type: !51, isLocal: false, isDefinition: true)
!51 = !DIDerivedType(tag: DW_TAG_ptr_to_member_type, baseType: !4, size: 64, extraData: !15)
!52 = !DIGlobalVariableExpression(var: !53, expr: !DIExpression())
!53 = distinct !DIGlobalVariable(name: "pmf", scope: !7, file: !3, line: 24, type: !54, isLocal: false, isDefinition: true)
!54 = !DIDerivedType(tag: DW_TAG_ptr_to_member_type, baseType: !55, size: 128, extraData: !15)
!55 = !DISubroutineType(types: !56)
!56 = !{!4, !47, !4}
!57 = !DIGlobalVariableExpression(var: !58, expr: !DIExpression())
!58 = distinct !DIGlobalVariable(name: "s", scope: !7, file: !3, line: 25, type: !59, isLocal: false, isDefinition: true)
!59 = distinct !DICompositeType(tag: DW_TAG_structure_type, name: "S<int, 3, Wrap, char, long>", file: !3, line: 6, size: 96, flags: DIFlagTypePassByValue, elements: !60, templateParams: !65, identifier: "_ZTS1SIiLi3E4WrapJclEE")
!60 = !{!61}
!61 = !DIDerivedType(tag: DW_TAG_member, name: "x", scope: !59, file: !3, line: 6, baseType: !62, size: 96)
!62 = !DICompositeType(tag: DW_TAG_array_type, baseType: !4, size: 96, elements: !63)
!63 = !{!64}
!64 = !DISubrange(count: 3)
!65 = !{!66, !67, !68, !69}
!66 = !DITemplateTypeParameter(name: "X", type: !4)
!67 = !DITemplateValueParameter(name: "N", type: !4, value: i32 3)
!68 = !DITemplateValueParameter(tag: DW_TAG_GNU_template_template_param, name: "W", value: !"Wrap")
!69 = !DITemplateValueParameter(tag: DW_TAG_GNU_template_parameter_pack, name: "P", value: !70)
!70 = !{!71, !73}
!71 = !DITemplateTypeParameter(type: !72)
!72 = !DIBasicType(name: "char", size: 8, encoding: DW_ATE_signed_char)
!73 = !DITemplateTypeParameter(type: !74)
!74 = !DIBasicType(name: "long", size: 64, encoding: DW_ATE_signed)
!75 = !DIGlobalVariableExpression(var: !76, expr: !DIExpression())
!76 = distinct !DIGlobalVariable(name: "al", scope: !7, file: !3, line: 26, type: !77, isLocal: false, isDefinition: true)
!77 = !DIDerivedType(tag: DW_TAG_typedef, name: "Alias<int>", file: !3, line: 8, baseType: !78)
!78 = distinct !DICompositeType(tag: DW_TAG_structure_type, name: "Wrap<int>", file: !3, line: 7, size: 32, flags: DIFlagTypePassByValue, elements: !79, templateParams: !81, identifier: "_ZTS4WrapIiE")
!79 = !{!80}
!80 = !DIDerivedType(tag: DW_TAG_member, name: "w", scope: !78, file: !3, line: 7, baseType: !4, size: 32)
!81 = !{!66}
!82 = !DIGlobalVariableExpression(var: !83, expr: !DIExpression())
!83 = distinct !DIGlobalVariable(name: "vp", scope: !7, file: !3, line: 27, type: !84, isLocal: false, isDefinition: true)
!84 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !85, size: 64)
!85 = !DIDerivedType(tag: DW_TAG_typedef, name: "V", file: !3, line: 20, baseType: null)
!86 = !DIGlobalVariableExpression(var: !87, expr: !DIExpression())
!87 = distinct !DIGlobalVariable(name: "gv", scope: !7, file: !3, line: 28, type: !88, isLocal: false, isDefinition: true)
!88 = !DIDerivedType(tag: DW_TAG_typedef, name: "vec4", file: !3, line: 21, baseType: !89)
!89 = !DICompositeType(tag: DW_TAG_array_type, baseType: !4, size: 128, flags: DIFlagVector, elements: !90)
!90 = !{!91}
!91 = !DISubrange(count: 4)
!92 = !DIGlobalVariableExpression(var: !93, expr: !DIExpression())
!93 = distinct !DIGlobalVariable(name: "ge", scope: !7, file: !3, line: 29, type: !9, isLocal: false, isDefinition: true)
!94 = !{!95, !96, !102}
!95 = !DIImportedEntity(tag: DW_TAG_imported_module, scope: !7, entity: !2, file: !3, line: 3)
!96 = !DIImportedEntity(tag: DW_TAG_imported_declaration, scope: !7, entity: !97, file: !3, line: 4)
!97 = distinct !DISubprogram(name: "nf", linkageName: "_ZN2ns2nfEi", scope: !2, file: !3, line: 2, type: !98, scopeLine: 2, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !7, retainedNodes: !100)
!98 = !DISubroutineType(types: !99)
!99 = !{!4, !4}
!100 = !{!101}
!101 = !DILocalVariable(name: "x", arg: 1, scope: !97, file: !3, line: 2, type: !4)
!102 = !DIImportedEntity(tag: DW_TAG_imported_declaration, scope: !7, entity: !103, file: !3, line: 5)
!103 = distinct !DICompositeType(tag: DW_TAG_structure_type, name: "T", scope: !2, file: !3, line: 2, size: 32, flags: DIFlagTypePassByValue, elements: !104, identifier: "_ZTSN2ns1TE")
!104 = !{!105}
!105 = !DIDerivedType(tag: DW_TAG_member, name: "t", scope: !103, file: !3, line: 2, baseType: !4, size: 32)
!106 = !{i32 7, !"Dwarf Version", i32 5}
!107 = !{i32 2, !"Debug Info Version", i32 3}
!108 = !{i32 1, !"wchar_size", i32 4}
!109 = !{i32 8, !"PIC Level", i32 2}
!110 = !{i32 7, !"PIE Level", i32 2}
!111 = !{i32 7, !"uwtable", i32 2}
!112 = !{i32 7, !"debug-info-assignment-tracking", i1 true}
!113 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
!114 = !DILocation(line: 0, scope: !97)
!115 = !DILocation(line: 2, column: 53, scope: !97)
!116 = !DILocation(line: 2, column: 44, scope: !97)
!117 = distinct !DISubprogram(name: "use", linkageName: "_Z3usei", scope: !3, file: !3, line: 30, type: !98, scopeLine: 30, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !7, retainedNodes: !118)
!118 = !{!119, !120, !121, !122, !129}
!119 = !DILocalVariable(name: "n", arg: 1, scope: !117, file: !3, line: 30, type: !4)
!120 = !DILocalVariable(name: "d", scope: !117, file: !3, line: 31, type: !15)
!121 = !DILocalVariable(name: "v", scope: !117, file: !3, line: 32, type: !88)
!122 = !DILocalVariable(name: "a", scope: !117, file: !3, line: 33, type: !123)
!123 = !DIDerivedType(tag: DW_TAG_typedef, name: "Alias<char>", file: !3, line: 8, baseType: !124)
!124 = distinct !DICompositeType(tag: DW_TAG_structure_type, name: "Wrap<char>", file: !3, line: 7, size: 8, flags: DIFlagTypePassByValue, elements: !125, templateParams: !127, identifier: "_ZTS4WrapIcE")
!125 = !{!126}
!126 = !DIDerivedType(tag: DW_TAG_member, name: "w", scope: !124, file: !3, line: 7, baseType: !72, size: 8)
!127 = !{!128}
!128 = !DITemplateTypeParameter(name: "X", type: !72)
!129 = !DILocalVariable(name: "arr", scope: !117, file: !3, line: 34, type: !130)
!130 = !DICompositeType(tag: DW_TAG_array_type, baseType: !4, size: 128, elements: !90)
!131 = distinct !DIAssignID()
!132 = !DILocation(line: 0, scope: !117)
!133 = distinct !DIAssignID()
!134 = distinct !DIAssignID()
!135 = distinct !DIAssignID()
!136 = !DILocation(line: 31, column: 3, scope: !117)
!137 = !DILocalVariable(name: "this", arg: 1, scope: !138, type: !140, flags: DIFlagArtificial | DIFlagObjectPointer)
!138 = distinct !DISubprogram(name: "D", linkageName: "_ZN1DC1Ev", scope: !15, file: !3, line: 17, type: !45, scopeLine: 17, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !7, declaration: !44, retainedNodes: !139)
!139 = !{!137}
!140 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !15, size: 64)
!141 = !DILocation(line: 0, scope: !138, inlinedAt: !142)
!142 = distinct !DILocation(line: 31, column: 5, scope: !117)
!143 = !DILocation(line: 17, column: 9, scope: !138, inlinedAt: !142)
!144 = !{!145, !148, i64 12}
!145 = !{!"_ZTS1D", !146, i64 8, !148, i64 12, !148, i64 16}
!146 = !{!"omnipotent char", !147, i64 0}
!147 = !{!"Simple C++ TBAA"}
!148 = !{!"int", !146, i64 0}
!149 = distinct !DIAssignID()
!150 = !DILocation(line: 34, column: 3, scope: !117)
!151 = !DILocation(line: 34, column: 7, scope: !117)
!152 = distinct !DIAssignID()
!153 = !DILocation(line: 35, column: 38, scope: !117)
!154 = !DILocation(line: 35, column: 32, scope: !117)
!155 = !{!148, !148, i64 0}
!156 = !DILocation(line: 35, column: 48, scope: !117)
!157 = !DILocation(line: 35, column: 68, scope: !117)
!158 = !{!159, !159, i64 0}
!159 = !{!"_ZTS1E", !146, i64 0}
!160 = !DILocation(line: 35, column: 63, scope: !117)
!161 = !DILocation(line: 35, column: 81, scope: !117)
!162 = !DILocation(line: 35, column: 52, scope: !117)
!163 = !DILocation(line: 35, column: 61, scope: !117)
!164 = !DILocation(line: 35, column: 71, scope: !117)
!165 = !DILocation(line: 35, column: 79, scope: !117)
!166 = !DILocation(line: 36, column: 1, scope: !117)
