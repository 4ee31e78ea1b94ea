// split.h: one optimised module into parts whose code is generated in
// parallel (llvmplug_compile with parts > 1).
//
// As LLVM's own ParallelCG does: SplitModule partitions the module (every
// local symbol is made hidden-external, under a name unique to the module,
// so that parts can refer to each other and parts of two modules link into
// one program), each part goes through bitcode into an LLVMContext of its own (a
// context is not thread-safe), and each part is generated on its own
// thread. Linking the parts gives the same program as the whole module.
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

// Split `module` (consumed: its locals are externalised) into at most
// `parts` modules (and at most MaxParts), as bitcode, dropping parts that
// define nothing.
std::vector<std::string> splitToBitcode(llvm::Module &module, unsigned parts);

// Run work(0) .. work(count - 1), each on a thread of its own with a large
// stack (work(0) on the calling thread), and return when all are done. If
// any throws, rethrows the exception of the lowest index after all finished.
void runInParallel(size_t count, const std::function<void(size_t)> &work);

} // namespace llvmplug

#endif
