"""The kernel's layer under the policy (csrc/runtime/sandbox.h, csrc/runtime/threads.h; issue 25 section 2).

LLVM runs on threads of the shim's that Landlock and seccomp confine, and a
worker process (``isolation="process"``) confines itself as a whole. The
proof is ``policy="all"``, which lets every option and directive through:
what would read a host file, write one, load a plugin or run a program gets
a typed error, and nothing is read, written or run. The same calls with
``sandbox=False`` do reach the host (the control: the probes are real).

Where the kernel lacks a layer the policy alone holds the line, and nothing
may start failing: LLVMPLUG_TEST_NO_LANDLOCK / LLVMPLUG_TEST_NO_SECCOMP make
the shim treat a layer as missing, so the fallback runs here too.
"""

from __future__ import annotations

import ctypes
import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

import llvmplug
from llvmplug import _abi

from lifecycle_support import run_python

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Landlock and seccomp are Linux's")


def _kernel_landlock_abi() -> int:
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    return max(int(libc.syscall(ctypes.c_long(444), None, ctypes.c_size_t(0), ctypes.c_uint(1))), 0)


LANDLOCK_ABI = _kernel_landlock_abi()
needs_landlock = pytest.mark.skipif(LANDLOCK_ABI == 0, reason="this kernel has no Landlock")

IR = "define i32 @f(i32 %x) {\n  %y = add i32 %x, 1\n  ret i32 %y\n}\n"
# A load whose value addresses another: the LVI pass has a gadget to harden,
# so it loads its optimisation plugin.
GADGET = """define i32 @g(ptr %p, i32 %n) {
entry:
  %c = icmp sgt i32 %n, 0
  br i1 %c, label %a, label %b
a:
  %v = load i32, ptr %p
  %q = getelementptr i32, ptr %p, i32 %v
  %w = load i32, ptr %q
  ret i32 %w
b:
  ret i32 0
}
"""
SECRET = b"LLVMPLUG-HOST-SECRET-5c1e"


class Host:
    """What a compile must not reach: a secret file, a plugin and a program that leave marks when they run."""

    def __init__(self, directory: Path, cc: str) -> None:
        self.directory = directory
        self.secret = directory / "secret.txt"
        self.secret.write_bytes(SECRET + b"\n")
        self.usage = directory / "usage.su"
        self.plugin_ran = directory / "plugin-ran"
        self.program_ran = directory / "program-ran"
        source = directory / "plugin.c"
        source.write_text('#include <stdio.h>\n__attribute__((constructor)) static void ran(void) {\n'
                          f'  FILE *f = fopen("{self.plugin_ran}", "w");\n  if (f) fclose(f);\n}}\n')
        self.plugin = directory / "plugin.so"
        subprocess.run([cc, "-shared", "-fPIC", "-o", str(self.plugin), str(source)], check=True)
        self.program = directory / "program.sh"
        self.program.write_text(f"#!/bin/sh\ntouch '{self.program_ran}'\n")
        self.program.chmod(0o755)

    def reached(self) -> list[str]:
        """What a compile left on the host: files written, a plugin or a program run."""
        return [path.name for path in (self.usage, self.plugin_ran, self.program_ran) if path.exists()]


@pytest.fixture
def host(tmp_path, cc) -> Host:
    return Host(tmp_path, cc)


# Each probe: what it asks LLVM for, the typed error the sandbox makes of it, and the call.
PROBES = {
    ".incbin": (llvmplug.CodegenError, "Could not find incbin file",
                lambda p, h: p.compile(IR + f'module asm ".incbin \\22{h.secret}\\22"\n')),
    "-stack-usage-file=": (llvmplug.OptionError, "the sandbox refused to let LLVM write '.*usage.su'",
                           lambda p, h: p.compile(IR, flags=[f"-stack-usage-file={h.usage}"])),
    "-x86-lvi-load-opt-plugin=": (llvmplug.FatalError, "Failed to load opt plugin.*Permission denied",
                                  lambda p, h: p.compile(GADGET, flags=[f"-x86-lvi-load-opt-plugin={h.plugin}",
                                                                        "-mattr=+lvi-load-hardening"])),
    # Run by the instrumentation of ThinLTO's pipelines (compile_modules,
    # compile_parts) on a temporary file of the IR: the file cannot be made.
    "-exec-on-ir-change=": (llvmplug.OptionError, "the sandbox refused to let LLVM write",
                            lambda p, h: p.compile_modules([IR], flags=[f"-exec-on-ir-change={h.program}"])),
    "-print-changed-diff-path=": (llvmplug.OptionError, "the sandbox refused to let LLVM write",
                                  lambda p, h: p.compile_modules(
                                      [IR], flags=["-print-changed=diff", f"-print-changed-diff-path={h.program}"])),
    # Not an option of LLVM's libraries (opt's own): refused before anything is loaded.
    "-load-pass-plugin=": (llvmplug.OptionError, "unknown option '-load-pass-plugin'",
                           lambda p, h: p.compile(IR, flags=[f"-load-pass-plugin={h.plugin}"])),
}


