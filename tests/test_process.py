"""Plugin(isolation="process"): a child process holds LLVM; crashes and timeouts are contained."""

from __future__ import annotations

import math
import os
import signal
import subprocess
import tempfile
import sys
import threading
import time
from pathlib import Path

import llvmplug
import pytest

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="kills the child with POSIX signals")


def slow_module(blocks: int) -> str:
    """One function of ``blocks`` diamonds joined by phis: seconds of -O2 for a few thousand."""
    lines = ["define i64 @slow(i64 %a, i64 %b) {", "entry:"]
    previous, previous_block = "%a", "entry"
    for i in range(blocks):
        lines += [
            f"  %c{i} = icmp ult i64 {previous}, {i}",
            f"  br i1 %c{i}, label %t{i}, label %e{i}",
            f"t{i}:",
            f"  %m{i} = mul i64 {previous}, %b",
            f"  br label %e{i}",
            f"e{i}:",
            f"  %x{i} = phi i64 [ {previous}, %{previous_block} ], [ %m{i}, %t{i} ]",
        ]
        previous, previous_block = f"%x{i}", f"e{i}"
    lines += [f"  ret i64 {previous}", "}", ""]
    return "\n".join(lines)


@pytest.fixture(scope="module")
def slow_ir():
    """``slow_ir(seconds)``: a slow_module that -O2 compiles for about that long here.

    Sized from a compile measured on this machine, now, so that a fast machine
    cannot finish it before the kill, timeout or interrupt it is meant for.
    (Compile time grows about linearly with the blocks: 500, 1000 and 2000
    took 0.11, 0.27 and 0.49 s on the 2-core EPYC this was written on.)
    """
    with llvmplug.Plugin(private=True) as local:
        local.compile(slow_module(200), flags="-O2")  # warm-up
        start = time.perf_counter()
        local.compile(slow_module(1000), flags="-O2")
        per_block = (time.perf_counter() - start) / 1000
    return lambda seconds: slow_module(max(1000, math.ceil(seconds / per_block)))


# The kills, timeouts and interrupts below come this long into a compile that
# is sized to last COMPILE_SECONDS: a 20x margin for a machine whose load
# drops after the measurement.
INTO_THE_COMPILE = 0.5
COMPILE_SECONDS = 20 * INTO_THE_COMPILE


@pytest.fixture
def plugin():
    with llvmplug.Plugin(isolation="process") as plugin:
        yield plugin


def test_same_api_and_same_bytes_as_in_process(plugin, arith_ir):
    assert isinstance(plugin, llvmplug.Plugin)
    with llvmplug.Plugin(private=True) as local:
        for flags in ["-O0", "-O3 -mcpu=skylake", ["-x86-asm-syntax=intel"]]:
            for output in ["obj", "asm", "ll"]:
                assert plugin.compile(arith_ir, flags=flags, output=output) == local.compile(
                    arith_ir, flags=flags, output=output
                )
        child, here = plugin.info(), local.info()
        # The one difference: the child reports its own confinement (tests/test_sandbox.py).
        assert here["sandbox"].pop("process") is None and child["sandbox"].pop("process") is not None
        assert child == here
        assert plugin.options("x86-asm-syntax") == local.options("x86-asm-syntax")
    assert plugin.loaded and plugin.worker_pid != os.getpid()


def test_typed_errors_cross_the_process_boundary(plugin, arith_ir):
    with pytest.raises(llvmplug.ParseError, match="expected top-level entity"):
        plugin.compile("not IR")
    with pytest.raises(llvmplug.OptionError, match="did you mean -x86-asm-syntax"):
        plugin.compile(arith_ir, flags="-x86-asm-syntx=intel")
    with pytest.raises(llvmplug.OptionError):
        plugin.set_options("-nope")
    with pytest.raises(llvmplug.ArgumentTypeError):
        plugin.compile(None)
    pid = plugin.worker_pid
    assert plugin.compile(arith_ir)  # errors do not cost a child
    assert plugin.worker_pid == pid


def test_warnings_are_forwarded(plugin):
    ir = "define void @f() {\n  ret void\n}\n"
    with pytest.warns(llvmplug.LLVMPlugWarning, match="remark"):
        plugin.compile(ir, flags="-pass-remarks-analysis=asm-printer")


