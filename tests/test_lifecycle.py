"""Plugin lifecycle: load, unload, reload, and what unloading leaves behind.

Anything that unloads the shared copy, loads several copies or inspects
process-wide state runs in a fresh interpreter (see lifecycle_support).
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
import sys
from pathlib import Path

import llvmplug
import pytest
from elftools.elf.dynamic import DynamicSection
from elftools.elf.elffile import ELFFile
from elftools.elf.enums import ENUM_DT_FLAGS_1, ENUM_ST_INFO_BIND
from elftools.elf.sections import SymbolTableSection
from llvmplug import _loader

from lifecycle_support import SIGACTION_SUPPORTED, generated_module, run_python

linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self and ELF")

STB_GNU_UNIQUE = 10  # pyelftools names this binding value STB_LOOS


@linux_only
def test_unload_unmaps_the_shim():
    result = run_python(
        r"""
import gc, json, llvmplug
from lifecycle_support import mapped
seen = {}
shared = llvmplug.Plugin()
seen["shared loaded"] = mapped(shared.path)
shared.compile("define i32 @f() { ret i32 1 }")
shared.unload()
seen["shared unloaded"] = mapped(shared.path)
shared.reload()
seen["shared reloaded"] = mapped(shared.path)
with shared:
    shared.compile("define i32 @f() { ret i32 1 }")
seen["shared after with"] = mapped(shared.path)

private = llvmplug.Plugin(private=True)
copy = private.loaded_path
seen["private is a copy"] = copy != private.path
seen["private loaded"] = mapped(copy)
seen["original not mapped by private"] = mapped(private.path)
private.compile("define i32 @f() { ret i32 1 }")
private.unload()
seen["private unloaded"] = mapped(copy)
seen["loaded_path after unload"] = private.loaded_path

collected = llvmplug.Plugin(private=True)
copy = collected.loaded_path
collected.compile("define i32 @f() { ret i32 1 }")
del collected
gc.collect()
seen["private garbage-collected"] = mapped(copy)
print(json.dumps(seen))
"""
    )
    assert result == {
        "shared loaded": True,
        "shared unloaded": False,
        "shared reloaded": True,
        "shared after with": False,
        "private is a copy": True,
        "private loaded": True,
        "original not mapped by private": False,
        "private unloaded": False,
        "loaded_path after unload": None,
        "private garbage-collected": False,
    }


def _symbols(elf: ELFFile):
    for section in elf.iter_sections():
        if isinstance(section, SymbolTableSection):
            yield from section.iter_symbols()


def pinning(path: Path) -> list[str]:
    """What in an ELF shared library would keep dlclose from unmapping it."""
    reasons = []
    with open(path, "rb") as stream:
        elf = ELFFile(stream)
        symbols = list(_symbols(elf))
        if not symbols:
            raise AssertionError(f"{path} has no symbol table to check")
        for symbol in symbols:
            if ENUM_ST_INFO_BIND[symbol["st_info"]["bind"]] == STB_GNU_UNIQUE:
                reasons.append(f"STB_GNU_UNIQUE {symbol.name}")
        for section in elf.iter_sections():
            if isinstance(section, DynamicSection):
                for tag in section.iter_tags():
                    if tag.entry.d_tag == "DT_FLAGS_1" and tag.entry.d_val & ENUM_DT_FLAGS_1["DF_1_NODELETE"]:
                        reasons.append("DF_1_NODELETE")
        # glibc keeps a library with registered thread_local destructors loaded.
        for symbol in symbols:
            if symbol["st_shndx"] == "SHN_UNDEF" and symbol.name.split("@")[0] in (
                "__cxa_thread_atexit_impl",
                "__cxa_thread_atexit",
            ):
                reasons.append(f"imports {symbol.name}")
    return sorted(set(reasons))


@linux_only
def test_nothing_in_the_shim_pins_it():
    """dlclose is a no-op for a library with a unique symbol, NODELETE, or
    pending thread-local destructors; the shim must have none of them."""
    assert pinning(_loader.library_path()) == []


CONTROL_SOURCE = """
// An inline function's static: g++ makes it STB_GNU_UNIQUE unless -fno-gnu-unique.
inline int &counter() { static int value; return value; }
// A thread_local with a destructor: registered with __cxa_thread_atexit_impl.
struct Guard { ~Guard() {} };
thread_local Guard guard;
extern "C" __attribute__((visibility("default"))) int bump() { (void)&guard; return ++counter(); }
"""


@linux_only
def test_the_pinning_check_finds_what_it_looks_for(tmp_path):
    compiler = shutil.which("c++") or shutil.which("g++")
    if compiler is None:
        pytest.skip("no C++ compiler for the control library")
    source = tmp_path / "control.cpp"
    source.write_text(CONTROL_SOURCE)
    library = tmp_path / "libcontrol.so"
    subprocess.run([compiler, "-shared", "-fPIC", "-O1", "-Wl,-z,nodelete", "-o", str(library), str(source)],
                   check=True)
    reasons = pinning(library)
    assert "DF_1_NODELETE" in reasons
    assert any(r.startswith("STB_GNU_UNIQUE") for r in reasons), reasons
    assert any(r.startswith("imports __cxa_thread_atexit") for r in reasons), reasons


@linux_only
@pytest.mark.skipif(not SIGACTION_SUPPORTED, reason="struct sigaction layout known for x86_64/aarch64 glibc")
def test_no_threads_or_signal_handlers_are_left_behind():
    result = run_python(
        r"""
