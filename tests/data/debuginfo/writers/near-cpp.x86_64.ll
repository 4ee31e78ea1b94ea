; ModuleID = 'near.cpp'
source_filename = "near.cpp"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

%struct.S = type { [3 x i32] }
%struct.Wrap = type { i32 }
%struct.D = type <{ ptr, %union.anon, i32, i8, [7 x i8], %struct.Base.base, [4 x i8] }>
%union.anon = type { i32 }
%struct.Base.base = type <{ ptr, i32 }>
%struct.Wrap.0 = type { i8 }
%"struct.ns::T" = type { i32 }

$_ZN1DC1Ev = comdat any

$_ZN1DD1Ev = comdat any

$_ZN4BaseC2Ev = comdat any

$_ZN1DD0Ev = comdat any

$_ZTv0_n24_N1DD1Ev = comdat any

$_ZTv0_n24_N1DD0Ev = comdat any

$_ZN4BaseD2Ev = comdat any

$_ZN4BaseD0Ev = comdat any

$_ZN1DD2Ev = comdat any

$_ZTV1D = comdat any

$_ZTT1D = comdat any

$_ZTS1D = comdat any

$_ZTS4Base = comdat any

$_ZTI4Base = comdat any

$_ZTI1D = comdat any

$_ZTV4Base = comdat any

@_ZN2ns2nvE = dso_local global i32 1, align 4, !dbg !0
@_ZN1D2svE = dso_local global i32 2, align 4, !dbg !5
@pm = dso_local global i64 -1, align 8, !dbg !49
@pmf = dso_local global { i64, i64 } zeroinitializer, align 8, !dbg !52
@s = dso_local global %struct.S zeroinitializer, align 4, !dbg !57
@al = dso_local global %struct.Wrap zeroinitializer, align 4, !dbg !75
@vp = dso_local global ptr null, align 8, !dbg !82
@gv = dso_local global <4 x i32> zeroinitializer, align 16, !dbg !86
@ge = dso_local global i16 0, align 2, !dbg !92
@_ZTV1D = linkonce_odr dso_local unnamed_addr constant { [5 x ptr], [5 x ptr] } { [5 x ptr] [ptr inttoptr (i64 24 to ptr), ptr null, ptr @_ZTI1D, ptr @_ZN1DD1Ev, ptr @_ZN1DD0Ev], [5 x ptr] [ptr inttoptr (i64 -24 to ptr), ptr inttoptr (i64 -24 to ptr), ptr @_ZTI1D, ptr @_ZTv0_n24_N1DD1Ev, ptr @_ZTv0_n24_N1DD0Ev] }, comdat, align 8
@_ZTT1D = linkonce_odr dso_local unnamed_addr constant [2 x ptr] [ptr getelementptr inbounds inrange(-24, 16) ({ [5 x ptr], [5 x ptr] }, ptr @_ZTV1D, i32 0, i32 0, i32 3), ptr getelementptr inbounds inrange(-24, 16) ({ [5 x ptr], [5 x ptr] }, ptr @_ZTV1D, i32 0, i32 1, i32 3)], comdat, align 8
@_ZTVN10__cxxabiv121__vmi_class_type_infoE = external global [0 x ptr]
@_ZTS1D = linkonce_odr dso_local constant [3 x i8] c"1D\00", comdat, align 1
@_ZTVN10__cxxabiv117__class_type_infoE = external global [0 x ptr]
@_ZTS4Base = linkonce_odr dso_local constant [6 x i8] c"4Base\00", comdat, align 1
@_ZTI4Base = linkonce_odr dso_local constant { ptr, ptr } { ptr getelementptr inbounds (ptr, ptr @_ZTVN10__cxxabiv117__class_type_infoE, i64 2), ptr @_ZTS4Base }, comdat, align 8
@_ZTI1D = linkonce_odr dso_local constant { ptr, ptr, i32, i32, ptr, i64 } { ptr getelementptr inbounds (ptr, ptr @_ZTVN10__cxxabiv121__vmi_class_type_infoE, i64 2), ptr @_ZTS1D, i32 0, i32 1, ptr @_ZTI4Base, i64 -6141 }, comdat, align 8
@_ZTV4Base = linkonce_odr dso_local unnamed_addr constant { [4 x ptr] } { [4 x ptr] [ptr null, ptr @_ZTI4Base, ptr @_ZN4BaseD2Ev, ptr @_ZN4BaseD0Ev] }, comdat, align 8

