; ModuleID = 'near.cpp'
source_filename = "near.cpp"
target datalayout = "e-m:w-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-windows-msvc19.33.0"

%struct.S = type { [3 x i32] }
%struct.Wrap = type { i32 }
%rtti.CompleteObjectLocator = type { i32, i32, i32, i32, i32, i32 }
%rtti.TypeDescriptor7 = type { ptr, ptr, [8 x i8] }
%rtti.ClassHierarchyDescriptor = type { i32, i32, i32, i32 }
%rtti.BaseClassDescriptor = type { i32, i32, i32, i32, i32, i32, i32 }
%rtti.TypeDescriptor10 = type { ptr, ptr, [11 x i8] }
%struct.D = type { ptr, %union.anon, i32, i32, %struct.Base }
%union.anon = type { i32 }
%struct.Base = type { ptr, i32 }
%struct.Wrap.0 = type { i8 }
%"struct.ns::T" = type { i32 }

$"??0D@@QEAA@XZ" = comdat any

$"??_DD@@QEAAXXZ" = comdat any

$"??0Base@@QEAA@XZ" = comdat any

$"??_GD@@UEAAPEAXI@Z" = comdat any

$"??_GBase@@UEAAPEAXI@Z" = comdat any

$"??1Base@@UEAA@XZ" = comdat any

$"??1D@@UEAA@XZ" = comdat any

$"??_8D@@7B@" = comdat any

$"??_7D@@6B@" = comdat largest

$"??_R4D@@6B@" = comdat any

$"??_R0?AUD@@@8" = comdat any

$"??_R3D@@8" = comdat any

$"??_R2D@@8" = comdat any

$"??_R1A@?0A@EA@D@@8" = comdat any

$"??_R1A@A@3FA@Base@@8" = comdat any

$"??_R0?AUBase@@@8" = comdat any

$"??_R3Base@@8" = comdat any

$"??_R2Base@@8" = comdat any

$"??_R1A@?0A@EA@Base@@8" = comdat any

$"??_7Base@@6B@" = comdat largest

$"??_R4Base@@6B@" = comdat any

