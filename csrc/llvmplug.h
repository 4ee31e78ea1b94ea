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
 *    the shim. Within one copy, compiles run concurrently when they set the
 *    same per-call options (or none); a compile with another set waits for
 *    them, and whatever changes options for good runs alone (see
 *    llvmplug_compile). Separate copies (loaded from different files) share
 *    nothing.
 *  - LLVM runs on threads of the shim's, kept between calls, each with a
 *    large stack, so input nested up to the limit llvmplug_info reports
 *    cannot overflow the caller's stack; deeper input fails with
 *    LLVMPLUG_ERROR_LIMIT. On Linux those threads are confined by the
 *    kernel (Landlock, seccomp: see llvmplug_set_sandbox), so an option or
 *    asm directive the policy let through still reads, writes and runs
 *    nothing; what it tried fails as an error of the call.
 */
#ifndef LLVMPLUG_H
#define LLVMPLUG_H

#include <stddef.h>

#if defined(_WIN32)
#if defined(LLVMPLUG_BUILDING)
#define LLVMPLUG_API __declspec(dllexport)
#else
#define LLVMPLUG_API __declspec(dllimport)
#endif
#else
#define LLVMPLUG_API __attribute__((visibility("default")))
#endif

/* Outside the cdef region: cffi reads only plain integer #defines. */
#define LLVMPLUG_ABI_MAJOR 2
#define LLVMPLUG_ABI_MINOR 2