; Function Attrs: mustprogress noinline nounwind optnone uwtable
define dso_local noundef i32 @_ZN2ns2nfEi(i32 noundef %0) #0 !dbg !97 {
  %2 = alloca i32, align 4
  store i32 %0, ptr %2, align 4
    #dbg_declare(ptr %2, !113, !DIExpression(), !114)
  %3 = load i32, ptr %2, align 4, !dbg !115
  %4 = add nsw i32 %3, 1, !dbg !116
  ret i32 %4, !dbg !117
}

; Function Attrs: mustprogress noinline optnone uwtable
define dso_local noundef i32 @_Z3usei(i32 noundef %0) #1 !dbg !118 {
  %2 = alloca i32, align 4
  %3 = alloca %struct.D, align 8
  %4 = alloca <4 x i32>, align 16
  %5 = alloca %struct.Wrap.0, align 1
  %6 = alloca [4 x i32], align 16
  %7 = alloca %"struct.ns::T", align 4
  store i32 %0, ptr %2, align 4
    #dbg_declare(ptr %2, !119, !DIExpression(), !120)
    #dbg_declare(ptr %3, !121, !DIExpression(), !122)
  call void @_ZN1DC1Ev(ptr noundef nonnull align 8 dereferenceable(17) %3), !dbg !122
    #dbg_declare(ptr %4, !123, !DIExpression(), !124)
  store <4 x i32> <i32 1, i32 2, i32 3, i32 4>, ptr %4, align 16, !dbg !124
    #dbg_declare(ptr %5, !125, !DIExpression(), !132)
  call void @llvm.memset.p0.i64(ptr align 1 %5, i8 0, i64 1, i1 false), !dbg !132
    #dbg_declare(ptr %6, !133, !DIExpression(), !135)
  call void @llvm.memset.p0.i64(ptr align 16 %6, i8 0, i64 16, i1 false), !dbg !135
  %8 = getelementptr inbounds %struct.D, ptr %3, i32 0, i32 3, !dbg !136
  %9 = load i8, ptr %8, align 8, !dbg !136
  %10 = shl i8 %9, 5, !dbg !136
  %11 = ashr i8 %10, 5, !dbg !136
  %12 = sext i8 %11 to i32, !dbg !136
  %13 = load <4 x i32>, ptr %4, align 16, !dbg !137
  %14 = extractelement <4 x i32> %13, i32 1, !dbg !137
  %15 = add nsw i32 %12, %14, !dbg !138
  %16 = getelementptr inbounds %struct.Wrap.0, ptr %5, i32 0, i32 0, !dbg !139
  %17 = load i8, ptr %16, align 1, !dbg !139
  %18 = sext i8 %17 to i32, !dbg !140
  %19 = add nsw i32 %15, %18, !dbg !141
  %20 = load i32, ptr %2, align 4, !dbg !142
  %21 = and i32 %20, 3, !dbg !143
  %22 = sext i32 %21 to i64, !dbg !144
  %23 = getelementptr inbounds [4 x i32], ptr %6, i64 0, i64 %22, !dbg !144
  %24 = load i32, ptr %23, align 4, !dbg !144
  %25 = add nsw i32 %19, %24, !dbg !145
  %26 = load i32, ptr @_ZN2ns2nvE, align 4, !dbg !146
  %27 = call noundef i32 @_ZN2ns2nfEi(i32 noundef %26), !dbg !147
  %28 = add nsw i32 %25, %27, !dbg !148
  %29 = getelementptr inbounds %"struct.ns::T", ptr %7, i32 0, i32 0, !dbg !149
  store i32 1, ptr %29, align 4, !dbg !149
  %30 = add nsw i32 %28, 1, !dbg !150
  %31 = load i16, ptr @ge, align 2, !dbg !151
  %32 = sext i16 %31 to i32, !dbg !152
  %33 = add nsw i32 %30, %32, !dbg !153
  %34 = add nsw i32 %33, 3, !dbg !154
  %35 = load i32, ptr @_ZN1D2svE, align 4, !dbg !155
  %36 = add nsw i32 %34, %35, !dbg !156
  call void @_ZN1DD1Ev(ptr noundef nonnull align 8 dereferenceable(17) %3) #5, !dbg !157
  ret i32 %36, !dbg !157
}

