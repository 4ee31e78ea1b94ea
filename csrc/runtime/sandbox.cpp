#include "sandbox.h"

#include "failure.h"

#include <cerrno>
#include <cstdarg>
#include <cstdlib>
#include <cstring>

#if defined(__linux__)
#include <cstddef>
#include <cstdint>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace llvmplug {

llvm::json::Value SandboxReport::json() const {
  llvm::json::Array layers, why;
  std::string summary;
  if (landlockAbi)
    layers.push_back("landlock");
  if (seccomp)
    layers.push_back("seccomp");
  if (coreDumpsOff)
    layers.push_back("no core dumps");
  for (const std::string &reason : missing)
    why.push_back(reason);
  if (!wanted)
    summary = "off: the policy alone (the sandbox was turned off for this copy)";
  else if (!landlockAbi && !seccomp) {
    summary = "policy only:";
    for (const std::string &reason : missing)
      summary += " " + reason + ";";
    summary.pop_back();
  } else {
    summary = landlockAbi ? "Landlock ABI " + std::to_string(landlockAbi) : "";
    if (seccomp)
      summary += summary.empty() ? "seccomp" : " and seccomp";
    for (const std::string &reason : missing)
      summary += "; " + reason;
  }
  return llvm::json::Object{{"enabled", wanted},         {"landlock_abi", landlockAbi},
                            {"seccomp", seccomp},        {"layers", std::move(layers)},
                            {"missing", std::move(why)}, {"summary", summary}};
}

namespace {
// A plain pointer: no thread-local destructor (see capture.cpp).
thread_local Refusals *CurrentRefusals = nullptr;
} // namespace

void Refusals::note(const char *path) {
  std::lock_guard<std::mutex> hold(lock_);
  if (count_++ == 0) {
    try {
      first_ = path ? path : "";
    } catch (...) {
      // Out of memory: the count alone still fails the call.
    }
  }
}

void Refusals::check() const {
  std::lock_guard<std::mutex> hold(lock_);
  if (count_ == 0)
    return;
  throw Failure(LLVMPLUG_ERROR_OPTION,
                "the sandbox refused to let LLVM write '" + first_ + "'" +
                    (count_ > 1 ? " (and " + std::to_string(count_ - 1) + " more)" : "") +
                    ": an option or directive asked for a file, and LLVM's threads may write none; "
                    "nothing was written (a trusted caller can turn the sandbox off for a copy: "
                    "Plugin(sandbox=False))");
}

RefusalScope::RefusalScope(Refusals *refusals) : previous_(CurrentRefusals) { CurrentRefusals = refusals; }

RefusalScope::~RefusalScope() { CurrentRefusals = previous_; }

Refusals *currentRefusals() { return CurrentRefusals; }

llvm::ArrayRef<std::string> readableByLLVM() {
  // sys::getHostCPUName/Features read it on AArch64, PowerPC, s390x and
  // RISC-V hosts, and the physical-core count on x86-64 Linux; x86 reads
  // cpuid. Nothing else LLVM does for a compile opens a file of the host's.
  static const std::vector<std::string> paths{"/proc/cpuinfo"};
  return paths;
}

#if defined(__linux__)