@"?nv@ns@@3HA" = dso_local global i32 1, align 4, !dbg !0
@"?sv@D@@2HA" = dso_local global i32 2, align 4, !dbg !5
@"?pm@@3PEQD@@HEQ1@" = dso_local global { i32, i32 } { i32 0, i32 -1 }, align 8, !dbg !46
@"?pmf@@3P8D@@EAAHH@ZEQ1@" = dso_local global { ptr, i32, i32 } { ptr null, i32 0, i32 -1 }, align 8, !dbg !49
@"?s@@3U?$S@H$02UWrap@@DJ@@A" = dso_local global %struct.S zeroinitializer, align 4, !dbg !54
@"?al@@3U?$Wrap@H@@A" = dso_local global %struct.Wrap zeroinitializer, align 4, !dbg !72
@"?vp@@3PEAXEA" = dso_local global ptr null, align 8, !dbg !79
@"?gv@@3T?$__vector@H$03@__clang@@A" = dso_local global <4 x i32> zeroinitializer, align 16, !dbg !83
@"?ge@@3W4E@@A" = dso_local global i16 0, align 2, !dbg !89
@"??_8D@@7B@" = linkonce_odr unnamed_addr constant [2 x i32] [i32 0, i32 24], comdat, align 4
@0 = private unnamed_addr constant { [2 x ptr] } { [2 x ptr] [ptr @"??_R4D@@6B@", ptr @"??_GD@@UEAAPEAXI@Z"] }, comdat($"??_7D@@6B@")
@"??_R4D@@6B@" = linkonce_odr constant %rtti.CompleteObjectLocator { i32 1, i32 24, i32 0, i32 trunc (i64 sub nuw nsw (i64 ptrtoint (ptr @"??_R0?AUD@@@8" to i64), i64 ptrtoint (ptr @__ImageBase to i64)) to i32), i32 trunc (i64 sub nuw nsw (i64 ptrtoint (ptr @"??_R3D@@8" to i64), i64 ptrtoint (ptr @__ImageBase to i64)) to i32), i32 trunc (i64 sub nuw nsw (i64 ptrtoint (ptr @"??_R4D@@6B@" to i64), i64 ptrtoint (ptr @__ImageBase to i64)) to i32) }, comdat
@"??_7type_info@@6B@" = external constant ptr
@"??_R0?AUD@@@8" = linkonce_odr global %rtti.TypeDescriptor7 { ptr @"??_7type_info@@6B@", ptr null, [8 x i8] c".?AUD@@\00" }, comdat
@__ImageBase = external dso_local constant i8
@"??_R3D@@8" = linkonce_odr constant %rtti.ClassHierarchyDescriptor { i32 0, i32 0, i32 2, i32 trunc (i64 sub nuw nsw (i64 ptrtoint (ptr @"??_R2D@@8" to i64), i64 ptrtoint (ptr @__ImageBase to i64)) to i32) }, comdat
@"??_R2D@@8" = linkonce_odr constant [3 x i32] [i32 trunc (i64 sub nuw nsw (i64 ptrtoint (ptr @"??_R1A@?0A@EA@D@@8" to i64), i64 ptrtoint (ptr @__ImageBase to i64)) to i32), i32 trunc (i64 sub nuw nsw (i64 ptrtoint (ptr @"??_R1A@A@3FA@Base@@8" to i64), i64 ptrtoint (ptr @__ImageBase to i64)) to i32), i32 0], comdat
@"??_R1A@?0A@EA@D@@8" = linkonce_odr constant %rtti.BaseClassDescriptor { i32 trunc (i64 sub nuw nsw (i64 ptrtoint (ptr @"??_R0?AUD@@@8" to i64), i64 ptrtoint (ptr @__ImageBase to i64)) to i32), i32 1, i32 0, i32 -1, i32 0, i32 64, i32 trunc (i64 sub nuw nsw (i64 ptrtoint (ptr @"??_R3D@@8" to i64), i64 ptrtoint (ptr @__ImageBase to i64)) to i32) }, comdat
@"??_R1A@A@3FA@Base@@8" = linkonce_odr constant %rtti.BaseClassDescriptor { i32 trunc (i64 sub nuw nsw (i64 ptrtoint (ptr @"??_R0?AUBase@@@8" to i64), i64 ptrtoint (ptr @__ImageBase to i64)) to i32), i32 0, i32 0, i32 0, i32 4, i32 80, i32 trunc (i64 sub nuw nsw (i64 ptrtoint (ptr @"??_R3Base@@8" to i64), i64 ptrtoint (ptr @__ImageBase to i64)) to i32) }, comdat
@"??_R0?AUBase@@@8" = linkonce_odr global %rtti.TypeDescriptor10 { ptr @"??_7type_info@@6B@", ptr null, [11 x i8] c".?AUBase@@\00" }, comdat
@"??_R3Base@@8" = linkonce_odr constant %rtti.ClassHierarchyDescriptor { i32 0, i32 0, i32 1, i32 trunc (i64 sub nuw nsw (i64 ptrtoint (ptr @"??_R2Base@@8" to i64), i64 ptrtoint (ptr @__ImageBase to i64)) to i32) }, comdat
@"??_R2Base@@8" = linkonce_odr constant [2 x i32] [i32 trunc (i64 sub nuw nsw (i64 ptrtoint (ptr @"??_R1A@?0A@EA@Base@@8" to i64), i64 ptrtoint (ptr @__ImageBase to i64)) to i32), i32 0], comdat
@"??_R1A@?0A@EA@Base@@8" = linkonce_odr constant %rtti.BaseClassDescriptor { i32 trunc (i64 sub nuw nsw (i64 ptrtoint (ptr @"??_R0?AUBase@@@8" to i64), i64 ptrtoint (ptr @__ImageBase to i64)) to i32), i32 0, i32 0, i32 -1, i32 0, i32 64, i32 trunc (i64 sub nuw nsw (i64 ptrtoint (ptr @"??_R3Base@@8" to i64), i64 ptrtoint (ptr @__ImageBase to i64)) to i32) }, comdat
@1 = private unnamed_addr constant { [2 x ptr] } { [2 x ptr] [ptr @"??_R4Base@@6B@", ptr @"??_GBase@@UEAAPEAXI@Z"] }, comdat($"??_7Base@@6B@")
@"??_R4Base@@6B@" = linkonce_odr constant %rtti.CompleteObjectLocator { i32 1, i32 0, i32 0, i32 trunc (i64 sub nuw nsw (i64 ptrtoint (ptr @"??_R0?AUBase@@@8" to i64), i64 ptrtoint (ptr @__ImageBase to i64)) to i32), i32 trunc (i64 sub nuw nsw (i64 ptrtoint (ptr @"??_R3Base@@8" to i64), i64 ptrtoint (ptr @__ImageBase to i64)) to i32), i32 trunc (i64 sub nuw nsw (i64 ptrtoint (ptr @"??_R4Base@@6B@" to i64), i64 ptrtoint (ptr @__ImageBase to i64)) to i32) }, comdat

@"??_7D@@6B@" = unnamed_addr alias ptr, getelementptr inbounds ({ [2 x ptr] }, ptr @0, i32 0, i32 0, i32 1)
@"??_7Base@@6B@" = unnamed_addr alias ptr, getelementptr inbounds ({ [2 x ptr] }, ptr @1, i32 0, i32 0, i32 1)

; Function Attrs: mustprogress noinline nounwind optnone uwtable
define dso_local noundef i32 @"?nf@ns@@YAHH@Z"(i32 noundef %0) #0 !dbg !94 {
  %2 = alloca i32, align 4
  store i32 %0, ptr %2, align 4
    #dbg_declare(ptr %2, !109, !DIExpression(), !110)
  %3 = load i32, ptr %2, align 4, !dbg !110
  %4 = add nsw i32 %3, 1, !dbg !110
  ret i32 %4, !dbg !110
}