; Function Attrs: mustprogress noinline nounwind optnone uwtable
define linkonce_odr dso_local void @_ZN1DC1Ev(ptr noundef nonnull align 8 dereferenceable(17) %0) unnamed_addr #0 comdat align 2 !dbg !158 {
  %2 = alloca ptr, align 8
  store ptr %0, ptr %2, align 8
    #dbg_declare(ptr %2, !159, !DIExpression(), !161)
  %3 = load ptr, ptr %2, align 8
  %4 = getelementptr inbounds i8, ptr %3, i64 24, !dbg !162
  call void @_ZN4BaseC2Ev(ptr noundef nonnull align 8 dereferenceable(12) %4) #5, !dbg !163
  store ptr getelementptr inbounds inrange(-24, 16) ({ [5 x ptr], [5 x ptr] }, ptr @_ZTV1D, i32 0, i32 0, i32 3), ptr %3, align 8, !dbg !162
  %5 = getelementptr inbounds i8, ptr %3, i64 24, !dbg !162
  store ptr getelementptr inbounds inrange(-24, 16) ({ [5 x ptr], [5 x ptr] }, ptr @_ZTV1D, i32 0, i32 1, i32 3), ptr %5, align 8, !dbg !162
  %6 = getelementptr inbounds %struct.D, ptr %3, i32 0, i32 2, !dbg !164
  store volatile i32 0, ptr %6, align 4, !dbg !164
  %7 = getelementptr inbounds %struct.D, ptr %3, i32 0, i32 3, !dbg !165
  %8 = load i8, ptr %7, align 8, !dbg !165
  %9 = and i8 %8, -8, !dbg !165
  %10 = or i8 %9, 1, !dbg !165
  store i8 %10, ptr %7, align 8, !dbg !165
  ret void, !dbg !166
}

; Function Attrs: nocallback nofree nounwind willreturn memory(argmem: write)
declare void @llvm.memset.p0.i64(ptr nocapture writeonly, i8, i64, i1 immarg) #2

; Function Attrs: mustprogress noinline nounwind optnone uwtable
define linkonce_odr dso_local void @_ZN1DD1Ev(ptr noundef nonnull align 8 dereferenceable(17) %0) unnamed_addr #0 comdat align 2 !dbg !167 {
  %2 = alloca ptr, align 8
  store ptr %0, ptr %2, align 8
    #dbg_declare(ptr %2, !169, !DIExpression(), !170)
  %3 = load ptr, ptr %2, align 8
  call void @_ZN1DD2Ev(ptr noundef nonnull align 8 dereferenceable(17) %3, ptr noundef @_ZTT1D) #5, !dbg !171
  %4 = getelementptr inbounds i8, ptr %3, i64 24, !dbg !171
  call void @_ZN4BaseD2Ev(ptr noundef nonnull align 8 dereferenceable(12) %4) #5, !dbg !171
  ret void, !dbg !171
}

; Function Attrs: mustprogress noinline nounwind optnone uwtable
define linkonce_odr dso_local void @_ZN4BaseC2Ev(ptr noundef nonnull align 8 dereferenceable(12) %0) unnamed_addr #0 comdat align 2 !dbg !172 {
  %2 = alloca ptr, align 8
  store ptr %0, ptr %2, align 8
    #dbg_declare(ptr %2, !174, !DIExpression(), !176)
  %3 = load ptr, ptr %2, align 8
  store ptr getelementptr inbounds inrange(-16, 16) ({ [4 x ptr] }, ptr @_ZTV4Base, i32 0, i32 0, i32 2), ptr %3, align 8, !dbg !177
  ret void, !dbg !177
}

; Function Attrs: mustprogress noinline nounwind optnone uwtable
define linkonce_odr dso_local void @_ZN1DD0Ev(ptr noundef nonnull align 8 dereferenceable(17) %0) unnamed_addr #0 comdat align 2 !dbg !178 {
  %2 = alloca ptr, align 8
  store ptr %0, ptr %2, align 8
    #dbg_declare(ptr %2, !179, !DIExpression(), !180)
  %3 = load ptr, ptr %2, align 8
  call void @_ZN1DD1Ev(ptr noundef nonnull align 8 dereferenceable(17) %3) #5, !dbg !181
  call void @_ZdlPvm(ptr noundef %3, i64 noundef 40) #6, !dbg !181
  ret void, !dbg !181
}