namespace {

// ---- Landlock: the kernel's ABI, defined here so that older kernel
// headers (Debian 12 has ABI 3's) build the full feature set. The values
// are the kernel's and never change.
namespace landlock {
#ifndef SYS_landlock_create_ruleset
constexpr long CreateRuleset = 444, AddRule = 445, RestrictSelf = 446; // one number on every architecture
#else
constexpr long CreateRuleset = SYS_landlock_create_ruleset, AddRule = SYS_landlock_add_rule,
               RestrictSelf = SYS_landlock_restrict_self;
#endif
constexpr unsigned CreateRulesetVersion = 1u << 0;
constexpr int RulePathBeneath = 1;

struct RulesetAttr {
  uint64_t handledAccessFs;
  uint64_t handledAccessNet; // ABI 4
  uint64_t scoped;           // ABI 6
};
struct PathBeneathAttr {
  uint64_t allowedAccess;
  int32_t parentFd;
} __attribute__((packed));

// File-system rights, by the ABI that introduced them.
constexpr uint64_t Execute = 1ull << 0, WriteFile = 1ull << 1, ReadFile = 1ull << 2, ReadDir = 1ull << 3;
constexpr uint64_t FsAbi1 = (1ull << 13) - 1; // EXECUTE .. MAKE_SYM
constexpr uint64_t Refer = 1ull << 13;        // ABI 2
constexpr uint64_t Truncate = 1ull << 14;     // ABI 3
constexpr uint64_t IoctlDev = 1ull << 15;     // ABI 5
// Network (ABI 4): TCP bind and connect.
constexpr uint64_t BindTcp = 1ull << 0, ConnectTcp = 1ull << 1;
// Scopes (ABI 6): abstract unix sockets and signals outside the domain.
constexpr uint64_t ScopeAbstractUnixSocket = 1ull << 0, ScopeSignal = 1ull << 1;
// ABI 7 adds audit-logging flags to restrict_self; none is passed, so the
// kernel's default holds: a denial is logged where audit is on, and a
// denial is exactly what an administrator should see (a policy gap).

uint64_t handledFs(int abi) {
  uint64_t rights = FsAbi1;
  if (abi >= 2)
    rights |= Refer;
  if (abi >= 3)
    rights |= Truncate;
  if (abi >= 5)
    rights |= IoctlDev;
  return rights;
}
} // namespace landlock

// ---- seccomp. Newer constants and system-call numbers, for older headers.
#ifndef SECCOMP_GET_ACTION_AVAIL
#define SECCOMP_GET_ACTION_AVAIL 2
#endif
#ifndef SECCOMP_SET_MODE_FILTER
#define SECCOMP_SET_MODE_FILTER 1
#endif
// Numbers from 403 on are the same on every architecture.
#ifndef __NR_io_uring_setup
#define __NR_io_uring_setup 425
#define __NR_io_uring_enter 426
#define __NR_io_uring_register 427
#endif
#ifndef __NR_open_tree
#define __NR_open_tree 428
#define __NR_move_mount 429
#define __NR_fsopen 430
#define __NR_fsconfig 431
#define __NR_fsmount 432
#define __NR_fspick 433
#endif
#ifndef __NR_clone3
#define __NR_clone3 435
#endif
#ifndef __NR_mount_setattr
#define __NR_mount_setattr 442
#endif
#ifndef __NR_open_tree_attr
#define __NR_open_tree_attr 467
#endif
#if !defined(__NR_seccomp) && defined(__x86_64__)
#define __NR_seccomp 317
#elif !defined(__NR_seccomp) && defined(__aarch64__)
#define __NR_seccomp 277
#endif

#if defined(__x86_64__)
constexpr uint32_t FilterArch = AUDIT_ARCH_X86_64;
#define LLVMPLUG_SECCOMP_ARCH 1
#elif defined(__aarch64__) && defined(__AARCH64EL__)
constexpr uint32_t FilterArch = AUDIT_ARCH_AARCH64;
#define LLVMPLUG_SECCOMP_ARCH 1
#endif

// The test switches (sandbox.h), read once, at load.
const bool PretendNoLandlock = std::getenv("LLVMPLUG_TEST_NO_LANDLOCK") != nullptr;
const bool PretendNoSeccomp = std::getenv("LLVMPLUG_TEST_NO_SECCOMP") != nullptr;

std::string errnoText(int error) { return std::strerror(error); }

[[noreturn]] void failClosed(const std::string &what, int error) {
  throw Failure(LLVMPLUG_ERROR_INTERNAL,
                "cannot confine LLVM (" + what + ": " + errnoText(error) + "); nothing was run unconfined");
}

// The Landlock ABI of this kernel, or 0 and why not.
int landlockAbi(std::vector<std::string> &missing) {
  if (PretendNoLandlock) {
    missing.push_back("Landlock unavailable (LLVMPLUG_TEST_NO_LANDLOCK is set)");
    return 0;
  }
  long abi = syscall(landlock::CreateRuleset, nullptr, 0, landlock::CreateRulesetVersion);
  if (abi >= 1)
    return int(abi);
  int error = errno;
  missing.push_back(error == ENOSYS ? "Landlock unavailable (not in this kernel)"
                    : error == EOPNOTSUPP
                        ? "Landlock unavailable (built in but not enabled: lsm= boot parameter)"
                        : "Landlock unavailable (" + errnoText(error) + ")");
  return 0;
}

void addReadable(int ruleset, const std::string &path, int abi) {
  int fd = open(path.c_str(), O_PATH | O_CLOEXEC);
  if (fd < 0)
    return; // nothing there to read: nothing to allow
  struct stat status;
  uint64_t rights = landlock::ReadFile;
  if (fstat(fd, &status) == 0 && S_ISDIR(status.st_mode))
    rights |= landlock::ReadDir;
  landlock::PathBeneathAttr rule{rights & landlock::handledFs(abi), fd};
  long added = syscall(landlock::AddRule, ruleset, landlock::RulePathBeneath, &rule, 0);
  int error = errno;
  close(fd);
  if (added != 0)
    failClosed("landlock_add_rule " + path, error);
}

// Landlock on the calling thread; no_new_privs is set.
void restrictWithLandlock(int abi, llvm::ArrayRef<std::string> readable) {
  landlock::RulesetAttr attr{};
  attr.handledAccessFs = landlock::handledFs(abi);
  if (abi >= 4)
    attr.handledAccessNet = landlock::BindTcp | landlock::ConnectTcp;
  if (abi >= 6)
    attr.scoped = landlock::ScopeAbstractUnixSocket | landlock::ScopeSignal;
  // The full struct on every ABI: the kernel accepts a larger struct whose
  // fields it does not know are zero, and they are below ABI 4 and 6.
  long ruleset = syscall(landlock::CreateRuleset, &attr, sizeof attr, 0);
  if (ruleset < 0)
    failClosed("landlock_create_ruleset", errno);
  int fd = int(ruleset);
  try {
    for (const std::string &path : readable)
      addReadable(fd, path, abi);
  } catch (...) {
    close(fd);
    throw;
  }
  long restricted = syscall(landlock::RestrictSelf, fd, 0);
  int error = errno;
  close(fd);
  if (restricted != 0)
    failClosed("landlock_restrict_self", error);
}

#if defined(LLVMPLUG_SECCOMP_ARCH)

// Whether this kernel filters system calls, or why not.
bool seccompAvailable(std::vector<std::string> &missing) {
  if (PretendNoSeccomp) {
    missing.push_back("seccomp unavailable (LLVMPLUG_TEST_NO_SECCOMP is set)");
    return false;
  }
  uint32_t action = SECCOMP_RET_ERRNO;
  if (syscall(__NR_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, &action) == 0)
    return true;
  missing.push_back("seccomp filters unavailable (" + errnoText(errno) + ")");
  return false;
}

std::vector<sock_filter> seccompProgram() {
  constexpr uint32_t Allow = SECCOMP_RET_ALLOW;
  constexpr uint32_t Refuse = SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA);
  constexpr uint32_t NoSuchCall = SECCOMP_RET_ERRNO | (ENOSYS & SECCOMP_RET_DATA);
  // clone's namespace flags (CLONE_NEWTIME is only clone3's and unshare's;
  // in clone's flags that bit is part of the exit signal).
  constexpr uint32_t NewNamespaces = CLONE_NEWNS | CLONE_NEWCGROUP | CLONE_NEWUTS | CLONE_NEWIPC |
                                     CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNET;
  // clang-format off: a reviewed table, laid out for review
  static const int Refused[] = {
      __NR_execve, __NR_execveat,                                          // run a program
      __NR_socket,                                                         // reach the network
      __NR_ptrace, __NR_process_vm_readv, __NR_process_vm_writev,          // other processes
      __NR_mount, __NR_umount2, __NR_pivot_root, __NR_open_tree, __NR_move_mount, __NR_fsopen,
      __NR_fsconfig, __NR_fsmount, __NR_fspick, __NR_mount_setattr, __NR_open_tree_attr,
      __NR_unshare, __NR_setns,                                            // namespaces
      __NR_keyctl, __NR_add_key, __NR_request_key,                         // the keyring
      __NR_bpf, __NR_perf_event_open, __NR_userfaultfd,                    // kernel attack surface
      __NR_io_uring_setup, __NR_io_uring_enter, __NR_io_uring_register,    // calls behind seccomp's back
      __NR_open_by_handle_at,                                              // opens past path rules
      __NR_kexec_load, __NR_kexec_file_load, __NR_init_module, __NR_finit_module, __NR_delete_module,
  };
  // clang-format on
  std::vector<sock_filter> program{
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, arch)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, FilterArch, 1, 0),
      BPF_STMT(BPF_RET | BPF_K, Refuse), // another architecture's table: every call
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)),
#if defined(__x86_64__)
      // x32's table shares AUDIT_ARCH_X86_64; its numbers have bit 30 set.
      BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000u, 0, 1),
      BPF_STMT(BPF_RET | BPF_K, Refuse),
