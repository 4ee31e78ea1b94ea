"""Private instances: independent LLVMs side by side, and no copies left behind."""

from __future__ import annotations

import json
import os
import sys

import llvmplug
import pytest
from llvmplug import _loader

from lifecycle_support import generated_module, run_python

linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self")


def syntax(asm: bytes) -> str:
    return asm.split()[0].decode()


def test_private_plugins_have_independent_options(arith_ir):
    with llvmplug.Plugin(private=True) as first, llvmplug.Plugin(private=True) as second:
        first.set_options("-x86-asm-syntax=intel")
        second.set_options("-align-loops=64")
        assert syntax(first.compile(arith_ir, output="asm")) == ".intel_syntax"
        assert syntax(second.compile(arith_ir, output="asm")) == ".att_syntax"
        loop = generated_module(1)
        assert ".p2align\t6" in second.compile(loop, output="asm").decode()
        assert ".p2align\t6" not in first.compile(loop, output="asm").decode()
        assert first.options("align-loops")[0]["value"] == "0"
        assert second.options("x86-asm-syntax")[0]["value"] == "att"
        # the default Plugin, shared by llvmplug.compile, saw none of it
        assert syntax(llvmplug.compile(arith_ir, output="asm")) == ".att_syntax"
        second.reload()
        assert syntax(first.compile(arith_ir, output="asm")) == ".intel_syntax"
        assert second.options("align-loops")[0]["sticky"] is False


@linux_only
def test_private_copies_are_distinct_memfd_mappings_and_leave_no_files(tmp_path):
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    env = dict(os.environ, TMPDIR=str(tmp))
    result = run_python(
        r"""
import gc, json, os, sys, tempfile
import llvmplug
from lifecycle_support import mapped
tmp = sys.argv[1]
assert tempfile.gettempdir() == tmp
seen = {}
shared = llvmplug.Plugin()
first, second = llvmplug.Plugin(private=True), llvmplug.Plugin(private=True)
paths = [str(shared.loaded_path), str(first.loaded_path), str(second.loaded_path)]
seen["distinct"] = len(set(paths)) == 3
seen["in memory"] = [p.startswith("/memfd:llvmplug-") for p in paths[1:]]
seen["mapped"] = [mapped(p) for p in paths]
seen["files while loaded"] = os.listdir(tmp)
first.compile("define i32 @f() { ret i32 1 }")
second.compile("define i32 @f() { ret i32 1 }")
first.unload()
seen["after unload"] = [os.listdir(tmp), mapped(paths[1]), mapped(paths[2])]
del second
gc.collect()
seen["after gc"] = [os.listdir(tmp), mapped(paths[2])]
try:
    llvmplug.Plugin(private=True, path=os.path.abspath(sys.argv[2]))
    seen["bad file"] = "loaded"
except llvmplug.LibraryLoadError:
    seen["bad file"] = os.listdir(tmp)
third = llvmplug.Plugin(private=True)  # left loaded at exit
third.compile("define i32 @f() { ret i32 1 }")
print(json.dumps(seen))
""",
        str(tmp),
        __file__,  # not a shared library
        env=env,
    )
    assert result == {
        "distinct": True,
        "in memory": [True, True],  # memfds: never a file on disk
        "mapped": [True, True, True],
        "files while loaded": [],  # POSIX: the copy is deleted once it is mapped
        "after unload": [[], False, True],
        "after gc": [[], False],
        "bad file": [],
    }
    assert list(tmp.iterdir()) == []  # and nothing after the interpreter exited


@linux_only
def test_a_private_copy_is_the_only_copy_of_the_shim_the_process_keeps():
    # Each memfd holds the whole shim (~150 MiB of shared memory that RSS does
    # not show). The template read from the package's file is the first
    # private copy's memfd; only copies loaded at the same time need more.
    result = run_python(
        r"""
import json, os
import llvmplug

def copies():
    sizes = {}
    for fd in os.listdir("/proc/self/fd"):
        try:
            if os.readlink(f"/proc/self/fd/{fd}").startswith("/memfd:llvmplug-"):
                status = os.fstat(int(fd))
                sizes[status.st_ino] = status.st_size
        except OSError:
            pass  # the fd listing's own
    return len(sizes)

seen = []
first = llvmplug.Plugin(private=True)
first.compile("define i32 @f() { ret i32 1 }")
seen.append(copies())
first.reload()
first.compile("define i32 @f() { ret i32 1 }")
seen.append(copies())
second = llvmplug.Plugin(private=True)
seen.append(copies())
first.unload()
third = llvmplug.Plugin(private=True)  # loaded from the template the first gave back
seen.append(copies())
second.unload(), third.unload()
seen.append(copies())
print(json.dumps(seen))
"""
    )
    assert result == [1, 1, 2, 2, 1]