; Function Attrs: noinline nounwind optnone uwtable
define linkonce_odr dso_local void @_ZTv0_n24_N1DD1Ev(ptr noundef %0) unnamed_addr #3 comdat align 2 !dbg !182 {
  %2 = alloca ptr, align 8
  store ptr %0, ptr %2, align 8
  %3 = load ptr, ptr %2, align 8, !dbg !184
  %4 = load ptr, ptr %3, align 8, !dbg !184
  %5 = getelementptr inbounds i8, ptr %4, i64 -24, !dbg !184
  %6 = load i64, ptr %5, align 8, !dbg !184
  %7 = getelementptr inbounds i8, ptr %3, i64 %6, !dbg !184
  tail call void @_ZN1DD1Ev(ptr noundef nonnull align 8 dereferenceable(17) %7) #5, !dbg !184
  ret void, !dbg !184
}

; Function Attrs: noinline nounwind optnone uwtable
define linkonce_odr dso_local void @_ZTv0_n24_N1DD0Ev(ptr noundef %0) unnamed_addr #3 comdat align 2 !dbg !185 {
  %2 = alloca ptr, align 8
  store ptr %0, ptr %2, align 8
  %3 = load ptr, ptr %2, align 8, !dbg !186
  %4 = load ptr, ptr %3, align 8, !dbg !186
  %5 = getelementptr inbounds i8, ptr %4, i64 -24, !dbg !186
  %6 = load i64, ptr %5, align 8, !dbg !186
  %7 = getelementptr inbounds i8, ptr %3, i64 %6, !dbg !186
  tail call void @_ZN1DD0Ev(ptr noundef nonnull align 8 dereferenceable(17) %7) #5, !dbg !186
  ret void, !dbg !186
}

; Function Attrs: mustprogress noinline nounwind optnone uwtable
define linkonce_odr dso_local void @_ZN4BaseD2Ev(ptr noundef nonnull align 8 dereferenceable(12) %0) unnamed_addr #0 comdat align 2 !dbg !187 {
  %2 = alloca ptr, align 8
  store ptr %0, ptr %2, align 8
    #dbg_declare(ptr %2, !188, !DIExpression(), !189)
  %3 = load ptr, ptr %2, align 8
  ret void, !dbg !190
}

; Function Attrs: mustprogress noinline nounwind optnone uwtable
define linkonce_odr dso_local void @_ZN4BaseD0Ev(ptr noundef nonnull align 8 dereferenceable(12) %0) unnamed_addr #0 comdat align 2 !dbg !191 {
  %2 = alloca ptr, align 8
  store ptr %0, ptr %2, align 8
    #dbg_declare(ptr %2, !192, !DIExpression(), !193)
  %3 = load ptr, ptr %2, align 8
  call void @_ZN4BaseD2Ev(ptr noundef nonnull align 8 dereferenceable(12) %3) #5, !dbg !194
  call void @_ZdlPvm(ptr noundef %3, i64 noundef 16) #6, !dbg !194
  ret void, !dbg !195
}

; Function Attrs: nobuiltin nounwind
declare void @_ZdlPvm(ptr noundef, i64 noundef) #4

; Function Attrs: mustprogress noinline nounwind optnone uwtable
define linkonce_odr dso_local void @_ZN1DD2Ev(ptr noundef nonnull align 8 dereferenceable(17) %0, ptr noundef %1) unnamed_addr #0 comdat align 2 !dbg !196 {
  %3 = alloca ptr, align 8
  %4 = alloca ptr, align 8
  store ptr %0, ptr %3, align 8
    #dbg_declare(ptr %3, !197, !DIExpression(), !198)
  store ptr %1, ptr %4, align 8
    #dbg_declare(ptr %4, !199, !DIExpression(), !198)
  %5 = load ptr, ptr %3, align 8
  %6 = load ptr, ptr %4, align 8
  ret void, !dbg !202
}

