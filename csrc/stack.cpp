#include "stack.h"

#include "llvm/Support/thread.h"

#include <exception>
#include <optional>

namespace llvmplug {

void runOnBigStack(llvm::function_ref<void()> work) {
  std::exception_ptr thrown;
  // llvm::thread takes a stack size on every platform (pthread attributes,
  // _beginthreadex). If the thread cannot be created LLVM reports a fatal
  // error, which the handler (runtime.cpp) throws here on the calling thread.
  llvm::thread worker(std::optional<unsigned>(BigStackBytes), [&] {
    try {
      work();
    } catch (...) {
      thrown = std::current_exception();
    }
  });
  worker.join();
  if (thrown)
    std::rethrow_exception(thrown);
}

} // namespace llvmplug
