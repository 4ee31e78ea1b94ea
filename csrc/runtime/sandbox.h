// sandbox.h: the kernel's layer under the policy. The threads LLVM runs on
// (threads.h), and a worker process as a whole, are confined so that what
// the option and asm policies miss still reads, writes and runs nothing.
//
// The policy (option_policy.h, pass_policy.h, asm_policy.h) reads text; a
// rule it lacks is an open door. The kernel does not read text: a confined
// thread that LLVM makes open a host file, write one, load a plugin or run
// a program gets EACCES or EPERM, which LLVM reports as an error like any
// other (a typed error at the C boundary), never as a crash.
//
// On Linux, confining a thread means, on that thread (and every thread it
// starts later, as LLVM's own parallel code does):
//  - PR_SET_NO_NEW_PRIVS (needed by both layers below; per thread);
//  - Landlock, every access right the kernel's ABI knows handled and none
//    granted but reading `readable` (for LLVM's threads: /proc/cpuinfo,
//    which -mcpu=native and the thread-count heuristics read on some
//    hosts): no file read, written, made, removed or executed; from ABI 4
//    no TCP bind or connect; from ABI 6 no abstract unix socket or signal
//    outside the domain. Landlock restricts the calling thread only, which
//    is what lets the shim confine its own threads inside a host process
//    and leave the host's threads alone;
//  - a seccomp filter (hand-written BPF, no libseccomp) refusing with EPERM
//    the calls that reach past a file-system rule or out of the process:
//    execve/execveat, socket, ptrace, process_vm_*, the mount family,
//    unshare/setns and clone with a CLONE_NEW* flag, the keyring, bpf,
//    perf_event_open, userfaultfd, io_uring, open_by_handle_at, kexec and
//    module loading; clone3 gets ENOSYS (its flags sit behind a pointer the
//    filter cannot read; glibc then uses clone). A deny-list, not an
//    allow-list: what a thread may touch on the file system is Landlock's
//    allow-list, and an allow-list of system calls would break with the
//    next glibc or kernel (rseq, a new mmap variant) on some host.
//    EPERM rather than killing: in process a kill would take the host
//    down for what LLVM reports as an error anyway. A call from another
//    architecture's table (int 0x80, x32) gets EPERM whatever it is.
//
// Fail closed, except for absence: a layer the kernel lacks (Landlock not
// built or not enabled, seccomp filters missing, an architecture the
// filter does not cover) is skipped and reported, so that nothing starts
// failing on an older kernel; a layer the kernel offers that cannot be
// applied is an error, and LLVM's work does not run unconfined.
//
// Elsewhere (Windows, macOS) nothing is confined and the report says so:
// the policy alone holds the line there.
//
// Refused writes become errors. LLVM swallows some failed writes: for
// -stack-usage-file it prints "Could not open file" and compiles on; for
// -exec-on-ir-change it cannot make its temporary file and skips the
// program. A result without what the options asked for is a silent wrong
// result, so the shim's own open() (Linux; hidden, so only this copy of
// LLVM calls it, as capture.h's write) notes every open for writing that
// the kernel refuses during a call, and the call then fails with
// LLVMPLUG_ERROR_OPTION naming the file. Reads are not noted: LLVM reports
// a file it must read and cannot (.incbin is a CodegenError), and reading
// a host file for information (/sys, say) it may do and do without.
//
// Test switches, read when the library loads (as capture.h's): with
// LLVMPLUG_TEST_NO_LANDLOCK or LLVMPLUG_TEST_NO_SECCOMP set in the
// environment, that layer is treated as missing from the kernel, so that
// the tests can run the fallback path on a kernel that has both.
#ifndef LLVMPLUG_SANDBOX_H
#define LLVMPLUG_SANDBOX_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/JSON.h"

#include <mutex>
#include <string>
#include <vector>

namespace llvmplug {

// What confines a thread (or a process), for llvmplug_info.
struct SandboxReport {
  bool wanted = false;              // confinement was asked for
  int landlockAbi = 0;              // the Landlock ABI applied; 0: none
  bool seccomp = false;             // the seccomp filter is installed
  bool coreDumpsOff = false;        // (process only) no core dump, not dumpable
  std::vector<std::string> missing; // why a wanted layer is absent

  // A JSON object: enabled, landlock_abi, seccomp, layers, missing,
  // summary ("Landlock ABI 7 and seccomp", or "policy only: ..." and why).
  llvm::json::Value json() const;
};

// Confine the calling thread and the threads it starts from now on (see
// above); `readable` are paths (files or directories) left readable.
// Throws Failure(LLVMPLUG_ERROR_INTERNAL) if a layer the kernel offers
// cannot be applied.
SandboxReport confineThread(llvm::ArrayRef<std::string> readable);

// For a worker process, on its main thread before it starts any other
// thread: confineThread(readable) plus core dumps off (RLIMIT_CORE 0, not
// dumpable). Threads already running keep their own confinement (the shim's
// own threads confined themselves when they started).
SandboxReport confineProcess(llvm::ArrayRef<std::string> readable);

// What LLVM's threads may still read: /proc/cpuinfo (see above).
llvm::ArrayRef<std::string> readableByLLVM();

// The writes the kernel refused during one call (see above), noted from
// every thread the call runs on.
class Refusals {
public:
  void note(const char *path);
  // Throws Failure(LLVMPLUG_ERROR_OPTION) naming the first refused file.
  void check() const;

private:
  mutable std::mutex lock_;
  std::string first_;
  size_t count_ = 0;
};

// While alive, the calling thread's refused writes go to `refusals` (may be
// null: not noted); the previous record is restored after.
class RefusalScope {
public:
  explicit RefusalScope(Refusals *refusals);
  ~RefusalScope();
  RefusalScope(const RefusalScope &) = delete;
  RefusalScope &operator=(const RefusalScope &) = delete;

private:
  Refusals *previous_;
};

// The calling thread's record, for the threads a call starts (split.h).
Refusals *currentRefusals();

} // namespace llvmplug

#endif
