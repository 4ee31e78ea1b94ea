// analyses.h: the new pass manager's analysis managers, registered and
// cross-wired for a PassBuilder, as every IR pipeline llvmplug runs needs
// them (the whole-module pipeline in compiler.cpp, ThinLTO's pre-link in
// thin.cpp). The target library info is the caller's (vector library,
// llc's library flags).
#ifndef LLVMPLUG_ANALYSES_H
#define LLVMPLUG_ANALYSES_H

#include "llvm/Analysis/CGSCCPassManager.h"
#include "llvm/Analysis/LoopAnalysisManager.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"

namespace llvmplug {

struct Analyses {
  // `libraryInfo` must outlive this object.
  Analyses(llvm::PassBuilder &builder, llvm::TargetLibraryInfoImpl &libraryInfo) {
    functions.registerPass([&libraryInfo] { return llvm::TargetLibraryAnalysis(libraryInfo); });
    builder.registerModuleAnalyses(modules);
    builder.registerCGSCCAnalyses(cgsccs);
    builder.registerFunctionAnalyses(functions);
    builder.registerLoopAnalyses(loops);
    builder.crossRegisterProxies(loops, functions, cgsccs, modules);
  }
  // Declared in this order so that they are destroyed in the reverse one
  // (the proxies point from inner managers to outer ones).
  llvm::LoopAnalysisManager loops;
  llvm::FunctionAnalysisManager functions;
  llvm::CGSCCAnalysisManager cgsccs;
  llvm::ModuleAnalysisManager modules;
};

} // namespace llvmplug

#endif