import ctypes, json, signal, sys, threading, warnings
import llvmplug
from lifecycle_support import generated_module, python_signal_handlers, signal_dispositions, threads

def snapshot():
    return {"threads": sorted(threads()), "sigaction": {str(k): v for k, v in signal_dispositions().items()},
            "python": {str(k): v for k, v in python_signal_handlers().items()}}

def changed(a, b):
    return {kind: sorted(set(a[kind]) ^ set(b[kind]) if kind == "threads" else
                         [k for k in set(a[kind]) | set(b[kind]) if a[kind].get(k) != b[kind].get(k)])
            for kind in a}

warnings.simplefilter("ignore")
ir = generated_module(20)
before = json.loads(json.dumps(snapshot()))
plugins = [llvmplug.Plugin(), llvmplug.Plugin(private=True)]
for plugin in plugins:
    plugin.info()
    plugin.options("x86-*")
    plugin.set_options("-x86-asm-syntax=intel")
    for output in ("obj", "asm", "bc", "ll"):
        plugin.compile(ir, flags="-O3", output=output)
    plugin.compile(ir, target="x86_64-pc-windows-msvc", flags="-O1")
    try:
        plugin.compile("not IR")
    except llvmplug.ParseError:
        pass
loaded = json.loads(json.dumps(snapshot()))
# The copies' kept threads (csrc/runtime/threads.h): named, one per copy (calls came one at a time).
names = sorted(open(f"/proc/self/task/{tid}/comm").read().strip()
               for tid in set(loaded["threads"]) - set(before["threads"]))
for plugin in plugins:
    plugin.unload()
unloaded = json.loads(json.dumps(snapshot()))

# The probes themselves can see a change (so the comparisons above can fail):
libc = ctypes.CDLL(None)
libc.signal.restype = ctypes.c_void_p
libc.signal(signal.SIGUSR2, ctypes.c_void_p(1))  # SIG_IGN, behind Python's back
stop = threading.Event()
extra = threading.Thread(target=stop.wait)
extra.start()
control = json.loads(json.dumps(snapshot()))
stop.set(); extra.join()
print(json.dumps({"loaded": changed(before, loaded), "unloaded": changed(before, unloaded),
                  "control": changed(before, control), "usr2": signal.SIGUSR2, "names": names}))