@pytest.mark.parametrize("signum", [signal.SIGKILL, signal.SIGSEGV])
def test_child_killed_during_compile(plugin, arith_ir, signum, slow_ir):
    plugin.set_options("-x86-asm-syntax=intel")
    expected = plugin.compile(arith_ir, output="asm")
    victim = plugin.worker_pid
    # Kill the child while it is busy with a compile that takes seconds.
    killer = threading.Timer(INTO_THE_COMPILE, os.kill, (victim, signum))
    killer.start()
    started = time.monotonic()
    with pytest.raises(llvmplug.WorkerCrashedError) as caught:
        plugin.compile(slow_ir(COMPILE_SECONDS), flags="-O2")
    killer.join()
    assert time.monotonic() - started < COMPILE_SECONDS / 2  # the kill cut the compile short
    assert caught.value.signal == signal.Signals(signum).name
    assert caught.value.returncode == -signum
    assert signal.Signals(signum).name in str(caught.value)
    # The next call starts a fresh child, with the sticky options re-applied.
    assert plugin.compile(arith_ir, output="asm") == expected
    assert plugin.worker_pid not in (None, victim)
    assert not os.path.exists(f"/proc/{victim}")  # reaped, no zombie


def test_timeout_kills_and_replaces_the_child(plugin, arith_ir, slow_ir):
    victim = plugin.worker_pid
    started = time.monotonic()
    with pytest.raises(llvmplug.CompileTimeoutError, match="within 0.5 s") as caught:
        plugin.compile(slow_ir(COMPILE_SECONDS), flags="-O2", timeout=INTO_THE_COMPILE)
    assert time.monotonic() - started < COMPILE_SECONDS / 2  # the timeout cut the compile short
    assert isinstance(caught.value, TimeoutError)
    assert not os.path.exists(f"/proc/{victim}")
    assert plugin.compile(arith_ir, timeout=60) == llvmplug.compile(arith_ir)
    assert plugin.worker_pid != victim


@pytest.mark.parametrize(("timeout", "error"), [(0, llvmplug.ArgumentError), (-1, llvmplug.ArgumentError), ("5", llvmplug.ArgumentTypeError), (True, llvmplug.ArgumentTypeError)])
def test_bad_timeouts(plugin, arith_ir, timeout, error):
    with pytest.raises(error, match="timeout"):
        plugin.compile(arith_ir, timeout=timeout)


def test_in_process_rejects_a_timeout(arith_ir):
    with pytest.raises(llvmplug.ArgumentError, match="isolation='process'"):
        llvmplug.default_plugin().compile(arith_ir, timeout=10)


def test_reload_resets_sticky_options_and_unload_stops_the_child(arith_ir):
    plugin = llvmplug.Plugin(isolation="process")
    default_asm = plugin.compile(arith_ir, output="asm")
    plugin.set_options("-x86-asm-syntax=intel")
    assert plugin.compile(arith_ir, output="asm") != default_asm
    old = plugin.worker_pid
    plugin.reload()
    assert plugin.worker_pid != old and not os.path.exists(f"/proc/{old}")
    assert plugin.compile(arith_ir, output="asm") == default_asm
    pid = plugin.worker_pid
    plugin.unload()
    plugin.unload()
    assert not plugin.loaded and not os.path.exists(f"/proc/{pid}")
    with pytest.raises(llvmplug.PluginUnloadedError):
        plugin.compile(arith_ir)


def test_dropped_plugin_stops_its_child():
    plugin = llvmplug.Plugin(isolation="process")
    pid = plugin.worker_pid
    del plugin
    deadline = time.monotonic() + 10
    while os.path.exists(f"/proc/{pid}") and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not os.path.exists(f"/proc/{pid}")


def test_unknown_isolation_is_rejected():
    with pytest.raises(llvmplug.ArgumentError, match="isolation"):
        llvmplug.Plugin(isolation="thread")


