// start.h: this copy's runtime, started with what compile/ owns.
//
// runtime/ starts LLVM's process-wide state but may not include this layer;
// the backends (targets.h) and the warm-up compile (compiler.h) it needs on
// first use are handed to it here, so every caller of this layer and of
// abi/ asks for the runtime through this header.
#ifndef LLVMPLUG_START_H
#define LLVMPLUG_START_H

#include "runtime.h"

namespace llvmplug {

// runtime.h's runtime(), with this layer's starters: with the lock held,
// start the copy on first use and return its option registry. Throws
// Failure(LLVMPLUG_ERROR_SHUTDOWN) after shutdownRuntime().
OptionRegistry &runtime();

} // namespace llvmplug

#endif