@linux_only
def test_copies_run_the_templates_code_pages_and_unmap_them_with_the_copy(arith_ir):
    # A second copy is a memfd of its own (glibc tells libraries apart by
    # inode), filled from the template; its code and read-only data are then
    # mapped from the template itself, so that every copy runs the same
    # physical pages (a standby swapped in finds them cached). The first
    # segment (the copy's ELF header and dynamic symbols) and the writable
    # one stay the copy's own.
    result = run_python(
        r"""
import hashlib, json, os, sys
from elftools.elf.elffile import ELFFile
import llvmplug
from lifecycle_support import loaded_files

def maps():
    found = []
    for line in open("/proc/self/maps"):
        fields = line.split(maxsplit=5)
        if len(fields) == 6:
            low, high = (int(x, 16) for x in fields[0].split("-"))
            found.append((low, high, fields[1], int(fields[2], 16), int(fields[4]), fields[5].strip()))
    return found

def segments(plugin):
    # Each loaded segment of the copy: where it is mapped from (name, inode, offset).
    path = str(plugin.loaded_path)
    base = next(low for low, _, _, offset, _, name in maps() if offset == 0 and name.startswith(path))
    with open(llvmplug._loader.library_path(), "rb") as stream:
        loads = [s.header for s in ELFFile(stream).iter_segments() if s.header.p_type == "PT_LOAD"]
    seen = []
    for load in loads:
        at = base + load.p_vaddr
        low, high, perms, offset, inode, name = next(m for m in maps() if m[0] <= at < m[1])
        seen.append({"flags": load.p_flags, "from": name.removesuffix(" (deleted)"), "inode": inode,
                     "offset matches": offset + (at - low) == load.p_offset})
    return base, base + max(load.p_vaddr + load.p_memsz for load in loads), seen

module = sys.argv[1]
first, second = llvmplug.Plugin(private=True), llvmplug.Plugin(private=True)
outputs = [p.compile(module, flags="-O2") for p in (first, second, first, second)]
paths = {"first": str(first.loaded_path), "second": str(second.loaded_path)}
template, own = (p._backend._owned["library"].file.fd for p in (first, second))  # noqa: SLF001 - their memfds
base, end, seen = segments(second)
# The bytes the shared pages hold are the copy's own bytes (the proof, not only the construction).
digests = [hashlib.sha256(open(f"/proc/self/fd/{fd}", "rb").read()).hexdigest() for fd in (template, own)]
second.reload()  # a reload maps the kept memfd again, and shares again
after_reload = segments(second)[2] == seen
second.unload()
left = [m for m in maps() if m[0] < end and m[1] > base and m[5].startswith("/memfd:llvmplug-")]
print(json.dumps({**paths,
                  "template inode": os.fstat(template).st_ino, "segments": seen,
                  "same bytes": digests[0] == digests[1], "same output": len(set(outputs)) == 1,
                  "after reload": after_reload, "left after unload": left,
                  "loaded": sorted(n for n in loaded_files() if n.startswith("/memfd:llvmplug-")),
                  "first still works": first.compile(module, flags="-O2") == outputs[0]}))
""",
        arith_ir,
    )
    first, second = result["first"], result["second"]
    assert first != second
    executable, writable = 1, 2
    for index, segment in enumerate(result["segments"]):
        assert segment["offset matches"], segment
        if index == 0 or segment["flags"] & writable:
            assert segment["from"] == second, segment  # the copy's own: its header and symbols, its data
        else:
            assert segment["from"] == first and segment["inode"] == result["template inode"], segment
    assert any(s["flags"] & executable and s["from"] == first for s in result["segments"])
    assert result["same bytes"] and result["same output"] and result["after reload"]
    assert result["left after unload"] == []  # dlclose unmapped the shared pages with the copy
    assert result["loaded"] == [first]
    assert result["first still works"]


