"""Concurrent calls on one loaded copy: every output byte-identical to a
single-threaded run.

Threads mix compiles without per-call options (which share the copy's lock
and run at once), compiles with per-call options (which run alone), split
compiles, sticky option changes, clear_options and reloads. The expected
output of every request is computed first, one call at a time, for each
sticky state a request can meet; in the concurrent run a request's output
must equal its expectation under one of the sticky states that could be in
force, and for requests whose output the sticky state does not change, that
is one exact value.
"""

from __future__ import annotations

import os
import random
import threading
from collections.abc import Callable
from pathlib import Path

import llvmplug
import pytest

# Sticky states the changer thread moves between. Each changes some outputs:
# the assembly syntax changes every asm output, loop alignment the objects
# of modules with loops.
STICKY_STATES = ("", "-x86-asm-syntax=intel", "-align-loops=64")

# (output, flags): flag-less requests share the lock; the others set
# per-call options and run alone. -x86-asm-syntax=att overrides the sticky
# syntax for that call, so its output must not depend on the sticky state.
REQUESTS = (
    ("obj", ""),
    ("asm", ""),
    ("obj", "-O3"),
    ("obj", "-passes="),
    ("asm", "-x86-asm-syntax=att -O1"),
    ("obj", "-mcpu=skylake"),
    ("obj", "-align-loops=32 -O3"),
)

THREADS = 4
# Requests per thread; raise it for a longer soak (LLVMPLUG_STRESS_ROUNDS=1000).
ROUNDS = int(os.environ.get("LLVMPLUG_STRESS_ROUNDS", "40"))


