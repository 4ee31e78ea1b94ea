#include "capture.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

#if defined(__linux__)
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace {
// A plain pointer: no thread-local destructor, which would pin the library
// in memory (glibc refuses to unmap a DSO with pending TLS destructors).
thread_local std::string *Sink = nullptr;

// Read once, at load (see capture.h).
#if defined(__linux__)
const bool Works = std::getenv("LLVMPLUG_TEST_NO_CAPTURE") == nullptr;
#else
const bool Works = false;
#endif
} // namespace

namespace llvmplug {

bool OutputCapture::works() { return Works; }

OutputCapture::OutputCapture() : previous_(Sink) {
  if (Works)
    Sink = &text_;
}

OutputCapture::~OutputCapture() {
  llvm::outs().flush();
  Sink = previous_;
}

std::string OutputCapture::take() {
  llvm::outs().flush();
  std::string text;
  text.swap(text_);
  return text;
}

} // namespace llvmplug

#if defined(__linux__)
// See capture.h. Linked statically into the shim and not exported (the
// version script keeps only llvmplug_*), so it replaces libc's write for
// this copy of LLVM only.
extern "C" ssize_t write(int fd, const void *buf, size_t count) {
  if (Sink && (fd == STDOUT_FILENO || fd == STDERR_FILENO)) {
    try {
      Sink->append(static_cast<const char *>(buf), count);
    } catch (...) {
      // Out of memory: drop the text rather than let it reach fd 1.
    }
    return static_cast<ssize_t>(count);
  }
  if (fd == STDOUT_FILENO)
    fd = STDERR_FILENO; // never the host's stdout (see capture.h)
  return syscall(SYS_write, fd, buf, count);
}
#endif