@linux_only
def test_a_copy_whose_code_could_not_be_mapped_never_runs_and_says_so(arith_ir):
    # A mapping that failed half way may have left the copy's code unmapped:
    # nothing may run in it (not even its shutdown), and the load fails clearly.
    result = run_python(
        r"""
import json, sys
import llvmplug
from llvmplug import _loader

first = llvmplug.Plugin(private=True)
first.compile(sys.argv[1])
share = _loader._share_code
def failing(*args):
    raise OSError(12, "Cannot allocate memory")
_loader._share_code = failing
try:
    llvmplug.Plugin(private=True).compile(sys.argv[1])
    said = None
except llvmplug.LibraryLoadError as error:
    said = str(error)
_loader._share_code = share
print(json.dumps({"said": said, "abandoned": len(_loader._abandoned),
                  "others work": len(first.compile(sys.argv[1])) > 0
                  and len(llvmplug.Plugin(private=True).compile(sys.argv[1])) > 0}))
""",
        arith_ir,
    )
    assert result["said"] and "cannot map the code of /memfd:llvmplug-" in result["said"], result
    assert "Cannot allocate memory" in result["said"]
    assert result["abandoned"] == 1 and result["others work"]


CONCURRENT = r"""
import hashlib, json, sys, threading, warnings
import llvmplug
from lifecycle_support import generated_module
warnings.simplefilter("ignore")
configs = json.loads(sys.argv[1])
modules = [generated_module(25, seed=7)] + [open(p).read() for p in sys.argv[2:]]

def work(plugin, config):
    digests = []
    for module in modules:
        for output in ("asm", "obj"):
            data = plugin.compile(module, flags=config["call"], output=output)
            digests.append(hashlib.sha256(data).hexdigest())
    return digests

def run(config, results):
    plugin = llvmplug.Plugin(private=True)
    plugin.set_options(config["sticky"])
    results[config["name"]] = work(plugin, config)
    plugin.unload()
"""


@pytest.fixture(scope="module")
def concurrent_configs() -> list[dict[str, str]]:
    return [
        {"name": "intel", "sticky": "-x86-asm-syntax=intel", "call": "-O2"},
        {"name": "aligned", "sticky": "-align-loops=64 -force-vector-width=2", "call": "-O3"},
        {"name": "pic", "sticky": "-unroll-count=3", "call": "-O3 -relocation-model=pic"},
        {"name": "plain", "sticky": "", "call": "-O0 -x86-asm-syntax=intel"},
    ]


def test_private_plugins_compile_concurrently_like_fresh_processes(concurrent_configs, corpus_files):
    modules = [str(p) for p in corpus_files[:6]]
    # each configuration alone, in a fresh process of its own, one after another
    serial = {}
    for config in concurrent_configs:
        serial.update(run_python(CONCURRENT + "r = {}\nrun(configs[0], r)\nprint(json.dumps(r))",
                                 json.dumps([config]), *modules))
    # all configurations at once, one private Plugin and one thread each, twice over
    concurrent = run_python(
        CONCURRENT
        + r"""
outcomes = []
for round in range(2):
    results = {}
    threads = [threading.Thread(target=run, args=(c, results)) for c in configs]
    for t in threads: t.start()
    for t in threads: t.join()
    outcomes.append(results)
print(json.dumps(outcomes))
""",
        json.dumps(concurrent_configs),
        *modules,
    )
    distinct = {json.dumps(digests) for digests in serial.values()}
    assert len(distinct) == len(concurrent_configs)  # the configurations do differ
    for results in concurrent:
        assert results == serial


def test_first_plugins_loaded_on_many_threads_at_once():
    """Regression: the FFI was built once per racing thread, and a library
    opened through one FFI rejected the result pointers of another."""
    result = run_python(
        r"""
import json, threading
import llvmplug
barrier = threading.Barrier(4)
errors = []
def load():
    try:
        barrier.wait()
        with llvmplug.Plugin(private=True) as plugin:
            plugin.set_options("-x86-asm-syntax=intel")
            plugin.compile("define i32 @f() { ret i32 1 }")
    except Exception as error:
        errors.append(repr(error))
threads = [threading.Thread(target=load) for _ in range(4)]
for t in threads: t.start()
for t in threads: t.join()
print(json.dumps(errors))
"""
    )
    assert result == []


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_FSIZE and SIGXFSZ as on Linux")
def test_a_failed_copy_leaves_nothing_and_raises_library_load_error(tmp_path):
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    result = run_python(
        r"""
import json, os, resource, signal, sys
import llvmplug
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # writes past the limit fail with EFBIG instead
resource.setrlimit(resource.RLIMIT_FSIZE, (1 << 20, 1 << 20))  # far smaller than the shim
try:
    llvmplug.Plugin(private=True)
    outcome = "loaded"
except llvmplug.LibraryLoadError as error:
    outcome = "LibraryLoadError"
print(json.dumps({"outcome": outcome, "left": os.listdir(sys.argv[1])}))
""",
        str(tmp),
        env=dict(os.environ, TMPDIR=str(tmp)),
    )
    assert result == {"outcome": "LibraryLoadError", "left": []}