"""
    )
    nothing = {"threads": [], "sigaction": [], "python": []}
    # While loaded, each copy keeps the thread LLVM runs on; unloading joins it.
    assert result["names"] == ["llvmplug-llvm", "llvmplug-llvm"]
    assert result["loaded"] == dict(nothing, threads=result["loaded"]["threads"])
    assert result["unloaded"] == nothing
    assert len(result["control"]["threads"]) == 1
    assert result["control"]["sigaction"] == [str(result["usr2"])]


@linux_only
def test_unload_unmaps_the_big_stacks():
    """The stacks LLVM runs on (csrc/runtime/threads.h) are kept between calls and must go with the copy.

    A kept thread's stack is a 64 KiB guard (---p) right below 32 MiB of stack (rw-p).
    """
    result = run_python(
        r"""
import json, threading, llvmplug
from lifecycle_support import generated_module

def stacks():
    rows = []
    for line in open("/proc/self/maps"):
        fields = line.split()
        start, end = (int(x, 16) for x in fields[0].split("-"))
        rows.append((start, end, fields[1], len(fields) > 5))
    return sum(1 for (s1, e1, p1, named1), (s2, e2, p2, named2) in zip(rows, rows[1:])
               if p1 == "---p" and e1 - s1 == 64 << 10 and p2 == "rw-p" and e2 == s2 + (32 << 20) and e1 == s2
               and not named1 and not named2)

seen = {"before": stacks()}
plugins = [llvmplug.Plugin(), llvmplug.Plugin(private=True)]
def work():
    for _ in range(3):
        for plugin in plugins:
            plugin.compile(generated_module(30), flags="-O2")
threads = [threading.Thread(target=work) for _ in range(3)]
for t in threads: t.start()
for t in threads: t.join()
seen["loaded"] = stacks()
for plugin in plugins: plugin.unload()
seen["unloaded"] = stacks()
print(json.dumps(seen))
"""
    )
    assert result["before"] == 0
    assert result["loaded"] >= 2  # at least one per copy: the probe sees them
    assert result["unloaded"] == 0


@linux_only
def test_thread_that_compiled_can_exit_after_unload():
    """Nothing per-thread (TLS destructors, pthread key destructors) may point
    into the unmapped library when a thread that used it exits."""
    result = run_python(
        r"""
import json, threading, llvmplug
from lifecycle_support import generated_module, mapped
plugins = [llvmplug.Plugin(), llvmplug.Plugin(private=True)]
compiled, unloaded = threading.Event(), threading.Event()
def worker():
    for plugin in plugins:
        plugin.compile(generated_module(5), flags="-O3")
        plugin.compile(generated_module(2), flags="-O0 -x86-asm-syntax=intel", output="asm")
        try:
            plugin.compile("define i32 @f( {")
        except llvmplug.ParseError:
            pass
    compiled.set()
    unloaded.wait()
threads = [threading.Thread(target=worker) for _ in range(3)]
for t in threads: t.start()
compiled.wait()
paths = [p.loaded_path for p in plugins]
for plugin in plugins: plugin.unload()
unloaded.set()
for t in threads: t.join()
print(json.dumps([mapped(p) for p in paths]))
"""
    )
    assert result == [False, False]


def test_reload_cycles_leave_no_python_objects_behind():
    """Regression: cffi kept every library it had opened, ~10 KiB a reload."""
    result = run_python(
        r"""
import gc, json, tracemalloc
import llvmplug
def cycle(private):
    plugin = llvmplug.Plugin(private=private)
    plugin.compile("define i32 @f() { ret i32 1 }")
    plugin.unload()
for _ in range(5):
    cycle(False)
cycle(True)
gc.collect()
tracemalloc.start()
objects = len(gc.get_objects())
for index in range(40):
    cycle(private=index % 4 == 0)