@pytest.fixture(scope="module", params=["none", "process"])
def trusted(request):
    """policy="all": the policy lets everything through, and only the kernel stands in the way."""
    with llvmplug.Plugin(private=True, policy="all", isolation=request.param) as plugin:
        yield plugin


@needs_landlock
@pytest.mark.parametrize("probe", list(PROBES))
def test_policy_all_reaches_nothing_on_the_host(trusted, host, probe):
    error, message, call = PROBES[probe]
    with pytest.raises(error, match=message) as raised:
        call(trusted, host)
    assert SECRET.decode() not in str(raised.value)
    assert host.reached() == []


def test_without_the_sandbox_the_probes_reach_the_host(host):
    """The control: sandbox=False is LLVM as llc runs it, so each probe above is a real door."""
    with llvmplug.Plugin(private=True, policy="all", sandbox=False) as plugin:
        assert SECRET in plugin.compile(IR + f'module asm ".incbin \\22{host.secret}\\22"\n')
        plugin.compile(IR, flags=[f"-stack-usage-file={host.usage}"])
        with pytest.raises(llvmplug.FatalError, match="Invalid optimization plugin"):  # it ran, then was not one
            PROBES["-x86-lvi-load-opt-plugin="][2](plugin, host)
        PROBES["-exec-on-ir-change="][2](plugin, host)
        assert host.reached() == ["usage.su", "plugin-ran", "program-ran"]
        assert plugin.info()["sandbox"]["threads"]["enabled"] is False
    with llvmplug.Plugin(isolation="process", policy="all", sandbox=False) as plugin:
        host.usage.unlink()
        plugin.compile(IR, flags=[f"-stack-usage-file={host.usage}"])
        assert host.usage.exists()
        assert plugin.info()["sandbox"]["process"] is None


@needs_landlock
def test_info_names_the_layers():
    with llvmplug.Plugin(private=True) as plugin:
        sandbox = plugin.info()["sandbox"]
    threads = sandbox["threads"]
    assert threads["enabled"] and threads["landlock_abi"] == LANDLOCK_ABI and threads["seccomp"]
    assert threads["layers"] == ["landlock", "seccomp"] and threads["missing"] == []
    assert threads["summary"] == f"Landlock ABI {LANDLOCK_ABI} and seccomp"
    assert sandbox["process"] is None
    with llvmplug.Plugin(isolation="process") as plugin:
        sandbox = plugin.info()["sandbox"]
    assert sandbox["threads"] == threads
    assert sandbox["process"]["layers"] == ["landlock", "seccomp", "no core dumps"]


def _status(path: str) -> dict[str, str]:
    return dict(line.split(":\t", 1) for line in Path(path).read_text().splitlines() if ":\t" in line)


@needs_landlock
def test_every_thread_of_the_worker_is_confined():
    with llvmplug.Plugin(isolation="process") as plugin:
        plugin.compile(IR)
        pid = plugin.worker_pid
        tasks = {tid: _status(f"/proc/{pid}/task/{tid}/status") for tid in os.listdir(f"/proc/{pid}/task")}
        limits = Path(f"/proc/{pid}/limits").read_text()
    assert len(tasks) >= 3  # the main thread, the parent watcher, LLVM's thread
    for status in tasks.values():
        assert (status["NoNewPrivs"].strip(), status["Seccomp"].strip()) == ("1", "2"), status["Name"]
    assert any(line.startswith("Max core file size") and line.split()[4:6] == ["0", "0"]
               for line in limits.splitlines())