attributes #0 = { mustprogress noinline nounwind optnone uwtable "frame-pointer"="all" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { mustprogress noinline optnone uwtable "frame-pointer"="all" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #2 = { nocallback nofree nounwind willreturn memory(argmem: write) }
attributes #3 = { noinline nounwind optnone uwtable "frame-pointer"="all" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #4 = { nobuiltin nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #5 = { nounwind }
attributes #6 = { builtin nounwind }

!llvm.dbg.cu = !{!7}
!llvm.module.flags = !{!105, !106, !107, !108, !109, !110, !111}
!llvm.ident = !{!112}

!0 = !DIGlobalVariableExpression(var: !1, expr: !DIExpression())
!1 = distinct !DIGlobalVariable(name: "nv", linkageName: "_ZN2ns2nvE", scope: !2, file: !3, line: 2, type: !4, isLocal: false, isDefinition: true)
!2 = !DINamespace(name: "ns", scope: null)
!3 = !DIFile(filename: "near.cpp", directory: "/tmp/c2/nm", checksumkind: CSK_MD5, checksum: "3926da368fa007c1e3177e694513ff1f")
!4 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!5 = !DIGlobalVariableExpression(var: !6, expr: !DIExpression())
!6 = distinct !DIGlobalVariable(name: "sv", linkageName: "_ZN1D2svE", scope: !7, file: !3, line: 19, type: !4, isLocal: false, isDefinition: true, declaration: !33)
!7 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !3, producer: "Debian clang version 19.1.7 (3~deb12u1)", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug, enums: !8, retainedTypes: !14, globals: !48, imports: !94, splitDebugInlining: false, nameTableKind: None)
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
!26 = !DISubprogram(name: "~Base", scope: !18, file: !3, line: 9, type: !27, scopeLine: 9, containingType: !18, virtualIndex: 0, flags: DIFlagPrototyped, spFlags: DISPFlagVirtual)
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
!44 = !DISubprogram(name: "D", scope: !15, file: !3, line: 17, type: !45, scopeLine: 17, flags: DIFlagPrototyped, spFlags: 0)
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
!77 = !DIDerivedType(tag: DW_TAG_template_alias, name: "Alias<int>", file: !3, line: 8, baseType: !78, extraData: !81)
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
!94 = !{!95, !96, !101}
!95 = !DIImportedEntity(tag: DW_TAG_imported_module, scope: !7, entity: !2, file: !3, line: 3)
!96 = !DIImportedEntity(tag: DW_TAG_imported_declaration, scope: !7, entity: !97, file: !3, line: 4)
!97 = distinct !DISubprogram(name: "nf", linkageName: "_ZN2ns2nfEi", scope: !2, file: !3, line: 2, type: !98, scopeLine: 2, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !7, retainedNodes: !100)
!98 = !DISubroutineType(types: !99)
!99 = !{!4, !4}
!100 = !{}
!101 = !DIImportedEntity(tag: DW_TAG_imported_declaration, scope: !7, entity: !102, file: !3, line: 5)
!102 = distinct !DICompositeType(tag: DW_TAG_structure_type, name: "T", scope: !2, file: !3, line: 2, size: 32, flags: DIFlagTypePassByValue, elements: !103, identifier: "_ZTSN2ns1TE")
!103 = !{!104}
!104 = !DIDerivedType(tag: DW_TAG_member, name: "t", scope: !102, file: !3, line: 2, baseType: !4, size: 32)
!105 = !{i32 7, !"Dwarf Version", i32 5}
!106 = !{i32 2, !"Debug Info Version", i32 3}
!107 = !{i32 1, !"wchar_size", i32 4}
!108 = !{i32 8, !"PIC Level", i32 2}
!109 = !{i32 7, !"PIE Level", i32 2}
!110 = !{i32 7, !"uwtable", i32 2}
!111 = !{i32 7, !"frame-pointer", i32 2}
!112 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
!113 = !DILocalVariable(name: "x", arg: 1, scope: !97, file: !3, line: 2, type: !4)
!114 = !DILocation(line: 2, column: 39, scope: !97)
!115 = !DILocation(line: 2, column: 51, scope: !97)
!116 = !DILocation(line: 2, column: 53, scope: !97)
!117 = !DILocation(line: 2, column: 44, scope: !97)
!118 = distinct !DISubprogram(name: "use", linkageName: "_Z3usei", scope: !3, file: !3, line: 30, type: !98, scopeLine: 30, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !7, retainedNodes: !100)
!119 = !DILocalVariable(name: "n", arg: 1, scope: !118, file: !3, line: 30, type: !4)
!120 = !DILocation(line: 30, column: 13, scope: !118)
!121 = !DILocalVariable(name: "d", scope: !118, file: !3, line: 31, type: !15)
!122 = !DILocation(line: 31, column: 5, scope: !118)
!123 = !DILocalVariable(name: "v", scope: !118, file: !3, line: 32, type: !88)
!124 = !DILocation(line: 32, column: 8, scope: !118)
!125 = !DILocalVariable(name: "a", scope: !118, file: !3, line: 33, type: !126)
!126 = !DIDerivedType(tag: DW_TAG_template_alias, name: "Alias<char>", file: !3, line: 8, baseType: !127, extraData: !130)
!127 = distinct !DICompositeType(tag: DW_TAG_structure_type, name: "Wrap<char>", file: !3, line: 7, size: 8, flags: DIFlagTypePassByValue, elements: !128, templateParams: !130, identifier: "_ZTS4WrapIcE")
!128 = !{!129}
!129 = !DIDerivedType(tag: DW_TAG_member, name: "w", scope: !127, file: !3, line: 7, baseType: !72, size: 8)
!130 = !{!131}
!131 = !DITemplateTypeParameter(name: "X", type: !72)
!132 = !DILocation(line: 33, column: 15, scope: !118)
!133 = !DILocalVariable(name: "arr", scope: !118, file: !3, line: 34, type: !134)
!134 = !DICompositeType(tag: DW_TAG_array_type, baseType: !4, size: 128, elements: !90)
!135 = !DILocation(line: 34, column: 7, scope: !118)
!136 = !DILocation(line: 35, column: 12, scope: !118)
!137 = !DILocation(line: 35, column: 19, scope: !118)
!138 = !DILocation(line: 35, column: 17, scope: !118)
!139 = !DILocation(line: 35, column: 28, scope: !118)
!140 = !DILocation(line: 35, column: 26, scope: !118)
!141 = !DILocation(line: 35, column: 24, scope: !118)
!142 = !DILocation(line: 35, column: 36, scope: !118)
!143 = !DILocation(line: 35, column: 38, scope: !118)
!144 = !DILocation(line: 35, column: 32, scope: !118)
!145 = !DILocation(line: 35, column: 30, scope: !118)
!146 = !DILocation(line: 35, column: 48, scope: !118)
!147 = !DILocation(line: 35, column: 45, scope: !118)
!148 = !DILocation(line: 35, column: 43, scope: !118)
!149 = !DILocation(line: 35, column: 55, scope: !118)
!150 = !DILocation(line: 35, column: 52, scope: !118)
!151 = !DILocation(line: 35, column: 68, scope: !118)
!152 = !DILocation(line: 35, column: 63, scope: !118)
!153 = !DILocation(line: 35, column: 61, scope: !118)
!154 = !DILocation(line: 35, column: 71, scope: !118)
!155 = !DILocation(line: 35, column: 81, scope: !118)
!156 = !DILocation(line: 35, column: 79, scope: !118)
!157 = !DILocation(line: 36, column: 1, scope: !118)
!158 = distinct !DISubprogram(name: "D", linkageName: "_ZN1DC1Ev", scope: !15, file: !3, line: 17, type: !45, scopeLine: 17, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !7, declaration: !44, retainedNodes: !100)
!159 = !DILocalVariable(name: "this", arg: 1, scope: !158, type: !160, flags: DIFlagArtificial | DIFlagObjectPointer)
!160 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !15, size: 64)
!161 = !DILocation(line: 0, scope: !158)
!162 = !DILocation(line: 17, column: 24, scope: !158)
!163 = !DILocation(line: 17, column: 3, scope: !158)
!164 = !DILocation(line: 17, column: 9, scope: !158)
!165 = !DILocation(line: 17, column: 16, scope: !158)
!166 = !DILocation(line: 17, column: 25, scope: !158)
!167 = distinct !DISubprogram(name: "~D", linkageName: "_ZN1DD1Ev", scope: !15, file: !3, line: 10, type: !45, scopeLine: 10, flags: DIFlagArtificial | DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !7, declaration: !168, retainedNodes: !100)
!168 = !DISubprogram(name: "~D", scope: !15, type: !45, containingType: !15, virtualIndex: 0, flags: DIFlagArtificial | DIFlagPrototyped, spFlags: DISPFlagVirtual)
!169 = !DILocalVariable(name: "this", arg: 1, scope: !167, type: !160, flags: DIFlagArtificial | DIFlagObjectPointer)
!170 = !DILocation(line: 0, scope: !167)
!171 = !DILocation(line: 10, column: 8, scope: !167)
!172 = distinct !DISubprogram(name: "Base", linkageName: "_ZN4BaseC2Ev", scope: !18, file: !3, line: 9, type: !27, scopeLine: 9, flags: DIFlagArtificial | DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !7, declaration: !173, retainedNodes: !100)
!173 = !DISubprogram(name: "Base", scope: !18, type: !27, flags: DIFlagArtificial | DIFlagPrototyped, spFlags: 0)
!174 = !DILocalVariable(name: "this", arg: 1, scope: !172, type: !175, flags: DIFlagArtificial | DIFlagObjectPointer)
!175 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !18, size: 64)
!176 = !DILocation(line: 0, scope: !172)
!177 = !DILocation(line: 9, column: 8, scope: !172)
!178 = distinct !DISubprogram(name: "~D", linkageName: "_ZN1DD0Ev", scope: !15, file: !3, line: 10, type: !45, scopeLine: 10, flags: DIFlagArtificial | DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !7, declaration: !168, retainedNodes: !100)
!179 = !DILocalVariable(name: "this", arg: 1, scope: !178, type: !160, flags: DIFlagArtificial | DIFlagObjectPointer)
!180 = !DILocation(line: 0, scope: !178)
!181 = !DILocation(line: 10, column: 8, scope: !178)
!182 = distinct !DISubprogram(linkageName: "_ZTv0_n24_N1DD1Ev", scope: !3, file: !3, line: 10, type: !183, flags: DIFlagArtificial | DIFlagThunk, spFlags: DISPFlagDefinition, unit: !7)
!183 = !DISubroutineType(types: !100)
!184 = !DILocation(line: 0, scope: !182)
!185 = distinct !DISubprogram(linkageName: "_ZTv0_n24_N1DD0Ev", scope: !3, file: !3, line: 10, type: !183, flags: DIFlagArtificial | DIFlagThunk, spFlags: DISPFlagDefinition, unit: !7)
!186 = !DILocation(line: 0, scope: !185)
!187 = distinct !DISubprogram(name: "~Base", linkageName: "_ZN4BaseD2Ev", scope: !18, file: !3, line: 9, type: !27, scopeLine: 9, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !7, declaration: !26, retainedNodes: !100)
!188 = !DILocalVariable(name: "this", arg: 1, scope: !187, type: !175, flags: DIFlagArtificial | DIFlagObjectPointer)
!189 = !DILocation(line: 0, scope: !187)
!190 = !DILocation(line: 9, column: 32, scope: !187)
!191 = distinct !DISubprogram(name: "~Base", linkageName: "_ZN4BaseD0Ev", scope: !18, file: !3, line: 9, type: !27, scopeLine: 9, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !7, declaration: !26, retainedNodes: !100)
!192 = !DILocalVariable(name: "this", arg: 1, scope: !191, type: !175, flags: DIFlagArtificial | DIFlagObjectPointer)
!193 = !DILocation(line: 0, scope: !191)
!194 = !DILocation(line: 9, column: 31, scope: !191)
!195 = !DILocation(line: 9, column: 32, scope: !191)
!196 = distinct !DISubprogram(name: "~D", linkageName: "_ZN1DD2Ev", scope: !15, file: !3, line: 10, type: !45, scopeLine: 10, flags: DIFlagArtificial | DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !7, declaration: !168, retainedNodes: !100)
!197 = !DILocalVariable(name: "this", arg: 1, scope: !196, type: !160, flags: DIFlagArtificial | DIFlagObjectPointer)
!198 = !DILocation(line: 0, scope: !196)
!199 = !DILocalVariable(name: "vtt", arg: 2, scope: !196, type: !200, flags: DIFlagArtificial)
!200 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !201, size: 64)
!201 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: null, size: 64)
!202 = !DILocation(line: 10, column: 8, scope: !196)