@pytest.mark.skipif(sys.platform != "linux", reason="memory_limit is Linux-only")
def test_memory_limit_turns_a_runaway_allocation_into_a_typed_error(arith_ir):
    # Mutated bitcode (found by tests/campaigns/fuzz_compile.py) that makes LLVM ask for
    # several GiB at once; without a limit it grinds through the machine's memory.
    crasher = Path(__file__).resolve().parent / "data" / "crashers" / "mutated-bitcode-huge-allocation.bc"
    with llvmplug.Plugin(isolation="process", memory_limit=1 << 30) as plugin:
        assert plugin.compile(arith_ir, flags="-O3") == llvmplug.compile(arith_ir, flags="-O3")
        with pytest.raises(llvmplug.InternalError, match="out of memory in LLVM"):
            plugin.compile(crasher.read_bytes(), "x86_64-unknown-linux-gnu", "-O0", timeout=60)
        assert plugin.poisoned  # the child's copy is suspect until the next call replaces it
        pid = plugin.worker_pid
        assert plugin.compile(arith_ir, flags="-O3") == llvmplug.compile(arith_ir, flags="-O3")
        assert not plugin.poisoned and plugin.worker_pid == pid  # the child replaced its copy, not itself


@pytest.mark.parametrize(
    ("limit", "error"),
    [("1G", llvmplug.ArgumentTypeError), (True, llvmplug.ArgumentTypeError), (0, llvmplug.ArgumentError)],
)
def test_bad_memory_limits(limit, error):
    with pytest.raises(error, match="memory_limit"):
        llvmplug.Plugin(isolation="process", memory_limit=limit)


def test_interrupted_call_replaces_the_child(plugin, arith_ir, slow_ir):
    # An exception in the waiting thread (here a KeyboardInterrupt raised by a
    # signal handler, as Ctrl-C would) must not leave a reply in the pipe
    # that would answer the next request.
    def interrupt(*_: object) -> None:
        raise KeyboardInterrupt

    victim = plugin.worker_pid
    previous = signal.signal(signal.SIGALRM, interrupt)
    try:
        signal.setitimer(signal.ITIMER_REAL, INTO_THE_COMPILE)
        with pytest.raises(KeyboardInterrupt):
            plugin.compile(slow_ir(COMPILE_SECONDS), flags="-O2")
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert not os.path.exists(f"/proc/{victim}")
    assert plugin.compile(arith_ir, output="asm") == llvmplug.compile(arith_ir, output="asm")


