// capture.h: collect what this copy of LLVM prints while a capture is alive.
//
// LLVM's command-line library reports a bad option value, and prints option
// values and help, only to its global outs()/errs() streams; it has no
// parameter to send that text elsewhere. To return that text in a result
// instead of spilling it onto the host process's stderr, the shim defines its
// own `write` (hidden, so only this copy of LLVM links to it): while an
// OutputCapture is alive on the calling thread, writes to fd 1 and 2 go to the
// capture; everything else goes to the kernel unchanged. Other threads and
// other libraries are not affected.
//
// Without a capture, a write of this copy's to fd 1 goes to fd 2 instead:
// the host's stdout belongs to the host (the CLI writes an object file
// there), and some LLVM options print to outs() in the middle of a compile.
//
// Only on Linux. On Windows and macOS the text goes to the process's stdout
// and stderr as LLVM writes it and take() returns ""; there the safe option
// policy (option_policy.h), which refuses every printing option, is what
// keeps LLVM off the host's stdout (not verified on those systems here), and
// the shim prints nothing of its own accord (works() is false, so option_shapes.cpp
// learns option shapes without printing).
//
// Test switch: with LLVMPLUG_TEST_NO_CAPTURE set in the environment when the
// library loads, captures collect nothing, as on those systems, so the Linux
// tests can check that the policy fails closed without them
// (tests/test_policy.py). It can only make the policy stricter: fewer
// option shapes are learned, and an option without one is refused.
#ifndef LLVMPLUG_CAPTURE_H
#define LLVMPLUG_CAPTURE_H

#include <string>

namespace llvmplug {

class OutputCapture {
public:
  OutputCapture();
  ~OutputCapture();
  OutputCapture(const OutputCapture &) = delete;
  OutputCapture &operator=(const OutputCapture &) = delete;

  // Flush LLVM's buffered stdout stream and return (and clear) the text.
  std::string take();

  // Whether captures collect text on this platform (and in this process).
  static bool works();

private:
  std::string text_;
  std::string *previous_;
};

} // namespace llvmplug

#endif
