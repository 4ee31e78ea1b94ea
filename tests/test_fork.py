"""os.fork() with Plugins alive: the child never touches what it inherited, never deadlocks,
and never gets the other process's result.

Each scenario runs in a fresh interpreter (forking pytest itself, with its
threads, would test pytest); the harness gives every child a deadline and
reports a child that misses it as a deadlock.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from lifecycle_support import run_python

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="os.fork and memfd copies (Linux)")

HARNESS = r"""
import hashlib, json, os, sys, threading, time, warnings
import llvmplug
from lifecycle_support import generated_module
warnings.simplefilter("ignore")
ARITH = open(sys.argv[1]).read()
SLOW = generated_module(120)

def digest(data):
    return hashlib.sha256(data).hexdigest()

def in_child(work, deadline=60):
    # Fork; run work() in the child and send back its JSON; None if the child
    # missed its deadline (then it is killed: a deadlock).
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        try:
            result = {"ok": work()}
        except BaseException as error:
            result = {"error": f"{type(error).__name__}: {error}"}
        os.write(write, json.dumps(result).encode())
        os._exit(0)
    os.close(write)
    start = time.monotonic()
    while time.monotonic() - start < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            data = b""
            while chunk := os.read(read, 1 << 16):
                data += chunk
            os.close(read)
            return json.loads(data) if data else {"error": f"child exited with status {status}"}
        time.sleep(0.05)
    os.kill(pid, 9)
    os.waitpid(pid, 0)
    return None
"""


def test_fork_with_compiles_in_flight_on_other_threads(arith_ir):
    data = Path(__file__).resolve().parent / "data" / "arith.ll"
    result = run_python(
        HARNESS
        + r"""
expected = {"obj": digest(llvmplug.Plugin(private=True).compile(ARITH)),
            "asm": digest(llvmplug.Plugin(private=True).compile(ARITH, output="asm"))}
shared = llvmplug.default_plugin()
private = llvmplug.Plugin(private=True)
private.set_options("-x86-asm-syntax=intel")
intel = digest(llvmplug.Plugin(private=True).compile(ARITH, flags="-x86-asm-syntax=intel", output="asm"))
standby = llvmplug.Plugin(private=True, standby=True)
parent_paths = [str(shared.loaded_path), str(private.loaded_path), str(standby.loaded_path)]
stop = threading.Event()

def busy(plugin):
    while not stop.is_set():
        plugin.compile(SLOW, flags="-O3")

def resetting():
    while not stop.is_set():
        standby.reload()  # the standby's background thread is busy at some fork
        standby.compile(ARITH)

threads = [threading.Thread(target=busy, args=(p,)) for p in (shared, private, shared)]
threads.append(threading.Thread(target=resetting))
for t in threads: t.start()
outcomes = []
for round in range(4):
    time.sleep(0.2 + 0.1 * round)  # each fork lands somewhere else in the compiles
    def work():
        return {"obj": digest(llvmplug.compile(ARITH)),
                "asm": digest(shared.compile(ARITH, output="asm")),
                "intel": digest(private.compile(ARITH, output="asm")),
                "sticky": list(private.sticky_options),
                "standby": [digest(standby.compile(ARITH)), standby.reload(), digest(standby.compile(ARITH))],
                "paths": [str(shared.loaded_path), str(private.loaded_path), str(standby.loaded_path)]}
    outcomes.append(in_child(work))
stop.set()
for t in threads: t.join()
after = {"obj": digest(llvmplug.compile(ARITH)), "intel": digest(private.compile(ARITH, output="asm"))}
print(json.dumps({"expected": expected, "intel": intel, "parent_paths": parent_paths,
                  "outcomes": outcomes, "after": after}))
""",
        str(data),
    )
    for outcome in result["outcomes"]:
        assert outcome is not None, "deadlock: the forked child did not finish"
        assert "ok" in outcome, outcome
        got = outcome["ok"]
        assert got["obj"] == result["expected"]["obj"]
        assert got["asm"] == result["expected"]["asm"]
        assert got["intel"] == result["intel"]  # the sticky option came along to the child's own copy
        assert got["sticky"] == ["-x86-asm-syntax=intel"]
        assert got["standby"] == [result["expected"]["obj"], None, result["expected"]["obj"]]
        # Copies of the child's own, never the inherited ones.
        assert all(path.startswith("/memfd:llvmplug-") for path in got["paths"])
        assert not set(got["paths"]) & set(result["parent_paths"])
    assert result["after"] == {"obj": result["expected"]["obj"], "intel": result["intel"]}


def test_process_plugin_on_both_sides_of_a_fork_gets_its_own_results():
    result = run_python(
        HARNESS
        + r"""
modules = [ARITH.replace("@add", f"@add{i}") for i in range(2)]
expected = [digest(llvmplug.Plugin(private=True).compile(m, output="asm")) for m in modules]
plugin = llvmplug.Plugin(isolation="process")
parent_pid = plugin.worker_pid
stop = threading.Event()
parent_results = []

def parent_work():
    while not stop.is_set():
        parent_results.append(digest(plugin.compile(modules[0], output="asm")))

thread = threading.Thread(target=parent_work)
thread.start()
outcomes = []
for round in range(3):
    time.sleep(0.3)
    def work():
        got = [digest(plugin.compile(modules[1], output="asm")) for _ in range(20)]
        return {"results": got, "pid": plugin.worker_pid}
    outcomes.append(in_child(work))
stop.set()
thread.join()
print(json.dumps({"expected": expected, "parent_pid": parent_pid, "parent_results": parent_results,
                  "pid_after": plugin.worker_pid, "outcomes": outcomes}))
""",
        str(Path(__file__).resolve().parent / "data" / "arith.ll"),
    )
    assert result["parent_results"] and set(result["parent_results"]) == {result["expected"][0]}
    assert result["pid_after"] == result["parent_pid"]  # the parent's child was left alone
    for outcome in result["outcomes"]:
        assert outcome is not None, "deadlock: the forked child did not finish"
        assert "ok" in outcome, outcome
        assert set(outcome["ok"]["results"]) == {result["expected"][1]}
        assert outcome["ok"]["pid"] not in (None, result["parent_pid"])  # a worker of its own


def test_multiprocessing_fork_start_method():
    result = run_python(
        HARNESS
        + r"""
import multiprocessing

def compile_one(i):
    module = ARITH.replace("@add", f"@add{i}")
    return digest(llvmplug.compile(module, output="asm"))

expected = [compile_one(i) for i in range(8)]  # loads the default Plugin before the fork
process_plugin = llvmplug.Plugin(isolation="process")
with multiprocessing.get_context("fork").Pool(2) as pool:
    got = pool.map_async(compile_one, range(8)).get(timeout=180)
print(json.dumps({"expected": expected, "got": got}))
""",
        str(Path(__file__).resolve().parent / "data" / "arith.ll"),
    )
    assert result["got"] == result["expected"]