def test_the_gil_is_released_while_the_shim_compiles():
    """Other Python threads keep running during a compile: the longest pause
    the main thread sees is a fraction of the compile's duration."""
    result = run_python(
        r"""
import json, math, threading, time, warnings
import llvmplug
from lifecycle_support import generated_module
warnings.simplefilter("ignore")
plugin = llvmplug.Plugin(private=True)
# Size the module from a compile measured here, now, to last about a second:
# long against the scheduler's time slices even on a loaded machine.
plugin.compile(generated_module(20), flags="-O3")
start = time.perf_counter()
plugin.compile(generated_module(20), flags="-O3")
functions = max(20, math.ceil(20 * 1.0 / (time.perf_counter() - start)))
ir = generated_module(functions)
plugin.compile(ir, flags="-O3")
attempts = []
# A held GIL pauses the main thread for the whole compile, every time; a busy
# machine can steal a long slice once. So the best of three attempts counts.
for _ in range(3):
    timing = {}
    def worker():
        start = time.perf_counter()
        plugin.compile(ir, flags="-O3")
        timing["compile"] = time.perf_counter() - start
    thread = threading.Thread(target=worker)
    last = time.perf_counter()
    longest = 0.0
    thread.start()
    while thread.is_alive():
        now = time.perf_counter()
        longest = max(longest, now - last)
        last = now
    thread.join()
    attempts.append({"compile": timing["compile"], "longest pause": longest})
    if longest < timing["compile"] / 2:
        break
print(json.dumps({"functions": functions, "attempts": attempts}))
"""
    )
    best = min(result["attempts"], key=lambda a: a["longest pause"] / a["compile"])
    assert best["compile"] > 0.2, result  # long enough for the comparison to mean something
    # Holding the GIL would make the pause as long as the compile (checked by
    # hand with a ctypes.PyDLL call).
    assert best["longest pause"] < best["compile"] / 2, result


@linux_only
def test_sigkill_during_private_loads_leaves_nothing_on_disk(tmp_path):
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    import signal
    import subprocess
    import time

    code = (
        "import llvmplug, sys\n"
        "print('go', flush=True)\n"
        "while True:\n"
        "    llvmplug.Plugin(private=True).unload()\n"
    )
    env = dict(os.environ, TMPDIR=str(tmp))
    for delay in (0.05, 0.3, 0.6):
        with subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, env=env, cwd=str(tmp_path)) as child:
            assert child.stdout.readline() == b"go\n"
            time.sleep(delay)  # somewhere in a copy, a load or an unload
            child.send_signal(signal.SIGKILL)
            assert child.wait(timeout=60) == -signal.SIGKILL
        assert list(tmp.iterdir()) == []


@linux_only
def test_private_reload_maps_the_same_bytes_without_reading_the_file_again(tmp_path, arith_ir):
    import shutil

    shim = tmp_path / "libcopy.so"
    shutil.copyfile(_loader.library_path(), shim)
    with llvmplug.Plugin(private=True, path=shim) as plugin:
        expected = plugin.compile(arith_ir, output="asm")
        plugin.set_options("-x86-asm-syntax=intel")
        copy = plugin.loaded_path
        shim.unlink()  # a reload that read the file again would fail now
        plugin.reload()
        assert plugin.loaded_path == copy  # the same memfd, mapped again
        assert plugin.compile(arith_ir, output="asm") == expected  # and a fresh LLVM in it
        with pytest.raises(llvmplug.LibraryLoadError, match="missing"):
            llvmplug.Plugin(private=True, path=shim)  # control: the file is gone