; Function Attrs: mustprogress noinline optnone uwtable
define dso_local noundef i32 @"?use@@YAHH@Z"(i32 noundef %0) #1 !dbg !111 {
  %2 = alloca i32, align 4
  %3 = alloca %struct.D, align 8
  %4 = alloca <4 x i32>, align 16
  %5 = alloca %struct.Wrap.0, align 1
  %6 = alloca [4 x i32], align 16
  %7 = alloca %"struct.ns::T", align 4
  store i32 %0, ptr %2, align 4
    #dbg_declare(ptr %2, !112, !DIExpression(), !113)
    #dbg_declare(ptr %3, !114, !DIExpression(), !115)
  %8 = call noundef ptr @"??0D@@QEAA@XZ"(ptr noundef nonnull align 8 dereferenceable(24) %3, i32 noundef 1), !dbg !115
    #dbg_declare(ptr %4, !116, !DIExpression(), !117)
  store <4 x i32> <i32 1, i32 2, i32 3, i32 4>, ptr %4, align 16, !dbg !117
    #dbg_declare(ptr %5, !118, !DIExpression(), !125)
  call void @llvm.memset.p0.i64(ptr align 1 %5, i8 0, i64 1, i1 false), !dbg !125
    #dbg_declare(ptr %6, !126, !DIExpression(), !128)
  call void @llvm.memset.p0.i64(ptr align 16 %6, i8 0, i64 16, i1 false), !dbg !128
  %9 = getelementptr inbounds %struct.D, ptr %3, i32 0, i32 3, !dbg !129
  %10 = load i32, ptr %9, align 8, !dbg !129
  %11 = shl i32 %10, 29, !dbg !129
  %12 = ashr i32 %11, 29, !dbg !129
  %13 = load <4 x i32>, ptr %4, align 16, !dbg !129
  %14 = extractelement <4 x i32> %13, i32 1, !dbg !129
  %15 = add nsw i32 %12, %14, !dbg !129
  %16 = getelementptr inbounds %struct.Wrap.0, ptr %5, i32 0, i32 0, !dbg !129
  %17 = load i8, ptr %16, align 1, !dbg !129
  %18 = sext i8 %17 to i32, !dbg !129
  %19 = add nsw i32 %15, %18, !dbg !129
  %20 = load i32, ptr %2, align 4, !dbg !129
  %21 = and i32 %20, 3, !dbg !129
  %22 = sext i32 %21 to i64, !dbg !129
  %23 = getelementptr inbounds [4 x i32], ptr %6, i64 0, i64 %22, !dbg !129
  %24 = load i32, ptr %23, align 4, !dbg !129
  %25 = add nsw i32 %19, %24, !dbg !129
  %26 = load i32, ptr @"?nv@ns@@3HA", align 4, !dbg !129
  %27 = call noundef i32 @"?nf@ns@@YAHH@Z"(i32 noundef %26), !dbg !129
  %28 = add nsw i32 %25, %27, !dbg !129
  %29 = getelementptr inbounds %"struct.ns::T", ptr %7, i32 0, i32 0, !dbg !129
  store i32 1, ptr %29, align 4, !dbg !129
  %30 = add nsw i32 %28, 1, !dbg !129
  %31 = load i16, ptr @"?ge@@3W4E@@A", align 2, !dbg !129
  %32 = sext i16 %31 to i32, !dbg !129
  %33 = add nsw i32 %30, %32, !dbg !129
  %34 = add nsw i32 %33, 3, !dbg !129
  %35 = load i32, ptr @"?sv@D@@2HA", align 4, !dbg !129
  %36 = add nsw i32 %34, %35, !dbg !129
  call void @"??_DD@@QEAAXXZ"(ptr noundef nonnull align 8 dereferenceable(24) %3) #4, !dbg !130
  ret i32 %36, !dbg !130
}

; Function Attrs: mustprogress noinline nounwind optnone uwtable
define linkonce_odr dso_local noundef ptr @"??0D@@QEAA@XZ"(ptr noundef nonnull returned align 8 dereferenceable(24) %0, i32 noundef %1) unnamed_addr #0 comdat align 2 !dbg !131 {
  %3 = alloca ptr, align 8
  %4 = alloca i32, align 4
  %5 = alloca ptr, align 8
  store i32 %1, ptr %4, align 4
    #dbg_declare(ptr %4, !132, !DIExpression(), !133)
  store ptr %0, ptr %5, align 8
    #dbg_declare(ptr %5, !134, !DIExpression(), !133)
  %6 = load ptr, ptr %5, align 8
  store ptr %6, ptr %3, align 8
  %7 = load i32, ptr %4, align 4
  %8 = icmp ne i32 %7, 0, !dbg !136
  br i1 %8, label %9, label %13, !dbg !136

9:                                                ; preds = %2
  %10 = getelementptr inbounds i8, ptr %6, i64 0, !dbg !136
  store ptr @"??_8D@@7B@", ptr %10, align 8, !dbg !136
  %11 = getelementptr inbounds i8, ptr %6, i64 24, !dbg !136
  %12 = call noundef ptr @"??0Base@@QEAA@XZ"(ptr noundef nonnull align 8 dereferenceable(16) %11) #4, !dbg !136
  br label %13, !dbg !136

