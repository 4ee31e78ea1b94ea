// failure.h: how the shim's C++ code reports an error to the C boundary.
//
// Internal code throws Failure; the boundary (abi.cpp) catches it and turns
// it into a status plus message. The LLVM fatal-error handler throws it too,
// which is why the shim is built with exceptions although LLVM is not.
#ifndef LLVMPLUG_FAILURE_H
#define LLVMPLUG_FAILURE_H

#include "llvmplug.h"

#include <string>
#include <utility>

namespace llvmplug {

struct Failure {
  llvmplug_status status;
  std::string message;
  Failure(llvmplug_status status, std::string message) : status(status), message(std::move(message)) {}
};

} // namespace llvmplug

#endif
