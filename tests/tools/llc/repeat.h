// repeat.h: the -repeat=N timing loop refllc and refopt share.
#ifndef REFTOOLS_REPEAT_H
#define REFTOOLS_REPEAT_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>

// Runs `once(buffer)` `count` times, each into a buffer of its own, and
// prints the mean time per run as "TOOL: mean of N: X us" on stderr. Returns
// the first non-zero status of a run, else 0.
template <class Once> int repeatAndTime(const char *tool, unsigned count, Once once) {
  auto start = std::chrono::steady_clock::now();
  for (unsigned i = 0; i < count; ++i) {
    llvm::SmallVector<char, 0> again;
    if (int status = once(again))
      return status;
  }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  llvm::errs() << tool << ": mean of " << count << ": " << llvm::format("%.1f", seconds / count * 1e6) << " us\n";
  return 0;
}

#endif