gc.collect()
print(json.dumps({"bytes": tracemalloc.get_traced_memory()[0], "objects": len(gc.get_objects()) - objects}))
"""
    )
    assert result["objects"] < 50, result  # 40 loads; cffi's leak made 76 objects each
    assert result["bytes"] < 32 * 1024, result  # the leak: 400 KiB


# -- unloaded plugins --------------------------------------------------------


def test_methods_of_an_unloaded_plugin_raise(arith_ir):
    plugin = llvmplug.Plugin(private=True)
    plugin.unload()
    assert not plugin.loaded
    calls = [
        lambda: plugin.compile(arith_ir),
        lambda: plugin.info(),
        lambda: plugin.options(),
        lambda: plugin.set_options("-x86-asm-syntax=intel"),
    ]
    for call in calls:
        with pytest.raises(llvmplug.PluginUnloadedError):
            call()
    assert issubclass(llvmplug.PluginUnloadedError, llvmplug.LLVMPlugError)


def test_unload_and_reload_are_idempotent(arith_ir):
    plugin = llvmplug.Plugin(private=True)
    reference = plugin.compile(arith_ir)
    plugin.unload()
    plugin.unload()
    assert not plugin.loaded and plugin.loaded_path is None
    plugin.reload()
    plugin.reload()
    assert plugin.loaded
    assert plugin.compile(arith_ir) == reference
    with plugin as same:
        assert same is plugin
        assert same.compile(arith_ir) == reference
    assert not plugin.loaded
    plugin.unload()
    with pytest.raises(llvmplug.PluginUnloadedError):
        plugin.compile(arith_ir)


def test_a_second_plugin_of_the_shared_file_loads_a_private_copy():
    # Plugin() then llvmplug.compile() (the default Plugin) raised
    # LibraryLoadError; the second now gets an independent copy, so neither
    # sees the other's sticky options or resets.
    result = run_python(
        r"""
import json, llvmplug
IR = "define i32 @f() { ret i32 1 }"
first = llvmplug.Plugin()
plain = llvmplug.compile(IR, output="asm")
first.set_options("-x86-asm-syntax=intel")
seen = {
    "first is the file": str(first.loaded_path) == str(first.path),
    "default is a copy": str(llvmplug.default_plugin().loaded_path) != str(first.path),
    "default unaffected": llvmplug.compile(IR, output="asm") == plain,
    "first intel": "mov\teax, 1" in first.compile(IR, output="asm").decode(),
}
llvmplug.reset()
seen["first keeps its options"] = first.sticky_options == ("-x86-asm-syntax=intel",)
first.unload()
second = llvmplug.Plugin()  # the file is free again once the first is unloaded
seen["second is the file"] = str(second.loaded_path) == str(second.path)
seen["second compiles"] = second.compile(IR, output="asm") == plain
print(json.dumps(seen))
"""
    )
    assert result == dict.fromkeys(
        ["first is the file", "default is a copy", "default unaffected", "first intel", "first keeps its options",
         "second is the file", "second compiles"], True)


# -- unload/reload during a compile ------------------------------------------


def test_unload_and_reload_wait_for_a_compile_in_flight():
    result = run_python(
        r"""
import json, sys, threading, time, warnings
import llvmplug
from lifecycle_support import generated_module
warnings.simplefilter("ignore")
ir = generated_module(70)
outcomes = []
for private in (False, True):
    plugin = llvmplug.Plugin(private=private)
    start = time.perf_counter()
    reference = plugin.compile(ir, flags="-O3")
    duration = time.perf_counter() - start
    for action in ("unload", "reload"):
        # 0.3 of a compile measured just now: past the Python prologue, well
        # before the end. A loaded machine can still oversleep it; then the
        # scenario did not happen and is tried again (in_flight reports it).
        for attempt in range(3):
            delay = 0.3 * duration / (attempt + 1)
            got = {}
            started, done = threading.Event(), threading.Event()
            def worker():
                started.set()
                try:
                    got["output"] = plugin.compile(ir, flags="-O3")
                except BaseException as error:
                    got["error"] = repr(error)
                done.set()
            thread = threading.Thread(target=worker)
            thread.start()
            started.wait()
            time.sleep(delay)
            in_flight = not done.is_set()
            getattr(plugin, action)()
            thread.join()
            loaded = plugin.loaded
            if not loaded:
                plugin.reload()
            if not in_flight and attempt < 2:
                continue
            outcomes.append({
                "private": private, "action": action, "in_flight": in_flight,
                "error": got.get("error"), "same_output": got.get("output") == reference,
                "loaded": loaded,
            })
            break
    plugin.unload()