13:                                               ; preds = %9, %2
  %14 = getelementptr inbounds i8, ptr %6, i64 0, !dbg !136
  %15 = load ptr, ptr %14, align 8, !dbg !136
  %16 = getelementptr inbounds i32, ptr %15, i32 1, !dbg !136
  %17 = load i32, ptr %16, align 4, !dbg !136
  %18 = sext i32 %17 to i64, !dbg !136
  %19 = add nsw i64 0, %18, !dbg !136
  %20 = getelementptr inbounds i8, ptr %6, i64 %19, !dbg !136
  store ptr @"??_7D@@6B@", ptr %20, align 8, !dbg !136
  %21 = getelementptr inbounds %struct.D, ptr %6, i32 0, i32 2, !dbg !136
  store volatile i32 0, ptr %21, align 4, !dbg !136
  %22 = getelementptr inbounds %struct.D, ptr %6, i32 0, i32 3, !dbg !136
  %23 = load i32, ptr %22, align 8, !dbg !136
  %24 = and i32 %23, -8, !dbg !136
  %25 = or i32 %24, 1, !dbg !136
  store i32 %25, ptr %22, align 8, !dbg !136
  %26 = load ptr, ptr %3, align 8, !dbg !136
  ret ptr %26, !dbg !136
}

; Function Attrs: nocallback nofree nounwind willreturn memory(argmem: write)
declare void @llvm.memset.p0.i64(ptr nocapture writeonly, i8, i64, i1 immarg) #2

; Function Attrs: mustprogress noinline nounwind optnone uwtable
define linkonce_odr dso_local void @"??_DD@@QEAAXXZ"(ptr noundef nonnull align 8 dereferenceable(24) %0) unnamed_addr #0 comdat align 2 !dbg !137 {
  %2 = alloca ptr, align 8
  store ptr %0, ptr %2, align 8
    #dbg_declare(ptr %2, !139, !DIExpression(), !140)
  %3 = load ptr, ptr %2, align 8
  %4 = getelementptr i8, ptr %3, i64 24, !dbg !141
  call void @"??1D@@UEAA@XZ"(ptr noundef %4) #4, !dbg !141
  %5 = getelementptr inbounds i8, ptr %3, i64 24, !dbg !141
  call void @"??1Base@@UEAA@XZ"(ptr noundef nonnull align 8 dereferenceable(16) %5) #4, !dbg !141
  ret void, !dbg !141
}

; Function Attrs: mustprogress noinline nounwind optnone uwtable
define linkonce_odr dso_local noundef ptr @"??0Base@@QEAA@XZ"(ptr noundef nonnull returned align 8 dereferenceable(16) %0) unnamed_addr #0 comdat align 2 !dbg !142 {
  %2 = alloca ptr, align 8
  store ptr %0, ptr %2, align 8
    #dbg_declare(ptr %2, !144, !DIExpression(), !146)
  %3 = load ptr, ptr %2, align 8
  store ptr @"??_7Base@@6B@", ptr %3, align 8, !dbg !147
  ret ptr %3, !dbg !147
}

; Function Attrs: mustprogress noinline nounwind optnone uwtable
define linkonce_odr dso_local noundef ptr @"??_GD@@UEAAPEAXI@Z"(ptr noundef %0, i32 noundef %1) unnamed_addr #0 comdat align 2 !dbg !148 {
  %3 = alloca ptr, align 8
  %4 = alloca i32, align 4
  %5 = alloca ptr, align 8
  store i32 %1, ptr %4, align 4
    #dbg_declare(ptr %4, !149, !DIExpression(), !150)
  store ptr %0, ptr %5, align 8
    #dbg_declare(ptr %5, !151, !DIExpression(), !150)
  %6 = load ptr, ptr %5, align 8
  %7 = getelementptr inbounds i8, ptr %6, i32 -24
  store ptr %7, ptr %3, align 8
  %8 = load i32, ptr %4, align 4
  call void @"??_DD@@QEAAXXZ"(ptr noundef nonnull align 8 dereferenceable(24) %7) #4, !dbg !152
  %9 = icmp eq i32 %8, 0, !dbg !152
  br i1 %9, label %11, label %10, !dbg !152

10:                                               ; preds = %2
  call void @"??3@YAXPEAX_K@Z"(ptr noundef %7, i64 noundef 40) #5, !dbg !152
  br label %11, !dbg !152

11:                                               ; preds = %10, %2
  %12 = load ptr, ptr %3, align 8, !dbg !152
  ret ptr %12, !dbg !152
}

; Function Attrs: mustprogress noinline nounwind optnone uwtable
define linkonce_odr dso_local noundef ptr @"??_GBase@@UEAAPEAXI@Z"(ptr noundef nonnull align 8 dereferenceable(16) %0, i32 noundef %1) unnamed_addr #0 comdat align 2 !dbg !153 {
  %3 = alloca ptr, align 8
  %4 = alloca i32, align 4
  %5 = alloca ptr, align 8
  store i32 %1, ptr %4, align 4
    #dbg_declare(ptr %4, !154, !DIExpression(), !155)
  store ptr %0, ptr %5, align 8
    #dbg_declare(ptr %5, !156, !DIExpression(), !155)
  %6 = load ptr, ptr %5, align 8
  store ptr %6, ptr %3, align 8
  %7 = load i32, ptr %4, align 4
  call void @"??1Base@@UEAA@XZ"(ptr noundef nonnull align 8 dereferenceable(16) %6) #4, !dbg !157
  %8 = icmp eq i32 %7, 0, !dbg !157
  br i1 %8, label %10, label %9, !dbg !157

