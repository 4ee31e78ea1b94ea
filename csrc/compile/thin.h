// thin.h: several modules optimised and generated in parallel, ThinLTO's way.
//
// Whole-module optimisation is serial: one pass pipeline over one module.
// ThinLTO (LLVM's lto::LTO with its in-process backend) splits the work by
// module instead: each module gets a summary; a serial "thin link" over the summaries decides which functions
// each module imports from the others (so cross-module inlining still
// happens); then each module is optimised and generated on its own thread,
// independently of the others, which makes the outputs the same whatever
// the thread count. Locals referenced from another module are promoted with
// a ".llvm.<module hash>" suffix, so two translation units' static helpers
// never collide.
//
// The per-module work runs on threads with a large stack (split.h's
// runInParallel), as every other compile does: LLVM's own ThinLTO thread
// pool would give them the platform's default stack.
#ifndef LLVMPLUG_THIN_H
#define LLVMPLUG_THIN_H

#include "machine.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class Module;
}

namespace llvmplug {

class Timings;

struct ThinSettings {
  MachineSpec machine;   // the code generation level included (machine.h)
  unsigned optLevel = 2; // 0..3
  // Object, assembly, or stop before code generation: optimised bitcode.
  enum class Output { Object, Assembly, Bitcode } output = Output::Object;
  unsigned threads = 1;
  // Called on each module once optimised, before its code is generated (on
  // the module's thread); may throw Failure to stop the compile.
  std::function<void(const llvm::Module &)> beforeCodegen;
  // Where the stages are recorded (timings.h): the whole call's, and each
  // module's as one part. May be null.
  Timings *timings = nullptr;
};

struct ThinResult {
  std::vector<std::string> outputs; // one per module, in the order given
  std::string warnings;
};

// `modules` are bitcode, each ready for code generation but not optimised:
// the target's triple and data layout set, link modules linked in, function
// attributes applied. Symbols resolve as a program linker resolves them
// (thin.cpp's resolve): two strong definitions of a name are a LinkError
// naming it; tentative (common) ones merge, the largest prevailing with the
// largest alignment; weak and linkonce ones yield. A linkonce_odr
// definition whose address does not matter (unnamed_addr) is not visible to
// later links (every other object that uses one defines it too), so ThinLTO
// keeps it only where a module still needs it. Throws Failure.
ThinResult compileThin(const std::vector<std::string> &modules, const ThinSettings &settings);

} // namespace llvmplug

#endif
