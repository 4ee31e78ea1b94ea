; ModuleID = 'near.c'
source_filename = "near.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

%struct.t1 = type { i32 }

@g1 = dso_local global i32 0, align 4, !dbg !0
@g2 = dso_local global i32 0, align 4, !dbg !11
@gp = dso_local global ptr null, align 8, !dbg !5

; Function Attrs: noinline nounwind optnone uwtable
define dso_local i32 @foo(ptr noundef %0) #0 !dbg !26 {
  %2 = alloca ptr, align 8
  store ptr %0, ptr %2, align 8
    #dbg_declare(ptr %2, !34, !DIExpression(), !35)
  %3 = load ptr, ptr %2, align 8, !dbg !36
  %4 = getelementptr inbounds %struct.t1, ptr %3, i32 0, i32 0, !dbg !37
  %5 = load i32, ptr %4, align 4, !dbg !37
  ret i32 %5, !dbg !38
}

; Function Attrs: noinline nounwind optnone uwtable
define dso_local i32 @vla(i32 noundef %0) #0 !dbg !39 {
  %2 = alloca i32, align 4
  %3 = alloca ptr, align 8
  %4 = alloca i64, align 8
  %5 = alloca i32, align 4
  store i32 %0, ptr %2, align 4
    #dbg_declare(ptr %2, !42, !DIExpression(), !43)
  %6 = load i32, ptr %2, align 4, !dbg !44
  %7 = zext i32 %6 to i64, !dbg !45
  %8 = call ptr @llvm.stacksave.p0(), !dbg !45
  store ptr %8, ptr %3, align 8, !dbg !45
  %9 = alloca i32, i64 %7, align 16, !dbg !45
  store i64 %7, ptr %4, align 8, !dbg !45
    #dbg_declare(ptr %4, !46, !DIExpression(), !48)
    #dbg_declare(ptr %9, !49, !DIExpression(), !53)
    #dbg_declare(ptr %5, !54, !DIExpression(), !56)
  store i32 0, ptr %5, align 4, !dbg !56
  br label %10, !dbg !57

10:                                               ; preds = %19, %1
  %11 = load i32, ptr %5, align 4, !dbg !58
  %12 = load i32, ptr %2, align 4, !dbg !60
  %13 = icmp slt i32 %11, %12, !dbg !61
  br i1 %13, label %14, label %22, !dbg !62

14:                                               ; preds = %10
  %15 = load i32, ptr %5, align 4, !dbg !63
  %16 = load i32, ptr %5, align 4, !dbg !64
  %17 = sext i32 %16 to i64, !dbg !65
  %18 = getelementptr inbounds i32, ptr %9, i64 %17, !dbg !65
  store i32 %15, ptr %18, align 4, !dbg !66
  br label %19, !dbg !65

19:                                               ; preds = %14
  %20 = load i32, ptr %5, align 4, !dbg !67
  %21 = add nsw i32 %20, 1, !dbg !67
  store i32 %21, ptr %5, align 4, !dbg !67
  br label %10, !dbg !68, !llvm.loop !69

22:                                               ; preds = %10
  %23 = load i32, ptr %2, align 4, !dbg !72
  %24 = sub nsw i32 %23, 1, !dbg !73
  %25 = sext i32 %24 to i64, !dbg !74
  %26 = getelementptr inbounds i32, ptr %9, i64 %25, !dbg !74
  %27 = load i32, ptr %26, align 4, !dbg !74
  %28 = load i32, ptr @g1, align 4, !dbg !75
  %29 = add nsw i32 %27, %28, !dbg !76
  %30 = load i32, ptr @g2, align 4, !dbg !77
  %31 = add nsw i32 %29, %30, !dbg !78
  %32 = load ptr, ptr @gp, align 8, !dbg !79
  %33 = icmp ne ptr %32, null, !dbg !79
  br i1 %33, label %34, label %37, !dbg !79

34:                                               ; preds = %22
  %35 = load ptr, ptr @gp, align 8, !dbg !80
  %36 = load i32, ptr %35, align 4, !dbg !81
  br label %38, !dbg !79

37:                                               ; preds = %22
  br label %38, !dbg !79

38:                                               ; preds = %37, %34
  %39 = phi i32 [ %36, %34 ], [ 0, %37 ], !dbg !79
  %40 = add nsw i32 %31, %39, !dbg !82
  %41 = load ptr, ptr %3, align 8, !dbg !83
  call void @llvm.stackrestore.p0(ptr %41), !dbg !83
  ret i32 %40, !dbg !83
}

; Function Attrs: nocallback nofree nosync nounwind willreturn
declare ptr @llvm.stacksave.p0() #1

; Function Attrs: nocallback nofree nosync nounwind willreturn
declare void @llvm.stackrestore.p0(ptr) #1

attributes #0 = { noinline nounwind optnone uwtable "frame-pointer"="all" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { nocallback nofree nosync nounwind willreturn }

!llvm.dbg.cu = !{!2}
!llvm.module.flags = !{!18, !19, !20, !21, !22, !23, !24}
!llvm.ident = !{!25}

