"""Pool: parallel compiles through independent LLVMs, identical to serial results."""

from __future__ import annotations

import os
import sys
import threading
from concurrent.futures import ThreadPoolExecutor, wait
from pathlib import Path

import llvmplug
import pytest

# Per-call flags that change the output, so a leak between calls would show.
FLAG_SETS = [
    "-O0",
    "-O3",
    "-O2 -x86-asm-syntax=intel",
    "-O1 -mcpu=skylake",
    "-O2 -function-sections",
    "-passes=",
    "-O2 -mcpu=znver3 -x86-asm-syntax=intel",
    "-O2 -code-model=large",
]


def pool_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name.startswith("llvmplug-pool")]


@pytest.mark.parametrize("isolation", ["none", "process"])
def test_four_threads_through_a_two_worker_pool(arith_ir, isolation):
    jobs = [(i, FLAG_SETS[i % len(FLAG_SETS)], ["obj", "asm"][i // len(FLAG_SETS) % 2]) for i in range(400)]
    with llvmplug.Plugin(private=True) as serial:
        expected = {
            (flags, output): serial.compile(arith_ir, flags=flags, output=output)
            for _, flags, output in jobs
        }
    asm = [v for (_, output), v in expected.items() if output == "asm"]
    assert len(set(asm)) == len(FLAG_SETS)  # every flag set shows in the assembly

    pool = llvmplug.Pool(2, isolation=isolation)
    pids = [p.worker_pid for p in pool.plugins] if isolation == "process" else []

    def client(offset: int) -> list[tuple[int, bytes]]:
        mine = jobs[offset::4]  # 100 compiles each
        return [(i, pool.compile(arith_ir, flags=flags, output=output)) for i, flags, output in mine]

    with ThreadPoolExecutor(4) as clients:
        futures = [clients.submit(client, k) for k in range(4)]
        done, pending = wait(futures, timeout=300)
        assert not pending, "deadlock: clients did not finish"
    results = dict(pair for future in futures for pair in future.result())
    assert len(results) == 400
    for i, flags, output in jobs:
        assert results[i] == expected[(flags, output)], (i, flags, output)

    pool.close()
    assert not pool_threads()
    for pid in pids:
        assert not os.path.exists(f"/proc/{pid}")
    assert all(not p.loaded for p in pool.plugins)


@pytest.mark.parametrize("isolation", ["none", "process"])
def test_map_and_submit(arith_ir, isolation):
    modules = [arith_ir.replace("@add", f"@add{i}") for i in range(6)]
    with llvmplug.Plugin(private=True) as serial:
        expected = [serial.compile(m, flags="-O1") for m in modules]
    with llvmplug.Pool(2, isolation=isolation) as pool:
        assert list(pool.map(modules, flags="-O1")) == expected
        future = pool.submit(modules[0], flags="-O1")
        assert future.result(timeout=60) == expected[0]
        bad = pool.submit("not IR")
        with pytest.raises(llvmplug.ParseError):
            bad.result(timeout=60)
        with pytest.raises(llvmplug.ParseError):
            list(pool.map([modules[0], "not IR"]))
    with pytest.raises(llvmplug.PluginUnloadedError, match="closed"):
        pool.submit(arith_ir)
    assert not pool_threads()


def test_thread_pool_rejects_timeout_process_pool_honours_it(arith_ir):
    with llvmplug.Pool(1) as pool:
        with pytest.raises(llvmplug.ArgumentError, match="isolation='process'"):
            pool.compile(arith_ir, timeout=5)
    with llvmplug.Pool(1, isolation="process") as pool:
        assert pool.compile(arith_ir, timeout=60) == llvmplug.compile(arith_ir)


@pytest.mark.parametrize(
    ("args", "error"),
    [((0,), llvmplug.ArgumentError), (("2",), llvmplug.ArgumentTypeError), ((2, "fork"), llvmplug.ArgumentError),
     ((2, "thread"), llvmplug.ArgumentError), ((2, None), llvmplug.ArgumentError)],
)
def test_bad_pool_arguments(args, error):
    with pytest.raises(error):
        llvmplug.Pool(*args)


def test_memory_limit_only_for_process_pools(arith_ir):
    with pytest.raises(llvmplug.ArgumentError, match="memory_limit needs isolation='process'"):
        llvmplug.Pool(1, memory_limit=1 << 30)


@pytest.mark.skipif(sys.platform != "linux", reason="memory_limit is Linux-only; kills use POSIX signals")
def test_process_pool_survives_a_crash_in_one_worker(arith_ir):
    # A crasher that needs no option (the safe policy refuses -pre-RA-sched).
    crasher = Path(__file__).resolve().parent / "data" / "crashers" / "mutated-bitcode-segv-1.bc"
    with llvmplug.Pool(2, isolation="process", memory_limit=2 << 30) as pool:
        bad = pool.submit(crasher.read_bytes(), "x86_64-unknown-linux-gnu", "-passes=", output="ll")
        good = [pool.submit(arith_ir, flags="-O2") for _ in range(6)]
        with pytest.raises(llvmplug.WorkerCrashedError, match="SIGSEGV"):
            bad.result(timeout=120)
        expected = llvmplug.compile(arith_ir, flags="-O2")
        assert all(f.result(timeout=120) == expected for f in good)
        assert list(pool.map([arith_ir] * 4, flags="-O2")) == [expected] * 4


def test_pool_passes_plugin_keywords_and_keeps_in_process_workers_private(arith_ir):
    with pytest.raises(llvmplug.ArgumentError, match="in-process Pool workers are private copies"):
        llvmplug.Pool(1, private=False)
    with pytest.raises(llvmplug.ArgumentError, match="policy must be one of safe, all"):
        llvmplug.Pool(1, policy="everything")
    with llvmplug.Pool(2, policy="all", reload_after_fatal=False) as pool:
        assert all(p.private and p.policy == "all" for p in pool.plugins)
        assert pool.isolation == "none"
        assert pool.compile(arith_ir) == llvmplug.compile(arith_ir)


# -- one request, the same arguments as a Plugin's --------------------------------


def test_pool_takes_what_a_plugin_takes(arith_ir):
    helper = "define float @scale(float %x) {\n  %y = fmul float %x, 2.0\n  ret float %y\n}\n"
    caller = ("declare float @scale(float)\ndefine float @twice(float %x) {\n"
              "  %y = call float @scale(float %x)\n  ret float %y\n}\n")
    cache = llvmplug.Cache()
    with llvmplug.Pool(2) as pool, llvmplug.Plugin(private=True) as plugin:
        expected = plugin.compile(caller, link=[helper], output="ll")
        assert list(pool.map([caller, caller], link=[helper], output="ll")) == [expected] * 2
        assert pool.compile(arith_ir, cache=cache) == pool.compile(arith_ir, cache=cache) == plugin.compile(arith_ir)
        assert cache.stats.hits == 1 and cache.stats.misses == 1
        assert pool.compile_parts(arith_ir, parts=2) == plugin.compile_parts(arith_ir, parts=2)
        assert pool.submit_parts(arith_ir, parts=2, output="asm").result(timeout=120) == plugin.compile_parts(
            arith_ir, parts=2, output="asm")


def test_pool_checks_every_argument_before_anything_runs(arith_ir):
    with llvmplug.Pool(1) as pool:
        with pytest.raises(llvmplug.ArgumentTypeError, match=r"module must be IR text"):
            pool.map([arith_ir, 3])  # raised at once, not when iterating reaches it
        with pytest.raises(llvmplug.ArgumentError, match="output must be one of obj, asm, not 'bc'"):
            pool.submit_parts(arith_ir, output="bc")
        with pytest.raises(llvmplug.ArgumentTypeError, match="cache must be an llvmplug.Cache"):
            pool.submit(arith_ir, cache={})
        with pytest.raises(llvmplug.ArgumentError, match="timeout needs Plugin\\(isolation='process'\\)"):
            pool.compile(arith_ir, timeout=1)