@needs_landlock
def test_in_process_only_the_shims_threads_are_confined(host):
    mine = _status("/proc/thread-self/status")
    with llvmplug.Plugin(private=True) as plugin:
        plugin.compile(IR)
        shims = [tid for tid in os.listdir("/proc/self/task")
                 if Path(f"/proc/self/task/{tid}/comm").read_text().strip() == "llvmplug-llvm"]
        assert shims
        for tid in shims:
            status = _status(f"/proc/self/task/{tid}/status")
            assert (status["NoNewPrivs"].strip(), status["Seccomp"].strip()) == ("1", "2")
        # The caller's threads, this one and one started now, are the host's: untouched.
        assert _status("/proc/thread-self/status")["Seccomp"] == mine["Seccomp"]
        read = []
        reader = threading.Thread(target=lambda: read.append(host.secret.read_bytes()))
        reader.start()
        reader.join()
        assert read == [host.secret.read_bytes()] and SECRET in read[0]


@needs_landlock
def test_mcpu_native_compiles_confined_as_unconfined():
    # Host detection reads cpuid on x86 and /proc/cpuinfo elsewhere: the one
    # file LLVM's threads may still read.
    with llvmplug.Plugin(private=True) as confined, llvmplug.Plugin(private=True, sandbox=False) as free:
        for key in ("host_cpu", "host_features"):
            assert confined.info()[key] == free.info()[key]
        assert confined.compile(GADGET, flags="-mcpu=native -O2") == free.compile(GADGET, flags="-mcpu=native -O2")


def test_the_sandbox_is_chosen_before_the_first_call():
    with llvmplug.Plugin(private=True) as plugin, plugin._backend._calling() as lib:
        _abi.call(lib, "llvmplug_set_sandbox", 1)  # the same choice again: fine
        with pytest.raises(llvmplug.ArgumentError, match="chosen before a copy's first call"):
            _abi.call(lib, "llvmplug_set_sandbox", 0)  # a confined thread cannot be freed


def test_sandbox_must_be_a_bool():
    with pytest.raises(llvmplug.ArgumentTypeError):
        llvmplug.Plugin(private=True, sandbox="no")


def test_one_kept_thread_serves_calls_one_at_a_time():
    """Threads are kept (csrc/runtime/threads.h), not started per call; concurrent callers get one each, at most."""
    result = run_python(r"""
import json, os, threading, llvmplug
def lanes():
    return sorted(t for t in os.listdir("/proc/self/task")
                  if open(f"/proc/self/task/{t}/comm").read().strip() == "llvmplug-llvm")
p = llvmplug.Plugin(private=True)
seen = []
for _ in range(20):
    p.compile("define i32 @f(i32 %x) { ret i32 %x }")
    seen.append(lanes())
barrier = threading.Barrier(3)
def work():
    barrier.wait()
    for _ in range(30):
        p.compile("define i32 @f(i32 %x) { ret i32 %x }", flags="-O2")
threads = [threading.Thread(target=work) for _ in range(3)]
for t in threads: t.start()
for t in threads: t.join()
after = lanes()
p.unload()
print(json.dumps({"seen": seen, "after": after, "unloaded": lanes()}))
""")
    assert all(seen == result["seen"][0] for seen in result["seen"]) and len(result["seen"][0]) == 1
    assert set(result["seen"][0]) <= set(result["after"]) and 1 <= len(result["after"]) <= 3
    assert result["unloaded"] == []


FALLBACK = r"""
import json, os, sys, llvmplug
ir = "define i32 @f(i32 %x) {\n  %y = add i32 %x, 1\n  ret i32 %y\n}\n"
secret, usage = sys.argv[1], sys.argv[2]
out = {}
with llvmplug.Plugin(private=True, policy="all") as p:
    out["info"] = p.info()["sandbox"]
    try:
        obj = p.compile(ir + f'module asm ".incbin \\22{secret}\\22"\n')
        out["incbin"] = open(secret).read().strip() in obj.decode("latin-1")
    except llvmplug.CodegenError:
        out["incbin"] = False
    try:
        p.compile(ir, flags=[f"-stack-usage-file={usage}"])
    except llvmplug.OptionError:
        pass
    out["wrote"] = os.path.exists(usage)
with llvmplug.Plugin(isolation="process") as p:
    out["process"] = p.info()["sandbox"]["process"]
    out["compiled"] = p.compile(ir)[:4].decode("latin-1")
print(json.dumps(out))
"""


