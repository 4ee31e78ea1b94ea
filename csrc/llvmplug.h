/*
 * llvmplug.h: the C ABI of the llvmplug shim.
 *
 * This header is the single source of truth for the ABI. The Python package
 * reads the region between the "cdef begin" and "cdef end" markers and hands
 * it to cffi as is (after dropping the LLVMPLUG_API token), so that region
 * must stay plain C that cffi can parse: no other macros, no #if.
 *
 * Conventions
 *  - Every function that can fail returns an llvmplug_status and, where it
 *    has an `out` parameter, stores a newly allocated llvmplug_result there
 *    whether it succeeds or fails; the result carries the data on success and
 *    the diagnostic text on failure. The caller owns the result and frees it
 *    with llvmplug_result_free. Pointers obtained from a result stay valid
 *    until that result is freed.
 *  - A NULL `out` is rejected with LLVMPLUG_ERROR_ARGUMENT (there is nowhere
 *    to put the message). Every other bad argument (NULL module, zero size,
 *    unknown option, unknown target...) is reported through the result.
 *  - No C++ exception and no LLVM fatal error crosses this boundary.
 *  - LLVM's command-line options are process-wide inside one loaded copy of
 *    the shim, so every entry point of one copy is serialised by one lock.
 *    Separate copies (loaded from different files) share nothing.
 */
#ifndef LLVMPLUG_H
#define LLVMPLUG_H

#include <stddef.h>

#if defined(_WIN32)
#  if defined(LLVMPLUG_BUILDING)
#    define LLVMPLUG_API __declspec(dllexport)
#  else
#    define LLVMPLUG_API __declspec(dllimport)
#  endif
#else
#  define LLVMPLUG_API __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---- cdef begin ---- */

/* major << 16 | minor. A loader refuses a library whose major differs from
 * the one it was written for. */
#define LLVMPLUG_ABI_VERSION 0x00010001

typedef enum llvmplug_status {
  LLVMPLUG_OK = 0,
  LLVMPLUG_ERROR_ARGUMENT = 1, /* NULL pointer, zero size, malformed flags */
  LLVMPLUG_ERROR_PARSE = 2,    /* the module is not valid IR text/bitcode */
  LLVMPLUG_ERROR_VERIFY = 3,   /* the module parsed but fails the verifier */
  LLVMPLUG_ERROR_TARGET = 4,   /* unknown triple, CPU or target machine */
  LLVMPLUG_ERROR_OPTION = 5,   /* unknown option, bad value, bad pipeline */
  LLVMPLUG_ERROR_CODEGEN = 6,  /* an error diagnostic during optimisation
                                  or code generation */
  LLVMPLUG_ERROR_FATAL = 7,    /* LLVM reported a fatal error; this copy's
                                  LLVM state is no longer trustworthy */
  LLVMPLUG_ERROR_SHUTDOWN = 8, /* llvmplug_shutdown was already called */
  LLVMPLUG_ERROR_INTERNAL = 9  /* out of memory or an unexpected exception */
} llvmplug_status;

/* Opaque: status, data bytes and diagnostic text of one call. */
typedef struct llvmplug_result llvmplug_result;

/* LLVMPLUG_ABI_VERSION as compiled into the library. Never fails. */
LLVMPLUG_API unsigned llvmplug_abi_version(void);

/* Compile one module.
 *  module, module_size: LLVM IR text or bitcode (raw or with the bitcode
 *    wrapper header), detected by magic. Not retained after the call.
 *  target: a target triple; NULL or "" means the module's own triple, or the
 *    host's default triple when the module has none.
 *  flags: one string of llc-style flags, split with LLVM's GNU tokenizer.
 *    -O0..-O3, -passes=PIPELINE, -filetype=obj|asm|bc|ll and -mtriple=T are
 *    handled by the pipeline; every other flag is an LLVM option applied for
 *    this call only and restored afterwards. NULL means no flags.
 *  out: receives the result; data is the object file, assembly, bitcode or
 *    IR text; on failure the message says what was wrong. */
LLVMPLUG_API llvmplug_status llvmplug_compile(const void *module,
                                              size_t module_size,
                                              const char *target,
                                              const char *flags,
                                              llvmplug_result **out);

/* Describe this copy: a JSON object with llvm_version, abi_version,
 * host_triple, process_triple, host_cpu, host_features and targets. */
LLVMPLUG_API llvmplug_status llvmplug_info(llvmplug_result **out);

/* Set LLVM options that stay in force for every later compile of this copy
 * ("sticky" options) until they are set again or the copy is unloaded.
 * All flags are checked before any is applied: on failure nothing changes. */
LLVMPLUG_API llvmplug_status llvmplug_set_options(const char *flags,
                                                  llvmplug_result **out);

/* Drop every sticky option: each returns to LLVM's default, as after a
 * reload, without reloading. (Setting an option to its default value is not
 * the same: LLVM tells an option given explicitly from one never given.)
 * Since ABI 1.1. */
LLVMPLUG_API llvmplug_status llvmplug_clear_options(llvmplug_result **out);

/* List LLVM options as a JSON array of objects (name, type, value, default,
 * description, values, sticky). pattern: a glob over option names; NULL or ""
 * lists all. */
LLVMPLUG_API llvmplug_status llvmplug_list_options(const char *pattern,
                                                   llvmplug_result **out);

/* Tear LLVM down (llvm_shutdown and the C++ runtime's free-resources hook) so
 * that unloading the library leaves nothing behind. Call it only right before
 * unloading: every later call fails with LLVMPLUG_ERROR_SHUTDOWN. Waits for
 * calls in progress. Idempotent. */
LLVMPLUG_API llvmplug_status llvmplug_shutdown(void);

/* Result accessors. A NULL result reads as LLVMPLUG_ERROR_ARGUMENT with no
 * data and an empty message. data is NUL-terminated for convenience (the
 * terminator is not counted in size); message is never NULL. */
LLVMPLUG_API llvmplug_status llvmplug_result_status(const llvmplug_result *r);
LLVMPLUG_API const char *llvmplug_result_data(const llvmplug_result *r);
LLVMPLUG_API size_t llvmplug_result_size(const llvmplug_result *r);
LLVMPLUG_API const char *llvmplug_result_message(const llvmplug_result *r);
LLVMPLUG_API void llvmplug_result_free(llvmplug_result *r);

/* ---- cdef end ---- */

#ifdef __cplusplus
}
#endif

#endif /* LLVMPLUG_H */