print(json.dumps({"outcomes": outcomes}))
"""
    )
    for outcome in result["outcomes"]:
        assert outcome["in_flight"], outcome  # otherwise the scenario did not happen
        assert outcome["error"] is None, outcome
        assert outcome["same_output"], outcome
        assert outcome["loaded"] == (outcome["action"] == "reload"), outcome


def test_reloads_between_compiles_on_many_threads():
    result = run_python(
        r"""
import json, threading, time, warnings
import llvmplug
from lifecycle_support import generated_module
warnings.simplefilter("ignore")
ir = generated_module(10)
plugin = llvmplug.Plugin()
reference = plugin.compile(ir, flags="-O2")
plugin.set_options("-x86-asm-syntax=intel")
bad, calls = [], []
def worker():
    for _ in range(10):
        out = plugin.compile(ir, flags="-O2")
        calls.append(1)
        if out != reference:
            bad.append(len(out))
threads = [threading.Thread(target=worker) for _ in range(3)]
for t in threads: t.start()
reloads = 0
while any(t.is_alive() for t in threads):
    plugin.reload()
    reloads += 1
    # reload() takes precedence over new calls: leave them room until one
    # more compile has finished (progress, not a guess at how long one takes).
    finished = len(calls)
    while len(calls) == finished and any(t.is_alive() for t in threads):
        time.sleep(0.001)
for t in threads: t.join()
asm = plugin.compile(ir, output="asm")
print(json.dumps({"bad": bad, "calls": len(calls), "reloads": reloads, "syntax": asm.split()[0].decode()}))
"""
    )
    assert result["bad"] == []
    assert result["calls"] == 30
    assert result["reloads"] >= 2
    assert result["syntax"] == ".att_syntax"  # the sticky option set before the reloads is gone


@linux_only
def test_reset_reloads_the_default_plugin():
    result = run_python(
        r"""
import json, llvmplug
from lifecycle_support import mapped
ir = "define i32 @f(i32 %x) { %y = add i32 %x, 1\n ret i32 %y }"
plugin = llvmplug.default_plugin()
plugin.set_options("-x86-asm-syntax=intel")
before = llvmplug.compile(ir, output="asm").split()[0].decode()
llvmplug.reset()
after = llvmplug.compile(ir, output="asm").split()[0].decode()
[option] = llvmplug.default_plugin().options("x86-asm-syntax")
print(json.dumps({"before": before, "after": after, "same": llvmplug.default_plugin() is plugin,
                  "loaded": plugin.loaded, "sticky": option["sticky"], "value": option["value"],
                  "mapped": mapped(plugin.path)}))
"""
    )
    assert result == {
        "before": ".intel_syntax",
        "after": ".att_syntax",
        "same": True,
        "loaded": True,
        "sticky": False,
        "value": "att",
        "mapped": True,
    }


def test_generated_module_compiles(arith_ir):
    # The generator feeds the lifecycle scenarios: it must be valid IR with
    # one function per requested kernel.
    ir = llvmplug.compile(generated_module(3), output="ll").decode()
    assert ir.count("define void @kernel") == 3


def test_exiting_without_closing_a_plugin_is_clean():
    """A script that compiles and ends without closing its Plugin: the
    interpreter's exit frees cffi's library object, which dlcloses the shim
    without llvmplug_shutdown while the copy's kept threads still wait inside
    it. Once most such exits died of SIGSEGV (a kept thread returning into
    unmapped code); now the copy stops its idle threads as it is unloaded.
    Several runs, since the crash depended on timing (and on
    what else the process held: a private copy as well hid it)."""
    script = (
        "import llvmplug\n"
        "plugin = llvmplug.Plugin()\n"
        "plugin.compile('define i32 @f() {\\n  ret i32 1\\n}')\n"
    )
    for _ in range(12):  # about half of them crashed before
        done = subprocess.run([sys.executable, "-c", script], capture_output=True, cwd=tempfile.gettempdir(), text=True, timeout=120)
        assert done.returncode == 0, (done.returncode, done.stderr[-2000:])