def _modules(corpus_files: list[Path], arith_ir: str) -> list[str]:
    # A spread of the corpus (with and without loops) plus the arithmetic module.
    files = corpus_files[:: max(1, len(corpus_files) // 12)]
    return [arith_ir] + [path.read_text() for path in files]


def _expectations(
    plugin: llvmplug.Plugin, modules: list[str], parts: int
) -> dict[tuple[int, int, int], dict[str, object]]:
    """Every request's output under every sticky state, one call at a time."""
    table: dict[tuple[int, int, int], dict[str, object]] = {}
    for state in STICKY_STATES:
        plugin.clear_options()
        if state:
            plugin.set_options(state)
        for m, module in enumerate(modules):
            for r, (output, flags) in enumerate(REQUESTS):
                table.setdefault((m, r, 1), {})[state] = plugin.compile(module, flags=flags, output=output)
            if parts > 1:
                table.setdefault((m, 0, parts), {})[state] = plugin.compile_parts(module, parts=parts)
    plugin.clear_options()
    return table


def _inspect(plugin: llvmplug.Plugin) -> None:
    [option] = [o for o in plugin.options("align-loops") if o["name"] == "align-loops"]
    assert option["value"] in ("0", "64"), option
    assert plugin.info()["llvm_version"]


def _stress(
    compile_one: Callable[[int, int, int], object],
    change_sticky: Callable[[str], None],
    reload: Callable[[], None],
    inspect: Callable[[], None],
    table: dict[tuple[int, int, int], dict[str, object]],
) -> dict[str, int]:
    """Run THREADS compiling threads and one changer thread; return how often
    each sticky state was seen by a sticky-sensitive request."""
    keys = sorted(table)
    failures: list[str] = []
    seen = {state: 0 for state in STICKY_STATES}
    seen_lock = threading.Lock()
    stop = threading.Event()
    start = threading.Barrier(THREADS + 1)

    def compiler(seed: int) -> None:
        rng = random.Random(seed)
        start.wait()
        try:
            for _ in range(ROUNDS):
                key = rng.choice(keys)
                result = compile_one(*key)
                matching = [state for state, value in table[key].items() if value == result]
                if not matching:
                    failures.append(f"request {key}: output matches no sticky state's")
                elif len(set(map(repr, table[key].values()))) > 1:
                    with seen_lock:
                        for state in matching:
                            seen[state] += 1
        except Exception as error:  # noqa: BLE001 - reported below
            failures.append(f"request raised {error!r}")

    def changer() -> None:
        rng = random.Random(1)
        start.wait()
        try:
            while not stop.is_set():
                action = rng.random()
                if action < 0.1:
                    reload()  # every option back to its default
                elif action < 0.25:
                    inspect()  # list options (exclusive) and info (shared)
                else:
                    change_sticky(rng.choice(STICKY_STATES))
                stop.wait(0.001)
        except Exception as error:  # noqa: BLE001 - reported below
            failures.append(f"sticky change raised {error!r}")

    workers = [threading.Thread(target=compiler, args=(seed,)) for seed in range(THREADS)]
    changing = threading.Thread(target=changer)
    for thread in [*workers, changing]:
        thread.start()
    for thread in workers:
        thread.join(timeout=600)
    stop.set()
    changing.join(timeout=60)
    assert not any(thread.is_alive() for thread in [*workers, changing]), "a thread hung"
    assert not failures, failures[:5]
    return seen


def test_one_plugin_shared_by_threads(corpus_files, arith_ir):
    modules = _modules(corpus_files, arith_ir)
    with llvmplug.Plugin(private=True) as plugin:
        table = _expectations(plugin, modules, parts=2)

        def compile_one(m: int, r: int, parts: int) -> object:
            if parts > 1:
                return plugin.compile_parts(modules[m], parts=parts)
            output, flags = REQUESTS[r]
            return plugin.compile(modules[m], flags=flags, output=output)

        def change_sticky(state: str) -> None:
            plugin.clear_options()
            if state:
                plugin.set_options(state)

        seen = _stress(compile_one, change_sticky, plugin.reload, lambda: _inspect(plugin), table)
        # The changer did interleave with the compiles: sticky-sensitive
        # requests met more than one state.
        assert sum(1 for count in seen.values() if count) >= 2, seen
        # Afterwards the copy is as good as new.
        plugin.clear_options()
        for (m, r, parts), values in table.items():
            if parts == 1:
                output, flags = REQUESTS[r]
                assert plugin.compile(modules[m], flags=flags, output=output) == values[""]


def test_default_plugin_shared_by_threads(corpus_files, arith_ir):
    modules = _modules(corpus_files, arith_ir)
    plugin = llvmplug.default_plugin()
    llvmplug.reset()
    try:
        table = _expectations(plugin, modules, parts=0)

        def compile_one(m: int, r: int, parts: int) -> object:
            output, flags = REQUESTS[r]
            return llvmplug.compile(modules[m], flags=flags, output=output)

        def change_sticky(state: str) -> None:
            plugin.clear_options()
            if state:
                plugin.set_options(state)

        _stress(compile_one, change_sticky, llvmplug.reset, lambda: _inspect(plugin), table)
    finally:
        llvmplug.reset()


@pytest.mark.parametrize("flags", ["", "-O3"])
def test_threads_without_changes_match_one_thread(corpus_files, flags):
    """Only flag-less (or only per-call-option) compiles: no sticky change
    at all, so every output must equal the single-threaded one exactly."""
    modules = [path.read_text() for path in corpus_files[:24]]
    with llvmplug.Plugin(private=True) as plugin:
        expected = [plugin.compile(module, flags=flags) for module in modules]
        results: dict[tuple[int, int], bytes] = {}
        errors: list[BaseException] = []

        def work(seed: int) -> None:
            try:
                order = list(range(len(modules)))
                random.Random(seed).shuffle(order)
                for index in order:
                    results[seed, index] = plugin.compile(modules[index], flags=flags)
            except BaseException as error:  # noqa: BLE001 - reported below
                errors.append(error)

        threads = [threading.Thread(target=work, args=(seed,)) for seed in range(THREADS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=600)
        assert not errors, errors
        assert all(results[seed, i] == expected[i] for seed in range(THREADS) for i in range(len(modules)))


def test_a_backend_that_writes_options_does_not_race_other_compiles():
    # PowerPC lowering assigns the global -min-jump-table-entries while it
    # compiles; x86 compiles running beside it (sharing the lock) would read
    # it. Such a backend's compiles run alone, so every x86 output is the
    # one-thread reference.
    module = (Path(__file__).resolve().parent / "data" / "sweep.ll").read_text()
    x86, ppc = "x86_64-unknown-linux-gnu", "powerpc64le-unknown-linux-gnu"
    with llvmplug.Plugin(private=True) as plugin:
        reference = plugin.compile(module, x86)
        outputs: list[bytes] = []
        errors: list[BaseException] = []

        def compile_for(triple: str, keep: bool) -> None:
            try:
                for _ in range(30):
                    data = plugin.compile(module, triple)
                    if keep:
                        outputs.append(data)
            except BaseException as error:  # noqa: BLE001 - reported below
                errors.append(error)

        threads = [threading.Thread(target=compile_for, args=(ppc, False))] + [
            threading.Thread(target=compile_for, args=(x86, True)) for _ in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert not errors, errors
    assert len(outputs) == 60 and all(data == reference for data in outputs)


# Every backend on one copy (issue 20): backends that write no option share
# the copy, calls with the same per-call options share it with each other,
# a different set waits, and backends that write options of their own
# (PowerPC, Hexagon, WebAssembly: -min-jump-table-entries) run alone. The
# module has a switch, so a leaked -min-jump-table-entries shows in the x86,
# AArch64 and NVPTX outputs.
BACKEND_REQUESTS = (
    ("x86_64-unknown-linux-gnu", "obj", ""),
    ("x86_64-unknown-linux-gnu", "asm", "-x86-asm-syntax=intel"),
    ("x86_64-unknown-linux-gnu", "obj", "-align-loops=32"),
    ("aarch64-unknown-linux-gnu", "obj", ""),
    ("aarch64-unknown-linux-gnu", "asm", "-mcpu=cortex-a72"),
    ("nvptx64-nvidia-cuda", "asm", "-mcpu=sm_80"),
    ("nvptx64-nvidia-cuda", "asm", "-mcpu=sm_70"),
    ("amdgcn-amd-amdhsa", "obj", "-mcpu=gfx90a"),
    ("riscv64-unknown-linux-gnu", "obj", ""),
    ("powerpc64le-unknown-linux-gnu", "obj", ""),
    ("hexagon-unknown-elf", "obj", ""),
    ("wasm32-unknown-unknown", "obj", ""),
)


def _backend_module(triple: str) -> str:
    """tests/data/sweep.ll (it has a switch), plus a kernel for the GPUs (tests/support/option_values.py)."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parent / "support"))  # --import-mode=importlib
    from option_values import module_for

    return module_for(triple, (Path(__file__).resolve().parent / "data" / "sweep.ll").read_text())


def test_every_backend_shared_by_threads_matches_one_thread():
    modules = [_backend_module(triple) for triple, _, _ in BACKEND_REQUESTS]
    with llvmplug.Plugin(private=True) as plugin:
        table: dict[tuple[int, int, int], dict[str, object]] = {}
        for state in STICKY_STATES:
            plugin.clear_options()
            if state:
                plugin.set_options(state)
            for r, (triple, output, flags) in enumerate(BACKEND_REQUESTS):
                table.setdefault((r, r, 1), {})[state] = plugin.compile(modules[r], triple, flags, output=output)
        plugin.clear_options()

        def compile_one(m: int, r: int, parts: int) -> object:
            triple, output, flags = BACKEND_REQUESTS[r]
            return plugin.compile(modules[m], triple, flags, output=output)

        def change_sticky(state: str) -> None:
            plugin.clear_options()
            if state:
                plugin.set_options(state)

        _stress(compile_one, change_sticky, plugin.reload, lambda: _inspect(plugin), table)
        plugin.clear_options()
        for (m, r, _), values in table.items():
            triple, output, flags = BACKEND_REQUESTS[r]
            assert plugin.compile(modules[m], triple, flags, output=output) == values[""]


# The backends compiles share the copy for (csrc/options/option_sharing.cpp, targetWritesOptions):
# measured to write no LLVM option while compiling. If a new LLVM makes one of
# them write, its writes would reach concurrent compiles of other backends.
SHARING_BACKENDS = (
    ("x86_64-unknown-linux-gnu", "obj", ""),
    ("aarch64-unknown-linux-gnu", "obj", "-mattr=+sve2"),
    ("amdgcn-amd-amdhsa", "obj", "-mcpu=gfx90a"),
    ("nvptx64-nvidia-cuda", "asm", "-mcpu=sm_80"),
    ("armv7a-unknown-linux-gnueabihf", "obj", ""),
    ("riscv64-unknown-linux-gnu", "obj", "-mattr=+v"),
    ("mips-unknown-linux-gnu", "obj", ""),
    ("s390x-unknown-linux-gnu", "obj", ""),
    ("spirv64-unknown-unknown", "obj", ""),
    ("loongarch64-unknown-linux-gnu", "obj", ""),
    ("sparcv9-unknown-linux-gnu", "obj", ""),
    ("msp430", "obj", ""),
)


def test_backends_that_share_the_copy_write_no_option():
    with llvmplug.Plugin(private=True) as plugin:
        before = {o["name"]: o["value"] for o in plugin.options()}
        for triple, output, flags in SHARING_BACKENDS:
            try:
                plugin.target_info(triple)
            except llvmplug.TargetError:
                continue  # built without it (LLVMPLUG_TARGETS)
            for level in ("-O0", "-O2"):
                plugin.compile(_backend_module(triple), triple, f"{level} {flags}", output=output)
            after = {o["name"]: o["value"] for o in plugin.options()}
            assert after == before, (triple, {k: (before.get(k), v) for k, v in after.items() if before.get(k) != v})
