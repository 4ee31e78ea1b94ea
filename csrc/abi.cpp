// abi.cpp: the C boundary. Every exported function is defined here and only
// here; each validates its arguments, holds the runtime lock, and turns any
// C++ exception (including an LLVM fatal error, see runtime.cpp) into a
// status. Nothing below this file knows about the C ABI's result type.
#include "llvmplug.h"

#include "compiler.h"
#include "failure.h"
#include "info.h"
#include "options.h"
#include "runtime.h"

#include <exception>
#include <new>
#include <string>

struct llvmplug_result {
  llvmplug_status status = LLVMPLUG_OK;
  std::string data;
  std::string message;
};

namespace {

using namespace llvmplug;

template <class Body> llvmplug_status guarded(llvmplug_result **out, Body &&body) {
  if (!out)
    return LLVMPLUG_ERROR_ARGUMENT;
  *out = nullptr;
  auto *result = new (std::nothrow) llvmplug_result();
  if (!result)
    return LLVMPLUG_ERROR_INTERNAL;
  auto fail = [&](llvmplug_status status, const char *message) noexcept {
    result->status = status;
    try {
      result->data.clear();
      result->message = message;
    } catch (...) {
      // Out of memory while reporting: the status alone must do.
    }
  };
  try {
    std::lock_guard<std::mutex> hold(runtimeLock());
    body(*result);
  } catch (const Failure &failure) {
    fail(failure.status, failure.message.c_str());
  } catch (const std::bad_alloc &) {
    fail(LLVMPLUG_ERROR_INTERNAL, "out of memory");
  } catch (const std::exception &error) {
    fail(LLVMPLUG_ERROR_INTERNAL, error.what());
  } catch (...) {
    fail(LLVMPLUG_ERROR_INTERNAL, "unexpected exception in llvmplug");
  }
  *out = result;
  return result->status;
}

llvm::StringRef text(const char *s) { return s ? llvm::StringRef(s) : llvm::StringRef(); }

} // namespace

extern "C" {

unsigned llvmplug_abi_version(void) { return LLVMPLUG_ABI_VERSION; }

llvmplug_status llvmplug_compile(const void *module, size_t module_size, const char *target,
                                 const char *flags, llvmplug_result **out) {
  return guarded(out, [&](llvmplug_result &result) {
    if (!module)
      throw Failure(LLVMPLUG_ERROR_ARGUMENT, "module is NULL");
    if (module_size == 0)
      throw Failure(LLVMPLUG_ERROR_ARGUMENT, "module is empty (size 0)");
    Compiled compiled = compileModule(
        runtime(), llvm::StringRef(static_cast<const char *>(module), module_size), text(target),
        text(flags));
    result.data = std::move(compiled.data);
    result.message = std::move(compiled.warnings);
  });
}

llvmplug_status llvmplug_info(llvmplug_result **out) {
  return guarded(out, [&](llvmplug_result &result) {
    runtime();
    result.data = describeLibrary();
  });
}

llvmplug_status llvmplug_set_options(const char *flags, llvmplug_result **out) {
  return guarded(out, [&](llvmplug_result &) {
    OptionRegistry &registry = runtime();
    registry.setSticky(registry.resolve(tokenizeFlags(text(flags))));
  });
}

llvmplug_status llvmplug_clear_options(llvmplug_result **out) {
  return guarded(out, [&](llvmplug_result &) { runtime().clearSticky(); });
}

llvmplug_status llvmplug_list_options(const char *pattern, llvmplug_result **out) {
  return guarded(out, [&](llvmplug_result &result) {
    result.data = runtime().describe(text(pattern));
  });
}

llvmplug_status llvmplug_shutdown(void) {
  try {
    std::lock_guard<std::mutex> hold(runtimeLock());
    shutdownRuntime();
    return LLVMPLUG_OK;
  } catch (...) {
    return LLVMPLUG_ERROR_INTERNAL;
  }
}

llvmplug_status llvmplug_result_status(const llvmplug_result *r) {
  return r ? r->status : LLVMPLUG_ERROR_ARGUMENT;
}

const char *llvmplug_result_data(const llvmplug_result *r) { return r ? r->data.c_str() : nullptr; }

size_t llvmplug_result_size(const llvmplug_result *r) { return r ? r->data.size() : 0; }

const char *llvmplug_result_message(const llvmplug_result *r) {
  return r ? r->message.c_str() : "";
}

void llvmplug_result_free(llvmplug_result *r) { delete r; }

} // extern "C"