9:                                                ; preds = %2
  call void @"??3@YAXPEAX_K@Z"(ptr noundef %6, i64 noundef 16) #5, !dbg !157
  br label %10, !dbg !157

10:                                               ; preds = %9, %2
  %11 = load ptr, ptr %3, align 8, !dbg !157
  ret ptr %11, !dbg !157
}

; Function Attrs: mustprogress noinline nounwind optnone uwtable
define linkonce_odr dso_local void @"??1Base@@UEAA@XZ"(ptr noundef nonnull align 8 dereferenceable(16) %0) unnamed_addr #0 comdat align 2 !dbg !158 {
  %2 = alloca ptr, align 8
  store ptr %0, ptr %2, align 8
    #dbg_declare(ptr %2, !159, !DIExpression(), !160)
  %3 = load ptr, ptr %2, align 8
  ret void, !dbg !161
}

; Function Attrs: nobuiltin nounwind
declare dso_local void @"??3@YAXPEAX_K@Z"(ptr noundef, i64 noundef) #3

; Function Attrs: mustprogress noinline nounwind optnone uwtable
define linkonce_odr dso_local void @"??1D@@UEAA@XZ"(ptr noundef %0) unnamed_addr #0 comdat align 2 !dbg !162 {
  %2 = alloca ptr, align 8
  store ptr %0, ptr %2, align 8
    #dbg_declare(ptr %2, !163, !DIExpression(), !164)
  %3 = load ptr, ptr %2, align 8
  %4 = getelementptr inbounds i8, ptr %3, i32 -24
  ret void, !dbg !165
}

attributes #0 = { mustprogress noinline nounwind optnone uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { mustprogress noinline optnone uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #2 = { nocallback nofree nounwind willreturn memory(argmem: write) }
attributes #3 = { nobuiltin nounwind "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #4 = { nounwind }
attributes #5 = { builtin nounwind }

!llvm.dbg.cu = !{!7}
!llvm.module.flags = !{!102, !103, !104, !105, !106, !107}
!llvm.ident = !{!108}

