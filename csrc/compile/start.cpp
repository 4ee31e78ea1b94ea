#include "start.h"

#include "compiler.h"
#include "targets.h"

namespace llvmplug {

namespace {

// The runtime's warm-up compile (runtime.cpp says when it runs): a plain
// -O2 compile, every LLVM option at its default.
void warmUpCompile(const OptionRegistry &registry) {
  try {
    compileWithLockHeld(registry, "define i32 @f(i32 %x) {\n  %y = add i32 %x, 1\n  ret i32 %y\n}\n", "-O2");
  } catch (...) {
    // A copy that cannot compile this fails every later compile anyway,
    // with the reason; the warm-up has nothing to add.
  }
}

} // namespace

OptionRegistry &runtime() { return runtime(Starters{initializeTargets, warmUpCompile}); }

} // namespace llvmplug
