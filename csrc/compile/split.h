// split.h: one module into parts that are optimised or generated in
// parallel (llvmplug_compile with parts > 1).
//
// LLVM's own SplitModule decides which part defines what: a comdat stays
// whole, an alias stays with its aliasee, an ifunc with its resolver, a
// function with the functions that take its block addresses; every local
// symbol becomes a hidden global (renamed first, ".llvm.<module hash>", so
// that parts of two modules link into one program) so that parts can refer
// to each other. LLVM uses it after optimisation (ParallelCG), where nothing
// is deleted any more. Parts that are optimised afterwards (ThinLTO's way,
// thin.h) need more, because an optimiser deletes a linkonce definition that
// its own module no longer uses (the always-inliner does at once): each part
// then holds what a C++ translation unit would hold, as ThinLTO expects
// (LTO.cpp: "we make sure we always emit at least one copy"):
//  - a copy of every linkonce or available_externally definition it refers
//    to that another part defines (with its comdat, aliases and resolvers),
//    as every translation unit that uses an inline function defines it;
//    ThinLTO then keeps one copy and drops the others;
//  - where a copy cannot be made (the comdat also holds a definition that
//    must exist once, such as a promoted static), the one definition is made
//    weak instead of linkonce when another part refers to it, which is what
//    ThinLTO does to the copy it keeps.
// Whatever the parts are for, a comdat that keys an llvm.global_ctors or
// global_dtors entry goes to the part holding that list: the entry is
// emitted into the key's comdat group, and a program linker keeps one group
// of each name, so key and entry must be in the same object.
// Module asm stays in the first part only. References are read from
// instructions, constants and initialisers, not from metadata (a definition
// named only by debug information is not copied).
#ifndef LLVMPLUG_SPLIT_H
#define LLVMPLUG_SPLIT_H

#include <functional>
#include <string>
#include <vector>

namespace llvm {
class Module;
}

namespace llvmplug {

// At most this many parts, whatever the caller asks for.
constexpr unsigned MaxParts = 256;

// What the parts are for: optimised each on its own (the copies above are
// made), or only generated (the module is optimised already).
enum class SplitFor { Optimising, Generating };

// Split `module` (consumed: its locals are externalised) into at most
// `parts` modules (and at most MaxParts), as bitcode, dropping parts that
// define nothing. A module asm that does not assemble is a
// Failure(LLVMPLUG_ERROR_CODEGEN).
std::vector<std::string> splitToBitcode(llvm::Module &module, unsigned parts, SplitFor use);

// Run work(0) .. work(count - 1), each on a thread of its own with a large
// stack (work(0) on the calling thread), and return when all are done. If
// any throws, rethrows the exception of the lowest index after all finished.
void runInParallel(size_t count, const std::function<void(size_t)> &work);

} // namespace llvmplug

#endif
