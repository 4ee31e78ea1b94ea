// abi.cpp: the C boundary. Every exported function is defined here and only
// here; each validates its arguments, holds the runtime lock, and turns any
// C++ exception (including an LLVM fatal error, see runtime.cpp) into a
// status. Nothing below this file knows about the C ABI's result type.
#include "llvmplug.h"

#include "compiler.h"
#include "failure.h"
#include "info.h"
#include "option_registry.h"
#include "pass_policy.h"
#include "runtime.h"
#include "start.h"
#include "targets.h"
#include "threads.h"
#include "timings.h"

#include "llvm/Support/raw_ostream.h"

#include <exception>
#include <new>
#include <string>
#include <tuple>
#include <vector>

static_assert(LLVMPLUG_ABI_VERSION == (LLVMPLUG_ABI_MAJOR << 16 | LLVMPLUG_ABI_MINOR),
              "llvmplug.h: LLVMPLUG_ABI_VERSION disagrees with its major and minor");

struct llvmplug_result {
  llvmplug_status status = LLVMPLUG_OK;
  std::vector<std::string> parts;
  std::string message;
  llvmplug::Timings timings; // a compile's stages (timings.h)
  std::string timingsText;   // formatted on first ask
};

namespace {

using namespace llvmplug;

// Where a body runs: on one of the copy's threads (threads.h), or on the
// caller's own (only what must act on the caller's thread).
enum class On { LLVMThread, Caller };

template <class Body> llvmplug_status guarded(llvmplug_result **out, Body &&body, On on = On::LLVMThread) {
  if (!out)
    return LLVMPLUG_ERROR_ARGUMENT;
  *out = nullptr;
  auto *result = new (std::nothrow) llvmplug_result();
  if (!result)
    return LLVMPLUG_ERROR_INTERNAL;
  auto fail = [&](llvmplug_status status, const char *message) noexcept {
    result->status = status;
    try {
      result->parts.clear();
      result->message = message;
    } catch (...) {
      // Out of memory while reporting: the status alone must do.
    }
  };
  try {
    // LLVM recurses on nested input and must run confined: run the body on
    // a thread of the copy's (threads.h); whatever it throws is rethrown
    // here. Each body takes the runtime lock itself, shared or exclusive,
    // on that thread (runtime.h).
    if (on == On::LLVMThread)
      runOnLLVMThread([&] { body(*result); });
    else
      body(*result);
    if (result->parts.empty())
      result->parts.emplace_back(); // the header promises a part on success
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

const char *llvmplug_build_id(void) { return buildId(); }

llvmplug_status llvmplug_compile(const llvmplug_buffer *modules, size_t module_count, const char *target,
                                 const char *flags, unsigned parts, llvmplug_result **out) {
  std::uint64_t caller = callerThreadId(); // before the body may move to another thread
  return guarded(out, [&](llvmplug_result &result) {
    result.timings.begin("compile", caller);
    if (!modules || module_count == 0)
      throw Failure(LLVMPLUG_ERROR_ARGUMENT, "no module given (modules is NULL or module_count is 0)");
    for (size_t i = 0; i < module_count; ++i) {
      if (!modules[i].data)
        throw Failure(LLVMPLUG_ERROR_ARGUMENT, "module " + std::to_string(i) + " is NULL");
      if (modules[i].size == 0)
        throw Failure(LLVMPLUG_ERROR_ARGUMENT, "module " + std::to_string(i) + " is empty (size 0)");
    }
    std::vector<llvm::StringRef> links;
    for (size_t i = 1; i < module_count; ++i)
      links.emplace_back(static_cast<const char *>(modules[i].data), modules[i].size);
    // compileModule takes the lock: only it knows whether the flags set
    // per-call options.
    Compiled compiled =
        compileModule(llvm::StringRef(static_cast<const char *>(modules[0].data), modules[0].size),
                      text(target), text(flags), links, parts, result.timings);
    result.parts = std::move(compiled.parts);
    result.message = std::move(compiled.warnings);
  });
}

llvmplug_status llvmplug_compile_modules(const llvmplug_buffer *modules, size_t module_count,
                                         const llvmplug_buffer *links, size_t link_count, const char *target,
                                         const char *flags, unsigned threads, llvmplug_result **out) {
  std::uint64_t caller = callerThreadId();
  return guarded(out, [&](llvmplug_result &result) {
    result.timings.begin("compile_modules", caller);
    if (!modules || module_count == 0)
      throw Failure(LLVMPLUG_ERROR_ARGUMENT, "no module given (modules is NULL or module_count is 0)");
    if (!links && link_count)
      throw Failure(LLVMPLUG_ERROR_ARGUMENT, "links is NULL but link_count is not 0");
    std::vector<llvm::StringRef> inputs, linked;
    for (auto [buffers, count, kind, into] :
         {std::tuple{modules, module_count, "module", &inputs}, {links, link_count, "link module", &linked}})
      for (size_t i = 0; i < count; ++i) {
        if (!buffers[i].data || buffers[i].size == 0)
          throw Failure(LLVMPLUG_ERROR_ARGUMENT,
                        std::string(kind) + " " + std::to_string(i) + " is NULL or empty");
        into->emplace_back(static_cast<const char *>(buffers[i].data), buffers[i].size);
      }
    Compiled compiled = compileModules(inputs, linked, text(target), text(flags), threads, result.timings);
    result.parts = std::move(compiled.parts);
    result.message = std::move(compiled.warnings);
  });
}

llvmplug_status llvmplug_target_info(const char *triple, llvmplug_result **out) {
  return guarded(out, [&](llvmplug_result &result) {
    SharedLock hold(runtimeLock()); // reads the target's tables only
    runtime();
    result.parts.push_back(describeTarget(text(triple)));
  });
}

llvmplug_status llvmplug_set_policy(llvmplug_policy policy, llvmplug_result **out) {
  return guarded(out, [&](llvmplug_result &) {
    ExclusiveLock hold(runtimeLock());
    OptionRegistry &registry = runtime();
    if (policy != LLVMPLUG_POLICY_SAFE && policy != LLVMPLUG_POLICY_ALL)
      throw Failure(LLVMPLUG_ERROR_ARGUMENT, "unknown policy " + std::to_string(int(policy)));
    registry.setPolicy(policy);
  });
}

llvmplug_status llvmplug_info(llvmplug_result **out) {
  return guarded(out, [&](llvmplug_result &result) {
    SharedLock hold(runtimeLock()); // reads host and target tables only
    runtime();
    result.parts.push_back(describeLibrary());
  });
}

llvmplug_status llvmplug_set_options(const char *flags, llvmplug_result **out) {
  return guarded(out, [&](llvmplug_result &) {
    ExclusiveLock hold(runtimeLock());
    OptionRegistry &registry = runtime();
    registry.setSticky(registry.resolve(tokenizeFlags(text(flags))));
  });
}

llvmplug_status llvmplug_clear_options(llvmplug_result **out) {
  return guarded(out, [&](llvmplug_result &) {
    ExclusiveLock hold(runtimeLock());
    OptionRegistry &registry = runtime();
    registry.clearSticky();
  });
}

llvmplug_status llvmplug_list_options(const char *pattern, llvmplug_result **out) {
  return guarded(out, [&](llvmplug_result &result) {
    // Exclusive: it prints through LLVM's shared outs() stream (capture.h).
    ExclusiveLock hold(runtimeLock());
    result.parts.push_back(runtime().describe(text(pattern)));
  });
}

llvmplug_status llvmplug_list_passes(const char *pattern, llvmplug_result **out) {
  return guarded(out, [&](llvmplug_result &result) {
    SharedLock hold(runtimeLock()); // the catalogue is built once, then only read
    runtime();
    result.parts.push_back(PassCatalogue::get().describe(text(pattern)));
  });
}

llvmplug_status llvmplug_progress(llvmplug_result **out) {
  return guarded(
      out,
      [&](llvmplug_result &result) {
        // No runtime lock: it must answer while a compile holds it, and reads
        // only the registry of calls in progress (timings.h).
        result.parts.push_back(runningCalls());
      },
      On::Caller);
}

llvmplug_status llvmplug_set_sandbox(int enabled, llvmplug_result **out) {
  return guarded(out, [&](llvmplug_result &) { chooseConfinement(enabled != 0); }, On::Caller);
}

llvmplug_status llvmplug_confine_process(const char *const *readable, size_t readable_count,
                                         llvmplug_result **out) {
  return guarded(
      out,
      [&](llvmplug_result &result) {
        if (!readable && readable_count)
          throw Failure(LLVMPLUG_ERROR_ARGUMENT, "readable is NULL but readable_count is not 0");
        std::vector<std::string> paths;
        for (size_t i = 0; i < readable_count; ++i) {
          if (!readable[i] || !*readable[i])
            throw Failure(LLVMPLUG_ERROR_ARGUMENT,
                          "readable path " + std::to_string(i) + " is NULL or empty");
          paths.emplace_back(readable[i]);
        }
        for (const std::string &path : readableByLLVM())
          paths.push_back(path);
        std::string text;
        llvm::raw_string_ostream os(text);
        os << confineProcess(paths).json();
        result.parts.push_back(std::move(text));
      },
      On::Caller);
}

llvmplug_status llvmplug_shutdown(void) {
  try {
    {
      ExclusiveLock hold(runtimeLock());
      shutdownRuntime();
    }
    stopThreads(); // every thread of this copy joined: the copy may be unmapped
    return LLVMPLUG_OK;
  } catch (...) {
    return LLVMPLUG_ERROR_INTERNAL;
  }
}

llvmplug_status llvmplug_result_status(const llvmplug_result *r) {
  return r ? r->status : LLVMPLUG_ERROR_ARGUMENT;
}

size_t llvmplug_result_part_count(const llvmplug_result *r) { return r ? r->parts.size() : 0; }

const char *llvmplug_result_part_data(const llvmplug_result *r, size_t index) {
  return r && index < r->parts.size() ? r->parts[index].c_str() : nullptr;
}

size_t llvmplug_result_part_size(const llvmplug_result *r, size_t index) {
  return r && index < r->parts.size() ? r->parts[index].size() : 0;
}

const char *llvmplug_result_data(const llvmplug_result *r) { return llvmplug_result_part_data(r, 0); }

size_t llvmplug_result_size(const llvmplug_result *r) { return llvmplug_result_part_size(r, 0); }

const char *llvmplug_result_message(const llvmplug_result *r) { return r ? r->message.c_str() : ""; }

const char *llvmplug_result_timings(const llvmplug_result *r) {
  if (!r)
    return "{}";
  auto *result = const_cast<llvmplug_result *>(r); // the text is made once, on first ask
  if (result->timingsText.empty()) {
    try {
      result->timingsText = result->timings.json();
    } catch (...) {
      return "{}"; // out of memory: no timings rather than no answer
    }
  }
  return result->timingsText.c_str();
}

void llvmplug_result_free(llvmplug_result *r) { delete r; }

} // extern "C"