#endif
  };
  for (int number : Refused) {
    program.push_back(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, uint32_t(number), 0, 1));
    program.push_back(BPF_STMT(BPF_RET | BPF_K, Refuse));
  }
  program.push_back(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, uint32_t(__NR_clone3), 0, 1));
  program.push_back(BPF_STMT(BPF_RET | BPF_K, NoSuchCall));
  // clone: its flags are the first argument on both architectures; the
  // namespace flags are in the low 32 bits (little-endian: the first word).
  program.push_back(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, uint32_t(__NR_clone), 0, 3));
  program.push_back(BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, args[0])));
  program.push_back(BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, NewNamespaces, 0, 1));
  program.push_back(BPF_STMT(BPF_RET | BPF_K, Refuse));
  program.push_back(BPF_STMT(BPF_RET | BPF_K, Allow));
  return program;
}

// The filter on the calling thread; no_new_privs is set.
void installSeccomp() {
  static const std::vector<sock_filter> program = seccompProgram();
  sock_fprog prog{static_cast<unsigned short>(program.size()), const_cast<sock_filter *>(program.data())};
  if (syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) != 0)
    failClosed("seccomp", errno);
}

#else

bool seccompAvailable(std::vector<std::string> &missing) {
  missing.push_back("seccomp unavailable (no filter written for this architecture)");
  return false;
}