#ifdef __cplusplus
extern "C" {
#endif

/* ---- cdef begin ---- */

/* major << 16 | minor: LLVMPLUG_ABI_MAJOR and LLVMPLUG_ABI_MINOR above (a
 * static_assert in abi.cpp keeps the three in step). A loader states the
 * major it speaks and the least minor it needs, and refuses anything else. */
#define LLVMPLUG_ABI_VERSION 0x00020002

typedef enum llvmplug_status {
  LLVMPLUG_OK = 0,
  LLVMPLUG_ERROR_ARGUMENT = 1, /* NULL pointer, zero size, malformed flags */
  LLVMPLUG_ERROR_PARSE = 2,    /* the module is not valid IR text/bitcode */
  LLVMPLUG_ERROR_VERIFY = 3,   /* the module parsed but fails the verifier */
  LLVMPLUG_ERROR_TARGET = 4,   /* unknown triple, CPU or target machine */
  LLVMPLUG_ERROR_OPTION = 5,   /* unknown option, bad value, bad pipeline,
                                  or an option the policy forbids */
  LLVMPLUG_ERROR_CODEGEN = 6,  /* an error diagnostic during optimisation
                                  or code generation */
  LLVMPLUG_ERROR_FATAL = 7,    /* LLVM reported a fatal error; this copy's
                                  LLVM state is no longer trustworthy */
  LLVMPLUG_ERROR_SHUTDOWN = 8, /* llvmplug_shutdown was already called */
  LLVMPLUG_ERROR_INTERNAL = 9, /* out of memory or an unexpected exception */
  LLVMPLUG_ERROR_LINK = 10,    /* a module to link in is unparsable, for
                                  another triple or data layout, or
                                  conflicts with the main module */
  LLVMPLUG_ERROR_LIMIT = 11    /* the input exceeds a stated limit (nesting
                                  depth; under the safe policy, what its
                                  asm text may expand to); nothing was run
                                  on it */
} llvmplug_status;

/* Which LLVM options a copy accepts (per call and sticky alike). */
typedef enum llvmplug_policy {
  /* The default of every fresh copy: only options that are values of the
   * compile (optimisation, codegen and target tuning, llc's codegen flags).
   * Options that load code, read or write files or stdin, print or dump,
   * exit, or keep debugging state past the call are refused with
   * LLVMPLUG_ERROR_OPTION, naming the option and why. A -passes pipeline
   * may name only passes and pass parameters that llvmplug_list_passes
   * classes "value"; any other name is refused the same way. */
  LLVMPLUG_POLICY_SAFE = 0,
  /* Every registered option, as llc would take it. For trusted callers
   * only: an option can then load a library or write files. */
  LLVMPLUG_POLICY_ALL = 1
} llvmplug_policy;

/* A read-only byte range, not retained after the call it is passed to. */
typedef struct llvmplug_buffer {
  const void *data;
  size_t size;
} llvmplug_buffer;

/* Opaque: status, output parts and diagnostic text of one call. */
typedef struct llvmplug_result llvmplug_result;

/* LLVMPLUG_ABI_VERSION as compiled into the library. Never fails. */
LLVMPLUG_API unsigned llvmplug_abi_version(void);

/* This build's id (since ABI 2.1): 64 hex digits, a SHA-256 over the
 * shim's sources, the LLVM SDK and the build configuration, fixed when the
 * library is built. Builds with the same id compile alike, so a cache may
 * key on it. The same text is installed beside the library (its file name
 * plus ".build-id") to be read without loading it. Never fails, initialises
 * nothing; the string is static. */
LLVMPLUG_API const char *llvmplug_build_id(void);

/* Compile one module, with other modules linked into it first.
 *  modules, module_count: modules[0] is the module to compile; the others
 *    (e.g. libdevice) are linked into it before optimisation. They bring in
 *    only the definitions modules[0] needs, directly or through each other,
 *    in any order, internalised; their module flags and named metadata are
 *    merged. One with module asm or a non-empty appending list
 *    (llvm.global_ctors/dtors, llvm.used, llvm.compiler.used...), which
 *    would reach the output whatever modules[0] uses, is LLVMPLUG_ERROR_LINK.
 *    Each is LLVM IR text or bitcode (raw or with the wrapper header),
 *    detected by magic, parsed with the target's data layout (as llc does)
 *    and under the same limits. Under the safe policy the asm text of every
 *    module (module asm, inline asm) is checked before LLVM assembles it:
 *    directives that read or write host files or print, and macros, are
 *    LLVMPLUG_ERROR_OPTION; counts that are not literals and expansion
 *    beyond 64 MiB are LLVMPLUG_ERROR_LIMIT. Function attributes naming an
 *    unknown CPU or feature are LLVMPLUG_ERROR_TARGET, as -mcpu/-mattr.
 *    module_count >= 1. Not retained after the call.
 *  target: a target triple; NULL or "" means -mtriple/-march from flags,
 *    else the module's own triple, else the host's default triple.
 *  flags: one string of llc-style flags, split with LLVM's GNU tokenizer.
 *    -O0..-O3, -passes=PIPELINE, -filetype=obj|asm|bc|ll, -mtriple=T,
 *    -march=A and llc's own output flags are handled by the pipeline; every
 *    other flag is an LLVM option applied for this call only and restored
 *    afterwards, subject to this copy's policy. NULL means no flags.
 *  parts: 0 or 1 compiles the module whole, into one output. N > 1 splits
 *    the module into at most N parts generated in parallel (obj or asm
 *    only); linking the parts together gives the same program.
 *  out: receives the result: one part per output (the object file,
 *    assembly, bitcode or IR text); on failure the message says what was
 *    wrong. On success the message holds LLVM's warnings, if any.
 *  Compiles with the same per-call options (or none) run concurrently with
 *  each other; a compile with another set waits until they are done. Alone
 *  run: a compile for a backend whose code generator writes LLVM options of
 *  its own (WebAssembly, PowerPC, Hexagon, BPF, AVR, Lanai, and any backend
 *  not measured to write none), a compile with per-call options beyond the
 *  safe policy's values, and every call that changes sticky options or the
 *  policy. */
LLVMPLUG_API llvmplug_status llvmplug_compile(const llvmplug_buffer *modules, size_t module_count,
                                              const char *target, const char *flags, unsigned parts,
                                              llvmplug_result **out);

/* Compile several modules (translation units) together, ThinLTO's way: each
 * gets a summary, a serial "thin link" decides what each imports from the
 * others (so inlining crosses modules), then each is optimised and generated
 * on its own thread. The outputs are the same whatever `threads` is.
 *  modules, module_count: the modules, each LLVM IR text or bitcode;
 *    module_count >= 1. Their definitions must not conflict (LINK).
 *  links, link_count: modules linked into each module first, as for
 *    llvmplug_compile's modules[1..]; links may be NULL when link_count is 0.
 *  target, flags: as for llvmplug_compile, but -passes is refused (ThinLTO
 *    runs its own pipelines, chosen by -O0..-O3) and -filetype=ll too.
 *    -filetype=bc stops before code generation: optimised bitcode.
 *  threads: at most this many modules are worked on at once (0 means 1).
 *  out: one part per module, in order. Runs alone (an exclusive lock):
 *    the work inside is parallel already. Since ABI 2.1. */
LLVMPLUG_API llvmplug_status llvmplug_compile_modules(const llvmplug_buffer *modules, size_t module_count,
                                                      const llvmplug_buffer *links, size_t link_count,
                                                      const char *target, const char *flags, unsigned threads,
                                                      llvmplug_result **out);

/* Describe this copy: a JSON object with llvm_version, abi_version,
 * build_id, host_triple, process_triple, host_cpu, host_features, targets (name,
 * description), backends, limits (max_nesting_depth), tables (where the
 * copy's policy tables came from: source "build", "load" or "check") and
 * (since ABI 2.2) sandbox: {"threads": what confines the threads LLVM runs
 * on: enabled, landlock_abi (0: none), seccomp, layers, missing (why a layer
 * is absent) and summary}. */
LLVMPLUG_API llvmplug_status llvmplug_info(llvmplug_result **out);

/* Describe one target: a JSON object with triple (normalised), target,
 * cpus (array of names), features (array of {name, description}).
 * triple: as for llvmplug_compile; NULL or "" means the host. */
LLVMPLUG_API llvmplug_status llvmplug_target_info(const char *triple, llvmplug_result **out);

/* Choose which options this copy accepts from now on. Fails if a sticky
 * option in force would not be allowed by the new policy. */
LLVMPLUG_API llvmplug_status llvmplug_set_policy(llvmplug_policy policy, llvmplug_result **out);

/* Set LLVM options that stay in force for every later compile of this copy
 * ("sticky" options) until they are set again or the copy is unloaded.
 * All flags are checked before any is applied: on failure nothing changes. */
LLVMPLUG_API llvmplug_status llvmplug_set_options(const char *flags, llvmplug_result **out);

/* Drop every sticky option: each returns to LLVM's default, as after a
 * reload, without reloading. (Setting an option to its default value is not
 * the same: LLVM tells an option given explicitly from one never given.) */
LLVMPLUG_API llvmplug_status llvmplug_clear_options(llvmplug_result **out);

/* List LLVM options as a JSON array of objects (name, type, value, default,
 * description, values, sticky, class, reason). class is "value" for an
 * option the safe policy allows, else what it does ("code", "file",
 * "print", "exit", "state", "unsafe") or "unknown" (no rule classifies it,
 * or its type could not be learned: refused), and reason says why in words.
 * type is null when it could not be learned (enums and custom parsers where
 * LLVM's help text cannot be captured, i.e. off Linux).
 * pattern: a glob over option names; NULL or "" lists all. */
LLVMPLUG_API llvmplug_status llvmplug_list_options(const char *pattern, llvmplug_result **out);

/* List the passes a -passes pipeline can name, from LLVM's PassBuilder
 * registry, as a JSON array of objects (name, kinds, analysis, syntax,
 * parameters, class, reason). class is "value" for a pass the safe policy
 * allows in a pipeline, else what it does ("code", "file", "print", "state",
 * "unsafe"); parameters lists each parameter (name, value, class, reason).
 * An analysis is named in pipelines as require<name> or invalidate<name>.
 * pattern: a glob over pass names; NULL or "" lists all. Since ABI 2.1. */
LLVMPLUG_API llvmplug_status llvmplug_list_passes(const char *pattern, llvmplug_result **out);

/* What this copy's compiles in progress are doing, for a progress display
 * (since ABI 2.2): a JSON array with one object per llvmplug_compile or
 * llvmplug_compile_modules call running: call ("compile" or
 * "compile_modules"), thread (the native id of the thread that called it,
 * as Python's threading.get_native_id gives it; 0 where the platform has
 * none), stage (what it is doing now, as in llvmplug_result_timings),
 * done and total (parts or modules finished and to make; 0 and 0 until the
 * call works on several) and seconds (since the call began). Takes no lock
 * a compile holds: it answers while they run, from any thread. */
LLVMPLUG_API llvmplug_status llvmplug_progress(llvmplug_result **out);

/* Choose whether this copy's threads are confined (since ABI 2.2).
 *  confine: non-zero (every copy's default) confines, on Linux, each thread
 *    LLVM runs on when it starts: no_new_privs; Landlock with every access
 *    right of the kernel's ABI handled and none granted but reading
 *    /proc/cpuinfo (no file read, written or executed; no TCP; no signal or
 *    abstract unix socket outside the thread's domain); a seccomp filter
 *    refusing with EPERM execve, socket, ptrace, process_vm_*, mounts,
 *    namespaces, the keyring, bpf, io_uring and module loading. So an
 *    option of the "all" policy that reads or writes a file, loads a
 *    plugin or runs a program fails (an error of the call, as for a file
 *    that is not there). A layer the kernel lacks is skipped (llvmplug_info
 *    says which and why); one it has that cannot be applied fails the call.
 *    0 leaves the threads unconfined: for trusted callers whose options
 *    must reach files.
 *  Call it before any call that compiles or describes (the first of those
 *  starts a thread, and a confined thread cannot be freed): changing it
 *  afterwards is LLVMPLUG_ERROR_ARGUMENT. Runs on the caller's thread. */
LLVMPLUG_API llvmplug_status llvmplug_set_sandbox(int confine, llvmplug_result **out);

/* Confine the calling process as a worker that only compiles (since ABI
 * 2.2; Linux, else it reports that nothing was applied): the calling thread
 * gets what llvmplug_set_sandbox gives this copy's threads, keeping
 * `readable` (files or directories) readable besides, and passes it on to
 * every thread it starts later; core dumps are turned off and the process
 * made not dumpable. Call it on the thread that will start every later one,
 * before it starts any: a thread already running keeps its own confinement
 * (this copy's own threads confined themselves when they started).
 * Irreversible. out: on success a JSON object as llvmplug_info's
 * sandbox.threads, with "no core dumps" among layers. */
LLVMPLUG_API llvmplug_status llvmplug_confine_process(const char *const *readable, size_t readable_count,
                                                      llvmplug_result **out);

/* Tear LLVM down (llvm_shutdown and the C++ runtime's free-resources hook) and
 * join the threads LLVM ran on, so that unloading the library leaves nothing
 * behind. Call it only right before unloading: every later call fails with
 * LLVMPLUG_ERROR_SHUTDOWN. Waits for calls in progress. Idempotent. */
LLVMPLUG_API llvmplug_status llvmplug_shutdown(void);

/* Result accessors. A NULL result reads as LLVMPLUG_ERROR_ARGUMENT with no
 * data and an empty message. A successful result has at least one part;
 * llvmplug_result_data/size read part 0. Data is NUL-terminated for
 * convenience (the terminator is not counted in its size); message is never
 * NULL; an index out of range reads as NULL data of size 0. */
LLVMPLUG_API llvmplug_status llvmplug_result_status(const llvmplug_result *r);
LLVMPLUG_API size_t llvmplug_result_part_count(const llvmplug_result *r);
LLVMPLUG_API const char *llvmplug_result_part_data(const llvmplug_result *r, size_t index);
LLVMPLUG_API size_t llvmplug_result_part_size(const llvmplug_result *r, size_t index);
LLVMPLUG_API const char *llvmplug_result_data(const llvmplug_result *r);
LLVMPLUG_API size_t llvmplug_result_size(const llvmplug_result *r);
LLVMPLUG_API const char *llvmplug_result_message(const llvmplug_result *r);
LLVMPLUG_API void llvmplug_result_free(llvmplug_result *r);

/* How long the llvmplug_compile or llvmplug_compile_modules call that made
 * `r` spent in each stage (since ABI 2.2), successful or not: a JSON object
 * with call, seconds (the whole call), stages (an array of {stage,
 * seconds}, in the order they began; a stage entered again adds up) and
 * parts (one {stages} per part or module worked on in parallel, else
 * empty). Stages: "wait" (for the copy: compiles with other options, or
 * one that runs alone), "parse" (parsing, verifying, choosing the target),
 * "link", "check" (target checks), "optimise", "codegen" or "write"
 * (bitcode or IR text), "split", "summarise", "import" (ThinLTO's thin
 * link) and "optimise+codegen" (the parts in parallel). "{}" for any other
 * result. Recorded by every compile at the cost of a few clock reads; made
 * into text on first ask. Never NULL; valid until r is freed; not to be
 * called for one result from two threads at once. */
LLVMPLUG_API const char *llvmplug_result_timings(const llvmplug_result *r);

/* ---- cdef end ---- */

#ifdef __cplusplus
}
#endif

#endif /* LLVMPLUG_H */