def _running(pid: int) -> bool:
    """Whether pid is a live process (a zombie waiting for its reaper does not count)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_child_exits_when_its_parent_is_killed_mid_compile(tmp_path, slow_ir):
    module = tmp_path / "slow.ll"
    module.write_text(slow_ir(COMPILE_SECONDS))
    parent = (
        "import os, signal, sys, threading, time, llvmplug\n"
        "plugin = llvmplug.Plugin(isolation='process')\n"
        "print(plugin.worker_pid, flush=True)\n"
        f"work = threading.Thread(target=plugin.compile, args=(open({str(module)!r}).read(),),\n"
        "                         kwargs={'flags': '-O2'}, daemon=True)\n"
        "work.start()\n"
        f"time.sleep({2 * INTO_THE_COMPILE})\n"
        "os.kill(os.getpid(), signal.SIGKILL)\n"
    )
    import subprocess
    import tempfile

    # Popen and wait(), not run(): the orphan inherits the pipes, so waiting
    # for their EOF would wait for the orphan itself.
    with subprocess.Popen([sys.executable, "-c", parent], stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL, text=True, cwd=tempfile.gettempdir()) as process:
        child = int(process.stdout.readline())
        assert process.wait(timeout=120) == -signal.SIGKILL
        # Well before the compile could have ended on its own (the child
        # polls for its parent every 0.5 s).
        deadline = time.monotonic() + COMPILE_SECONDS / 2
        while _running(child) and time.monotonic() < deadline:
            time.sleep(0.1)
        orphaned = _running(child)
        if orphaned:
            os.kill(child, signal.SIGKILL)
    assert not orphaned, "the orphaned child went on compiling"


def test_parent_reads_only_data_and_llvmplug_errors_from_the_child():
    # A child subverted through LLVM must not run code in the parent via pickle.
    import io
    import pickle

    from llvmplug import _protocol

    def read(message: object) -> object:
        return _protocol._ReplyUnpickler(io.BytesIO(pickle.dumps(message))).load()

    def read_from_child(expression: str) -> object:
        # Pickled by a clean interpreter, as the worker does: this process may
        # have global pickling hooks installed (Dask's tblib patches exceptions).
        code = f"import pickle, sys, llvmplug; sys.stdout.buffer.write(pickle.dumps({expression}))"
        data = subprocess.run([sys.executable, "-c", code], capture_output=True, cwd=tempfile.gettempdir(), check=True).stdout
        return _protocol._ReplyUnpickler(io.BytesIO(data)).load()

    with pytest.raises(pickle.UnpicklingError, match="forbidden object: posix.system"):
        read(("ok", os.system))
    with pytest.raises(pickle.UnpicklingError, match="forbidden"):
        read(("error", ValueError("not ours")))
    error = read_from_child('("error", llvmplug.WorkerCrashedError("gone", returncode=-9, signal="SIGKILL"))')
    assert isinstance(error[1], llvmplug.WorkerCrashedError) and error[1].signal == "SIGKILL"
    assert read(("ok", b"\x7fELF", ["warning: x"])) == ("ok", b"\x7fELF", ["warning: x"])


@pytest.mark.parametrize("timeout", [float("inf"), float("nan"), -float("inf"), 1e300])
def test_timeout_must_be_finite(plugin, arith_ir, timeout):
    with pytest.raises(llvmplug.ArgumentError, match="finite positive"):
        plugin.compile(arith_ir, timeout=timeout)
    assert plugin.compile(arith_ir, timeout=60)  # and no timer thread crashed on the way


@pytest.mark.parametrize("limit", [2**63, 2**64, 2**100])
def test_memory_limit_out_of_range_is_an_argument_error(limit):
    with pytest.raises(llvmplug.ArgumentError, match="memory_limit must be between 1 and 2\\*\\*63 - 1"):
        llvmplug.Plugin(isolation="process", memory_limit=limit)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_child_has_only_the_protocol_pipes_and_an_empty_private_directory(tmp_path):
    inherited = os.open(tmp_path / "parent-file", os.O_CREAT | os.O_WRONLY)
    os.set_inheritable(inherited, True)  # even an inheritable descriptor stays here
    try:
        plugin = llvmplug.Plugin(isolation="process")
    finally:
        os.close(inherited)
    pid = plugin.worker_pid
    fds = {int(fd): os.readlink(f"/proc/{pid}/fd/{fd}") for fd in os.listdir(f"/proc/{pid}/fd")}
    cwd = os.readlink(f"/proc/{pid}/cwd")
    assert fds[0] == "/dev/null"
    assert fds[1] == os.readlink("/proc/self/fd/2")  # stdout is our stderr, never the protocol
    protocol = {fd: target for fd, target in fds.items() if fd > 2}
    assert len(protocol) == 2 and all(t.startswith("pipe:") for t in protocol.values()), fds
    assert cwd != os.getcwd() and os.listdir(cwd) == []
    assert plugin.compile("define i32 @f() { ret i32 1 }")
    plugin.unload()
    assert not os.path.exists(cwd)  # the private directory goes with the child


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_bytes_written_into_the_reply_pipe_fail_one_call_and_replace_the_child(plugin, arith_ir):
    # What a flag that writes to the child's own pipe (or a subverted child)
    # does: the next reply is not a frame. That call fails, typed; the next is served.
    expected = plugin.compile(arith_ir)
    pid = plugin.worker_pid
    reply_fd = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")[-2].decode()
    with open(f"/proc/{pid}/fd/{reply_fd}", "wb") as pipe:
        pipe.write(b"BISECT: running pass (1) x86-isel\n")
    with pytest.raises(llvmplug.WorkerCrashedError, match="broke the protocol"):
        plugin.compile(arith_ir)
    assert not os.path.exists(f"/proc/{pid}")
    assert plugin.compile(arith_ir) == expected
    assert plugin.worker_pid != pid


def test_replies_of_the_wrong_shape_are_refused():
    from llvmplug import _protocol

    compile_args = ([b"x"], "", "-filetype=obj", 0, True, False)
    good = [("ok", ([b"\x7fELF"], None), [], False), ("ok", ([b"\x7fELF"], "{}"), [], False),
            ("error", llvmplug.ParseError("bad"), True)]
    for reply in good:
        _protocol.check_reply("compile", compile_args, reply)
    bad = [
        ("ok", ("not bytes", None), [], False),
        ("ok", ([b"a", b"b"], None), [], False),  # two parts when one was asked
        ("ok", ([bytearray(b"x")], None), [], False),
        ("ok", ([b"x"], None), [3], False),
        ("ok", ([b"x"], None), [], "no"),
        ("ok", [b"x"], [], False),  # without its timings
        ("ok", ([b"x"], 3), [], False),  # timings that are not text
        ("error", "just a string", False),
        ("error", ValueError("not ours"), False),
        ["ok", ([b"x"], None), [], False],
    ]
    for reply in bad:
        with pytest.raises(_protocol.ProtocolError):
            _protocol.check_reply("compile", compile_args, reply)
    with pytest.raises(_protocol.ProtocolError):
        _protocol.check_reply("info", (), ("ok", ["a list"], [], False))


def test_the_environment_is_measured_in_bytes_as_execve_counts_them():
    # Old: characters were counted, so non-ASCII values (up to 4 bytes each)
    # passed the bound at up to four times its size.
    from llvmplug import _backend_process as backend

    wide = {f"WIDE_{i}": "\U0001F600" * 4000 for i in range(140)}  # 16,000 bytes each, 4,000 characters
    with pytest.warns(llvmplug.LLVMPlugWarning):
        kept = backend.child_environment(wide)
    assert 0 < len(kept) < len(wide)
    assert sum(len(os.fsencode(n)) + len(os.fsencode(v)) + 2 for n, v in kept.items()) <= backend._MAX_ENVIRONMENT
    one = {"ONE": "\u20ac" * (backend._MAX_VARIABLE // 2)}  # under the bound in characters, over it in bytes
    with pytest.warns(llvmplug.LLVMPlugWarning, match="ONE"):
        assert backend.child_environment(one) == {}


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux's execve limits")
def test_child_starts_with_a_non_ascii_environment_under_a_small_stack(arith_ir):
    # Under a 4 MiB stack limit execve takes 1 MiB of strings; the old
    # filter kept 512 Ki characters of 4-byte ones (2 MiB): E2BIG, and no
    # process Plugin could start.
    code = f"""