void installSeccomp() {}

#endif

} // namespace

SandboxReport confineThread(llvm::ArrayRef<std::string> readable) {
  SandboxReport report;
  report.wanted = true;
  int abi = landlockAbi(report.missing);
  bool seccomp = seccompAvailable(report.missing);
  if (!abi && !seccomp)
    return report; // the policy alone: nothing to apply
  // Both layers need it when the thread lacks CAP_SYS_ADMIN; it is the
  // thread's (and its future children's), not the host's other threads'.
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
    failClosed("PR_SET_NO_NEW_PRIVS", errno);
  if (abi) {
    restrictWithLandlock(abi, readable);
    report.landlockAbi = abi;
  }
  if (seccomp) {
    installSeccomp();
    report.seccomp = true;
  }
  return report;
}

SandboxReport confineProcess(llvm::ArrayRef<std::string> readable) {
  SandboxReport report = confineThread(readable);
  // A crash leaves no image of the process (and its inputs) on disk, and
  // not dumpable also keeps other processes of the user from attaching.
  struct rlimit none{0, 0};
  if (setrlimit(RLIMIT_CORE, &none) != 0 || prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0)
    failClosed("core dumps off", errno);
  report.coreDumpsOff = true;
  return report;
}

} // namespace llvmplug

// See sandbox.h ("Refused writes become errors"). Linked statically into
// the shim and not exported (the version script keeps only llvmplug_*), so
// it replaces libc's open for this copy of LLVM only; LLVM's file I/O on
// Unix goes through open(). Otherwise it is libc's open: openat(AT_FDCWD).
extern "C" int open(const char *path, int flags, ...) {
  mode_t mode = 0;
  if ((flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE) {
    va_list arguments;
    va_start(arguments, flags);
    mode = va_arg(arguments, mode_t);
    va_end(arguments);
  }
  long fd = syscall(SYS_openat, AT_FDCWD, path, flags, mode);
  if (fd < 0 && (errno == EACCES || errno == EPERM) &&
      (flags & (O_WRONLY | O_RDWR | O_CREAT | O_TRUNC | O_APPEND))) {
    int error = errno;
    if (llvmplug::Refusals *refusals = llvmplug::currentRefusals())
      refusals->note(path);
    errno = error;
  }
  return int(fd);
}

namespace llvmplug {

#else

namespace {
SandboxReport unavailable() {
  SandboxReport report;
  report.wanted = true;
  report.missing.push_back("no kernel sandbox on this system (Landlock and seccomp are Linux's)");
  return report;
}
} // namespace

SandboxReport confineThread(llvm::ArrayRef<std::string>) { return unavailable(); }

SandboxReport confineProcess(llvm::ArrayRef<std::string>) { return unavailable(); }

#endif

} // namespace llvmplug