!0 = !DIGlobalVariableExpression(var: !1, expr: !DIExpression())
!1 = distinct !DIGlobalVariable(name: "nv", linkageName: "?nv@ns@@3HA", scope: !2, file: !3, line: 2, type: !4, isLocal: false, isDefinition: true)
!2 = !DINamespace(name: "ns", scope: null)
!3 = !DIFile(filename: "near.cpp", directory: "/tmp/c2/nm", checksumkind: CSK_MD5, checksum: "3926da368fa007c1e3177e694513ff1f")
!4 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!5 = !DIGlobalVariableExpression(var: !6, expr: !DIExpression())
!6 = distinct !DIGlobalVariable(name: "sv", linkageName: "?sv@D@@2HA", scope: !7, file: !3, line: 19, type: !4, isLocal: false, isDefinition: true, declaration: !30)
!7 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !3, producer: "Debian clang version 19.1.7 (3~deb12u1)", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug, enums: !8, retainedTypes: !14, globals: !45, imports: !91, splitDebugInlining: false, nameTableKind: None)
!8 = !{!9}
!9 = !DICompositeType(tag: DW_TAG_enumeration_type, name: "E", file: !3, line: 22, baseType: !10, size: 16, flags: DIFlagEnumClass, elements: !11, identifier: ".?AW4E@@")
!10 = !DIBasicType(name: "short", size: 16, encoding: DW_ATE_signed)
!11 = !{!12, !13}
!12 = !DIEnumerator(name: "A", value: -1)
!13 = !DIEnumerator(name: "B", value: 2)
!14 = !{!4, !15}
!15 = distinct !DICompositeType(tag: DW_TAG_structure_type, name: "D", file: !3, line: 10, size: 320, flags: DIFlagTypePassByReference | DIFlagNonTrivial, elements: !16, vtableHolder: !15, identifier: ".?AUD@@")
!16 = !{!17, !28, !30, !31, !37, !40, !41}
!17 = !DIDerivedType(tag: DW_TAG_inheritance, scope: !15, baseType: !18, offset: 4, flags: DIFlagVirtual, extraData: i32 0)
!18 = distinct !DICompositeType(tag: DW_TAG_structure_type, name: "Base", file: !3, line: 9, size: 128, flags: DIFlagTypePassByReference | DIFlagNonTrivial, elements: !19, vtableHolder: !18, identifier: ".?AUBase@@")
!19 = !{!20, !21, !23, !24}
!20 = !DIDerivedType(tag: DW_TAG_pointer_type, name: "__vtbl_ptr_type", baseType: null, size: 64)
!21 = !DIDerivedType(tag: DW_TAG_member, name: "_vptr$Base", scope: !3, file: !3, baseType: !22, size: 64, flags: DIFlagArtificial)
!22 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !20, size: 64)
!23 = !DIDerivedType(tag: DW_TAG_member, name: "b", scope: !18, file: !3, line: 9, baseType: !4, size: 32, offset: 64)
!24 = !DISubprogram(name: "~Base", scope: !18, file: !3, line: 9, type: !25, scopeLine: 9, containingType: !18, virtualIndex: 0, flags: DIFlagPrototyped | DIFlagIntroducedVirtual, spFlags: DISPFlagVirtual)
!25 = !DISubroutineType(types: !26)
!26 = !{null, !27}
!27 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !18, size: 64, flags: DIFlagArtificial | DIFlagObjectPointer)
!28 = !DIDerivedType(tag: DW_TAG_member, name: "sm", scope: !15, file: !3, line: 11, baseType: !29, flags: DIFlagStaticMember, extraData: i32 3)
!29 = !DIDerivedType(tag: DW_TAG_const_type, baseType: !4)
!30 = !DIDerivedType(tag: DW_TAG_member, name: "sv", scope: !15, file: !3, line: 12, baseType: !4, flags: DIFlagStaticMember)
!31 = !DIDerivedType(tag: DW_TAG_member, scope: !15, file: !3, line: 14, baseType: !32, size: 32, offset: 64)
!32 = distinct !DICompositeType(tag: DW_TAG_union_type, scope: !15, file: !3, line: 14, size: 32, flags: DIFlagExportSymbols | DIFlagTypePassByValue, elements: !33, identifier: ".?AT<unnamed-type-$S1>@D@@")
!33 = !{!34, !35}
!34 = !DIDerivedType(tag: DW_TAG_member, name: "u1", scope: !32, file: !3, line: 14, baseType: !4, size: 32)
!35 = !DIDerivedType(tag: DW_TAG_member, name: "u2", scope: !32, file: !3, line: 14, baseType: !36, size: 32)
!36 = !DIBasicType(name: "float", size: 32, encoding: DW_ATE_float)
!37 = !DIDerivedType(tag: DW_TAG_member, name: "cv", scope: !15, file: !3, line: 15, baseType: !38, size: 32, offset: 96)
!38 = !DIDerivedType(tag: DW_TAG_const_type, baseType: !39)
!39 = !DIDerivedType(tag: DW_TAG_volatile_type, baseType: !4)
!40 = !DIDerivedType(tag: DW_TAG_member, name: "bits", scope: !15, file: !3, line: 16, baseType: !4, size: 3, offset: 128, flags: DIFlagBitField, extraData: i64 128)
!41 = !DISubprogram(name: "D", scope: !15, file: !3, line: 17, type: !42, scopeLine: 17, flags: DIFlagPrototyped, spFlags: 0)
!42 = !DISubroutineType(types: !43)
!43 = !{null, !44}
!44 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !15, size: 64, flags: DIFlagArtificial | DIFlagObjectPointer)
!45 = !{!0, !5, !46, !49, !54, !72, !79, !83, !89}
!46 = !DIGlobalVariableExpression(var: !47, expr: !DIExpression())
!47 = distinct !DIGlobalVariable(name: "pm", linkageName: "?pm@@3PEQD@@HEQ1@", scope: !7, file: !3, line: 23, type: !48, isLocal: false, isDefinition: true)
!48 = !DIDerivedType(tag: DW_TAG_ptr_to_member_type, baseType: !4, size: 64, flags: DIFlagVirtualInheritance, extraData: !15)
!49 = !DIGlobalVariableExpression(var: !50, expr: !DIExpression())
!50 = distinct !DIGlobalVariable(name: "pmf", linkageName: "?pmf@@3P8D@@EAAHH@ZEQ1@", scope: !7, file: !3, line: 24, type: !51, isLocal: false, isDefinition: true)
!51 = !DIDerivedType(tag: DW_TAG_ptr_to_member_type, baseType: !52, size: 128, flags: DIFlagVirtualInheritance, extraData: !15)
!52 = !DISubroutineType(types: !53)
!53 = !{!4, !44, !4}
!54 = !DIGlobalVariableExpression(var: !55, expr: !DIExpression())
!55 = distinct !DIGlobalVariable(name: "s", linkageName: "?s@@3U?$S@H$02UWrap@@DJ@@A", scope: !7, file: !3, line: 25, type: !56, isLocal: false, isDefinition: true)
!56 = distinct !DICompositeType(tag: DW_TAG_structure_type, name: "S<int,3,Wrap,char,long>", file: !3, line: 6, size: 96, flags: DIFlagTypePassByValue, elements: !57, templateParams: !62, identifier: ".?AU?$S@H$02UWrap@@DJ@@")
!57 = !{!58}
!58 = !DIDerivedType(tag: DW_TAG_member, name: "x", scope: !56, file: !3, line: 6, baseType: !59, size: 96)
!59 = !DICompositeType(tag: DW_TAG_array_type, baseType: !4, size: 96, elements: !60)
!60 = !{!61}
!61 = !DISubrange(count: 3)
!62 = !{!63, !64, !65, !66}
!63 = !DITemplateTypeParameter(name: "X", type: !4)
!64 = !DITemplateValueParameter(name: "N", type: !4, value: i32 3)
!65 = !DITemplateValueParameter(tag: DW_TAG_GNU_template_template_param, name: "W", value: !"Wrap")
!66 = !DITemplateValueParameter(tag: DW_TAG_GNU_template_parameter_pack, name: "P", value: !67)
!67 = !{!68, !70}
!68 = !DITemplateTypeParameter(type: !69)
!69 = !DIBasicType(name: "char", size: 8, encoding: DW_ATE_signed_char)
!70 = !DITemplateTypeParameter(type: !71)
!71 = !DIBasicType(name: "long", size: 32, encoding: DW_ATE_signed)
!72 = !DIGlobalVariableExpression(var: !73, expr: !DIExpression())
!73 = distinct !DIGlobalVariable(name: "al", linkageName: "?al@@3U?$Wrap@H@@A", scope: !7, file: !3, line: 26, type: !74, isLocal: false, isDefinition: true)
!74 = !DIDerivedType(tag: DW_TAG_typedef, name: "Alias<int>", file: !3, line: 8, baseType: !75)
!75 = distinct !DICompositeType(tag: DW_TAG_structure_type, name: "Wrap<int>", file: !3, line: 7, size: 32, flags: DIFlagTypePassByValue, elements: !76, templateParams: !78, identifier: ".?AU?$Wrap@H@@")
!76 = !{!77}
!77 = !DIDerivedType(tag: DW_TAG_member, name: "w", scope: !75, file: !3, line: 7, baseType: !4, size: 32)
!78 = !{!63}
!79 = !DIGlobalVariableExpression(var: !80, expr: !DIExpression())
!80 = distinct !DIGlobalVariable(name: "vp", linkageName: "?vp@@3PEAXEA", scope: !7, file: !3, line: 27, type: !81, isLocal: false, isDefinition: true)
!81 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !82, size: 64)
!82 = !DIDerivedType(tag: DW_TAG_typedef, name: "V", file: !3, line: 20, baseType: null)
!83 = !DIGlobalVariableExpression(var: !84, expr: !DIExpression())
!84 = distinct !DIGlobalVariable(name: "gv", linkageName: "?gv@@3T?$__vector@H$03@__clang@@A", scope: !7, file: !3, line: 28, type: !85, isLocal: false, isDefinition: true)
!85 = !DIDerivedType(tag: DW_TAG_typedef, name: "vec4", file: !3, line: 21, baseType: !86)
!86 = !DICompositeType(tag: DW_TAG_array_type, baseType: !4, size: 128, flags: DIFlagVector, elements: !87)
!87 = !{!88}
!88 = !DISubrange(count: 4)
!89 = !DIGlobalVariableExpression(var: !90, expr: !DIExpression())
!90 = distinct !DIGlobalVariable(name: "ge", linkageName: "?ge@@3W4E@@A", scope: !7, file: !3, line: 29, type: !9, isLocal: false, isDefinition: true)
!91 = !{!92, !93, !98}
!92 = !DIImportedEntity(tag: DW_TAG_imported_module, scope: !7, entity: !2, file: !3, line: 3)
!93 = !DIImportedEntity(tag: DW_TAG_imported_declaration, scope: !7, entity: !94, file: !3, line: 4)
!94 = distinct !DISubprogram(name: "nf", linkageName: "?nf@ns@@YAHH@Z", scope: !2, file: !3, line: 2, type: !95, scopeLine: 2, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !7, retainedNodes: !97)
!95 = !DISubroutineType(types: !96)
!96 = !{!4, !4}
!97 = !{}
!98 = !DIImportedEntity(tag: DW_TAG_imported_declaration, scope: !7, entity: !99, file: !3, line: 5)
!99 = distinct !DICompositeType(tag: DW_TAG_structure_type, name: "T", scope: !2, file: !3, line: 2, size: 32, flags: DIFlagTypePassByValue, elements: !100, identifier: ".?AUT@ns@@")
!100 = !{!101}
!101 = !DIDerivedType(tag: DW_TAG_member, name: "t", scope: !99, file: !3, line: 2, baseType: !4, size: 32)
!102 = !{i32 2, !"CodeView", i32 1}
!103 = !{i32 2, !"Debug Info Version", i32 3}
!104 = !{i32 1, !"wchar_size", i32 2}
!105 = !{i32 8, !"PIC Level", i32 2}
!106 = !{i32 7, !"uwtable", i32 2}
!107 = !{i32 1, !"MaxTLSAlign", i32 65536}
!108 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
!109 = !DILocalVariable(name: "x", arg: 1, scope: !94, file: !3, line: 2, type: !4)
!110 = !DILocation(line: 2, scope: !94)
!111 = distinct !DISubprogram(name: "use", linkageName: "?use@@YAHH@Z", scope: !3, file: !3, line: 30, type: !95, scopeLine: 30, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !7, retainedNodes: !97)
!112 = !DILocalVariable(name: "n", arg: 1, scope: !111, file: !3, line: 30, type: !4)
!113 = !DILocation(line: 30, scope: !111)
!114 = !DILocalVariable(name: "d", scope: !111, file: !3, line: 31, type: !15)
!115 = !DILocation(line: 31, scope: !111)
!116 = !DILocalVariable(name: "v", scope: !111, file: !3, line: 32, type: !85)
!117 = !DILocation(line: 32, scope: !111)
!118 = !DILocalVariable(name: "a", scope: !111, file: !3, line: 33, type: !119)
!119 = !DIDerivedType(tag: DW_TAG_typedef, name: "Alias<char>", file: !3, line: 8, baseType: !120)
!120 = distinct !DICompositeType(tag: DW_TAG_structure_type, name: "Wrap<char>", file: !3, line: 7, size: 8, flags: DIFlagTypePassByValue, elements: !121, templateParams: !123, identifier: ".?AU?$Wrap@D@@")
!121 = !{!122}
!122 = !DIDerivedType(tag: DW_TAG_member, name: "w", scope: !120, file: !3, line: 7, baseType: !69, size: 8)
!123 = !{!124}
!124 = !DITemplateTypeParameter(name: "X", type: !69)
!125 = !DILocation(line: 33, scope: !111)
!126 = !DILocalVariable(name: "arr", scope: !111, file: !3, line: 34, type: !127)
!127 = !DICompositeType(tag: DW_TAG_array_type, baseType: !4, size: 128, elements: !87)
!128 = !DILocation(line: 34, scope: !111)
!129 = !DILocation(line: 35, scope: !111)
!130 = !DILocation(line: 36, scope: !111)
!131 = distinct !DISubprogram(name: "D", linkageName: "??0D@@QEAA@XZ", scope: !15, file: !3, line: 17, type: !42, scopeLine: 17, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !7, declaration: !41, retainedNodes: !97)
!132 = !DILocalVariable(name: "is_most_derived", arg: 2, scope: !131, type: !4, flags: DIFlagArtificial)
!133 = !DILocation(line: 0, scope: !131)
!134 = !DILocalVariable(name: "this", arg: 1, scope: !131, type: !135, flags: DIFlagArtificial | DIFlagObjectPointer)
!135 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !15, size: 64)
!136 = !DILocation(line: 17, scope: !131)
!137 = distinct !DISubprogram(name: "~D", linkageName: "??_DD@@QEAAXXZ", scope: !15, file: !3, line: 10, type: !42, scopeLine: 10, flags: DIFlagArtificial | DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !7, declaration: !138, retainedNodes: !97)
!138 = !DISubprogram(name: "~D", scope: !15, type: !42, containingType: !15, virtualIndex: 0, thisAdjustment: 24, flags: DIFlagArtificial | DIFlagPrototyped, spFlags: DISPFlagVirtual)
!139 = !DILocalVariable(name: "this", arg: 1, scope: !137, type: !135, flags: DIFlagArtificial | DIFlagObjectPointer)
!140 = !DILocation(line: 0, scope: !137)
!141 = !DILocation(line: 10, scope: !137)
!142 = distinct !DISubprogram(name: "Base", linkageName: "??0Base@@QEAA@XZ", scope: !18, file: !3, line: 9, type: !25, scopeLine: 9, flags: DIFlagArtificial | DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !7, declaration: !143, retainedNodes: !97)
!143 = !DISubprogram(name: "Base", scope: !18, type: !25, flags: DIFlagArtificial | DIFlagPrototyped, spFlags: 0)
!144 = !DILocalVariable(name: "this", arg: 1, scope: !142, type: !145, flags: DIFlagArtificial | DIFlagObjectPointer)
!145 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !18, size: 64)
!146 = !DILocation(line: 0, scope: !142)
!147 = !DILocation(line: 9, scope: !142)
!148 = distinct !DISubprogram(name: "~D", linkageName: "??_GD@@UEAAPEAXI@Z", scope: !15, file: !3, line: 10, type: !42, scopeLine: 10, flags: DIFlagArtificial | DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !7, declaration: !138, retainedNodes: !97)
!149 = !DILocalVariable(name: "should_call_delete", arg: 2, scope: !148, type: !4, flags: DIFlagArtificial)
!150 = !DILocation(line: 0, scope: !148)
!151 = !DILocalVariable(name: "this", arg: 1, scope: !148, type: !135, flags: DIFlagArtificial | DIFlagObjectPointer)
!152 = !DILocation(line: 10, scope: !148)
!153 = distinct !DISubprogram(name: "~Base", linkageName: "??_GBase@@UEAAPEAXI@Z", scope: !18, file: !3, line: 9, type: !25, scopeLine: 9, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !7, declaration: !24, retainedNodes: !97)
!154 = !DILocalVariable(name: "should_call_delete", arg: 2, scope: !153, type: !4, flags: DIFlagArtificial)
!155 = !DILocation(line: 0, scope: !153)
!156 = !DILocalVariable(name: "this", arg: 1, scope: !153, type: !145, flags: DIFlagArtificial | DIFlagObjectPointer)
!157 = !DILocation(line: 9, scope: !153)
!158 = distinct !DISubprogram(name: "~Base", linkageName: "??1Base@@UEAA@XZ", scope: !18, file: !3, line: 9, type: !25, scopeLine: 9, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !7, declaration: !24, retainedNodes: !97)
!159 = !DILocalVariable(name: "this", arg: 1, scope: !158, type: !145, flags: DIFlagArtificial | DIFlagObjectPointer)
!160 = !DILocation(line: 0, scope: !158)
!161 = !DILocation(line: 9, scope: !158)
!162 = distinct !DISubprogram(name: "~D", linkageName: "??1D@@UEAA@XZ", scope: !15, file: !3, line: 10, type: !42, scopeLine: 10, flags: DIFlagArtificial | DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !7, declaration: !138, retainedNodes: !97)
!163 = !DILocalVariable(name: "this", arg: 1, scope: !162, type: !135, flags: DIFlagArtificial | DIFlagObjectPointer)
!164 = !DILocation(line: 0, scope: !162)
!165 = !DILocation(line: 10, scope: !162)