import os, resource, warnings, llvmplug
resource.setrlimit(resource.RLIMIT_STACK, (4 << 20, resource.getrlimit(resource.RLIMIT_STACK)[1]))
for i in range(130):
    os.environ[f"LLVMPLUG_TEST_WIDE_{{i}}"] = "\\U0001F600" * 4000
warnings.simplefilter("ignore")
with llvmplug.Plugin(isolation="process") as plugin:
    assert plugin.compile({arith_ir!r}) == llvmplug.compile({arith_ir!r})
print("started")
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, cwd=tempfile.gettempdir(), text=True, timeout=300)
    assert done.returncode == 0 and done.stdout == "started\n", done.stderr[-2000:]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads the child's environment in /proc")
def test_child_starts_whatever_the_environment_holds(monkeypatch, arith_ir):
    # One variable over Linux's 128 KiB per-string limit, and many that fit
    # one by one but exceed execve's total: either alone made the child's
    # start fail with E2BIG.
    monkeypatch.setenv("LLVMPLUG_TEST_HUGE", "x" * (200 * 1024))
    for i in range(100):
        monkeypatch.setenv(f"LLVMPLUG_TEST_WIDE_{i}", "y" * (30 * 1024))
    monkeypatch.setenv("LLVMPLUG_TEST_SMALL", "kept")
    with pytest.warns(llvmplug.LLVMPlugWarning, match="LLVMPLUG_TEST_HUGE"):
        plugin = llvmplug.Plugin(isolation="process")
    with plugin:
        assert plugin.compile(arith_ir) == llvmplug.compile(arith_ir)
        names = {entry.split(b"=", 1)[0] for entry in Path(f"/proc/{plugin.worker_pid}/environ").read_bytes().split(b"\0")}
        assert b"LLVMPLUG_TEST_SMALL" in names and b"PATH" in names  # the rest of the environment is passed
        assert b"LLVMPLUG_TEST_HUGE" not in names
        assert sum(name.startswith(b"LLVMPLUG_TEST_WIDE_") for name in names) < 100