@pytest.mark.parametrize("missing", [("LANDLOCK", "SECCOMP"), ("LANDLOCK",), ("SECCOMP",)])
def test_a_kernel_without_a_layer_keeps_working_and_says_so(host, missing):
    env = dict(os.environ, **{f"LLVMPLUG_TEST_NO_{layer}": "1" for layer in missing})
    out = run_python(FALLBACK, str(host.secret), str(host.usage), env=env)
    threads = out["info"]["threads"]
    assert out["compiled"] == "\x7fELF"
    assert [reason.split()[0] for reason in threads["missing"]] == [
        {"LANDLOCK": "Landlock", "SECCOMP": "seccomp"}[layer] for layer in missing]
    assert all(f"LLVMPLUG_TEST_NO_{layer}" in " ".join(threads["missing"]) for layer in missing)
    assert out["process"]["missing"] == threads["missing"]
    if len(missing) == 2:
        # The policy alone: policy="all" reaches files again, as LLVM does.
        assert threads["summary"].startswith("policy only: Landlock unavailable")
        assert threads["layers"] == [] and out["process"]["layers"] == ["no core dumps"]
        assert out["incbin"] and out["wrote"]
    elif missing == ("LANDLOCK",):
        assert threads["layers"] == ["seccomp"] and threads["summary"].startswith("seccomp;")
        assert out["incbin"] and out["wrote"]  # files are Landlock's to guard
    else:
        assert LANDLOCK_ABI or pytest.skip("this kernel has no Landlock")
        assert threads["layers"] == ["landlock"]
        assert not out["incbin"] and not out["wrote"]


@needs_landlock
def test_a_layer_that_cannot_be_applied_fails_closed():
    """Landlock stacks at most 16 domains: a caller thread already under 16 starts LLVM's thread under 16,
    which then cannot add its own. The call fails; nothing runs unconfined."""
    result = run_python(r"""
import ctypes, json, threading, llvmplug
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
out = {}
def caller():
    libc.prctl(38, 1, 0, 0, 0)  # PR_SET_NO_NEW_PRIVS, on this thread only
    attr = (ctypes.c_uint64 * 3)(1 << 2, 0, 0)  # handles reading files, allows it nowhere... below
    for _ in range(16):
        fd = libc.syscall(444, attr, ctypes.c_size_t(24), 0)
        rule = (ctypes.c_uint8 * 12)()
        ctypes.memmove(rule, (ctypes.c_uint64 * 1)(1 << 2), 8)
        root = libc.open(b"/", 0x200000)  # O_PATH: reading stays allowed everywhere
        ctypes.memmove(ctypes.addressof(rule) + 8, (ctypes.c_int32 * 1)(root), 4)
        assert libc.syscall(445, fd, 1, rule, 0) == 0
        assert libc.syscall(446, fd, 0) == 0, ctypes.get_errno()
    try:  # the first call that runs on LLVM's thread is the load's own (setting the policy)
        llvmplug.Plugin(private=True).compile("define void @f() { ret void }")
        out["result"] = "compiled"
    except llvmplug.LLVMPlugError as error:
        out["result"] = f"{type(error).__name__}: {error}"
t = threading.Thread(target=caller)
t.start(); t.join()
print(json.dumps(out))
""")
    assert result["result"].startswith("InternalError: cannot confine LLVM (landlock_restrict_self: ")
    assert "nothing was run unconfined" in result["result"]


def test_the_worker_still_recovers_after_a_fatal_error():
    """A confined worker reads the shim again to replace a poisoned copy: the one file it may read."""
    with llvmplug.Plugin(isolation="process", policy="all") as plugin:
        with pytest.raises(llvmplug.FatalError):
            plugin.compile(GADGET, flags=["-x86-lvi-load-opt-plugin=/nonexistent.so", "-mattr=+lvi-load-hardening"])
        assert plugin.poisoned
        pid = plugin.worker_pid
        assert plugin.compile(IR)[:4] == b"\x7fELF"
        assert not plugin.poisoned and plugin.worker_pid == pid  # the same child, a fresh copy


@needs_landlock
def test_the_command_line_says_so_and_turns_it_off(tmp_path, host):
    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "llvmplug", *args], capture_output=True, text=True,
                              timeout=120, cwd=tmp_path)

    source = tmp_path / "f.ll"
    source.write_text(IR)
    compile_ = ["compile", str(source), "-o", str(tmp_path / "f.o"), "--options", "all",
                f"-stack-usage-file={host.usage}"]
    refused = run(*compile_)
    assert refused.returncode != 0 and "the sandbox refused" in refused.stderr
    assert "--no-sandbox" in refused.stderr and "Plugin(" not in refused.stderr
    assert host.reached() == []
    assert run(*compile_, "--no-sandbox").returncode == 0 and host.reached() == ["usage.su"]
    assert f"sandbox:     Landlock ABI {LANDLOCK_ABI} and seccomp" in run("info").stdout