!0 = !DIGlobalVariableExpression(var: !1, expr: !DIExpression())
!1 = distinct !DIGlobalVariable(name: "g1", scope: !2, file: !3, line: 8, type: !8, isLocal: false, isDefinition: true, annotations: !16)
!2 = distinct !DICompileUnit(language: DW_LANG_C11, file: !3, producer: "Debian clang version 19.1.7 (3~deb12u1)", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug, globals: !4, splitDebugInlining: false, nameTableKind: None)
!3 = !DIFile(filename: "near.c", directory: "/tmp/c2/nm", checksumkind: CSK_MD5, checksum: "80acb1f906a8db23f49db5b5b949befd")
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
!21 = !{i32 8, !"PIC Level", i32 2}
!22 = !{i32 7, !"PIE Level", i32 2}
!23 = !{i32 7, !"uwtable", i32 2}
!24 = !{i32 7, !"frame-pointer", i32 2}
!25 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
!26 = distinct !DISubprogram(name: "foo", scope: !3, file: !3, line: 12, type: !27, scopeLine: 12, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !2, retainedNodes: !33, annotations: !16)
!27 = !DISubroutineType(types: !28)
!28 = !{!8, !29}
!29 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !30, size: 64)
!30 = distinct !DICompositeType(tag: DW_TAG_structure_type, name: "t1", file: !3, line: 7, size: 32, elements: !31, annotations: !16)
!31 = !{!32}
!32 = !DIDerivedType(tag: DW_TAG_member, name: "a", scope: !30, file: !3, line: 7, baseType: !8, size: 32, annotations: !16)
!33 = !{}
!34 = !DILocalVariable(name: "arg", arg: 1, scope: !26, file: !3, line: 12, type: !29, annotations: !16)
!35 = !DILocation(line: 12, column: 34, scope: !26)
!36 = !DILocation(line: 12, column: 62, scope: !26)
!37 = !DILocation(line: 12, column: 67, scope: !26)
!38 = !DILocation(line: 12, column: 55, scope: !26)
!39 = distinct !DISubprogram(name: "vla", scope: !3, file: !3, line: 14, type: !40, scopeLine: 14, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !2, retainedNodes: !33)
!40 = !DISubroutineType(types: !41)
!41 = !{!8, !8}
!42 = !DILocalVariable(name: "n", arg: 1, scope: !39, file: !3, line: 14, type: !8)
!43 = !DILocation(line: 14, column: 13, scope: !39)
!44 = !DILocation(line: 15, column: 9, scope: !39)
!45 = !DILocation(line: 15, column: 3, scope: !39)
!46 = !DILocalVariable(name: "__vla_expr0", scope: !39, type: !47, flags: DIFlagArtificial)
!47 = !DIBasicType(name: "unsigned long", size: 64, encoding: DW_ATE_unsigned)
!48 = !DILocation(line: 0, scope: !39)
!49 = !DILocalVariable(name: "a", scope: !39, file: !3, line: 15, type: !50)
!50 = !DICompositeType(tag: DW_TAG_array_type, baseType: !8, elements: !51)
!51 = !{!52}
!52 = !DISubrange(count: !46)
!53 = !DILocation(line: 15, column: 7, scope: !39)
!54 = !DILocalVariable(name: "i", scope: !55, file: !3, line: 16, type: !8)
!55 = distinct !DILexicalBlock(scope: !39, file: !3, line: 16, column: 3)
!56 = !DILocation(line: 16, column: 12, scope: !55)
!57 = !DILocation(line: 16, column: 8, scope: !55)
!58 = !DILocation(line: 16, column: 19, scope: !59)
!59 = distinct !DILexicalBlock(scope: !55, file: !3, line: 16, column: 3)
!60 = !DILocation(line: 16, column: 23, scope: !59)
!61 = !DILocation(line: 16, column: 21, scope: !59)
!62 = !DILocation(line: 16, column: 3, scope: !55)
!63 = !DILocation(line: 17, column: 12, scope: !59)
!64 = !DILocation(line: 17, column: 7, scope: !59)
!65 = !DILocation(line: 17, column: 5, scope: !59)
!66 = !DILocation(line: 17, column: 10, scope: !59)
!67 = !DILocation(line: 16, column: 27, scope: !59)
!68 = !DILocation(line: 16, column: 3, scope: !59)
!69 = distinct !{!69, !62, !70, !71}
!70 = !DILocation(line: 17, column: 12, scope: !55)
!71 = !{!"llvm.loop.mustprogress"}
!72 = !DILocation(line: 18, column: 12, scope: !39)
!73 = !DILocation(line: 18, column: 14, scope: !39)
!74 = !DILocation(line: 18, column: 10, scope: !39)
!75 = !DILocation(line: 18, column: 21, scope: !39)
!76 = !DILocation(line: 18, column: 19, scope: !39)
!77 = !DILocation(line: 18, column: 26, scope: !39)
!78 = !DILocation(line: 18, column: 24, scope: !39)
!79 = !DILocation(line: 18, column: 32, scope: !39)
!80 = !DILocation(line: 18, column: 38, scope: !39)
!81 = !DILocation(line: 18, column: 37, scope: !39)
!82 = !DILocation(line: 18, column: 29, scope: !39)
!83 = !DILocation(line: 19, column: 1, scope: !39)
