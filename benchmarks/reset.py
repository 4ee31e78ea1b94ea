"""Reset and start-up cost: every kind of reset against starting a fresh worker process.

A reset is over at the first result: every row is timed from the reset until
the reset LLVM has compiled the smallest corpus module at -O2 (small, because
that compile is the same work after every kind of reset and a big one would
only hide the reset's cost), and the verdict scores that figure. "Until
ready" (the reload returned, the worker reported in) is shown beside it
because it says where the time goes, not because it is the metric.

With ``standby=True`` a reset swaps in a warmed standby copy (or, with
process isolation, a started and warmed child) and retires the old one off
the caller's path; its rows are spaced so that the next standby is ready, as
in a service that resets between requests. Target (issue 13): that reset at
least 50x faster than a fresh worker process. The standby's memory cost is
measured in fresh interpreters.

Issue 27 (a copy starts from tables the build computed, and a process from
cffi's compiled declarations): a private reload until ready <= 8 ms and until
the first result <= 10 ms, a standby reset until the first result <= 2 ms, a
fresh process from ``python -c`` to its first object <= 45 ms, ``llvmplug
compile`` of an empty module <= 4x ``opt | llc`` (processes), and a spare
copy <= 40 MiB resident. The previous design is measured in the same run:
``LLVMPLUG_PREVIOUS_LOAD=1`` makes a copy compute its policy tables and run
the warm-up compile when it starts, a process parse the header, and every
private copy take a memfd of its own, as before.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Callable, TextIO, cast

import llvmplug
from llvmplug import _loader

from ._common import FLAGS, markdown_table, mib, ms, probe, ratio, summary, timed
from .corpus import EMPTY, load_corpus
from .peers import LLVMPlugCLI, OptLLC, Unavailable, is_object

FRESH = "fresh worker process (start Python, import llvmplug, load)"
STANDBY = "Plugin(private=True, standby=True).reload()"
PRIVATE = "Plugin(private=True).reload()"
PREVIOUS = ", previous design"  # the same, loading as before issue 27
PREVIOUS_ENV = {"LLVMPLUG_PREVIOUS_LOAD": "1"}
TARGET = 50
# Issue 27's targets.
READY_TARGET, FIRST_TARGET, STANDBY_TARGET = 0.008, 0.010, 0.002
START_TARGET, CLI_TARGET, SPARE_TARGET = 0.045, 4.0, 40 * 2**20

# The peer: a fresh Python process that imports llvmplug, says it is ready,
# compiles the module from stdin and reports the object's size.
WORKER = f"""
import sys, llvmplug
plugin = llvmplug.Plugin()
print("ready", flush=True)
print(len(plugin.compile(sys.stdin.read(), flags="{FLAGS}")), flush=True)
"""


@contextlib.contextmanager
def _previous_design() -> Iterator[None]:
    """Copies loaded meanwhile start as before issue 27 (each reads the variable when it first runs)."""
    os.environ.update(PREVIOUS_ENV)
    try:
        yield
    finally:
        for name in PREVIOUS_ENV:
            os.environ.pop(name, None)


def _fresh_workers(text: str, count: int, env: dict[str, str] | None = None) -> tuple[list[float], list[float]]:
    """Start to ready, and start to first result; the worker's exit is not timed."""
    ready, first = [], []
    for index in range(count + 1):  # the first one warms the page cache
        start = time.perf_counter()
        # Outside the checkout, so that it imports the installed llvmplug.
        worker = subprocess.Popen([sys.executable, "-c", WORKER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, cwd=tempfile.gettempdir(),
                                  env=None if env is None else {**os.environ, **env})
        stdin, stdout = cast(TextIO, worker.stdin), cast(TextIO, worker.stdout)
        stdin.write(text)
        stdin.close()
        said = stdout.readline()
        ready_at = time.perf_counter()
        size = stdout.readline()
        first_at = time.perf_counter()
        if worker.wait() or said != "ready\n" or not size.strip().isdigit():
            raise RuntimeError(f"the fresh worker failed: {said!r} {size!r}")
        if index:
            ready.append(ready_at - start)
            first.append(first_at - start)
    return ready, first


def _standby_ready(plugin: llvmplug.Plugin) -> Callable[[], None]:
    """Wait (untimed) until the background work of the last reset is over."""
    def wait() -> None:
        backend = plugin._backend  # noqa: SLF001 - the benchmark waits for the background work
        done = getattr(backend, "_standby_done", None) or getattr(backend, "_spare_done", None)
        if done is not None:
            done.wait()
        while _loader.retiring():
            time.sleep(0.001)
    return wait


def _start_up(count: int) -> dict[str, Any]:
    """A process per compile of the empty module: ``llvmplug compile`` (both designs) and ``opt | llc``."""
    interpreter = timed(lambda: subprocess.run([sys.executable, "-c", "pass"], check=True), count)
    result: dict[str, Any] = {"python": summary(interpreter), "skipped": {}}
    with tempfile.TemporaryDirectory(prefix="llvmplug-bench-") as scratch:
        backends: dict[str, Any] = {"llvmplug compile": LLVMPlugCLI(Path(scratch)),
                                    "llvmplug compile" + PREVIOUS: LLVMPlugCLI(Path(scratch), PREVIOUS_ENV)}
        info = llvmplug.default_plugin().info()
        try:
            backends["opt | llc"] = OptLLC(Path(scratch), info["llvm_version"].split(".")[0], info["host_triple"])
        except Unavailable as reason:
            result["skipped"]["opt | llc"] = str(reason)
        samples: dict[str, list[float]] = {name: [] for name in backends}
        for turn in range(count + 1):  # in turns, so that a change in load hits all alike; the first warms up
            for name, backend in backends.items():
                start = time.perf_counter()
                if not is_object(backend.compile(EMPTY)):
                    raise RuntimeError(f"{name} returned no object file")
                if turn:
                    samples[name].append(time.perf_counter() - start)
    result["empty_module"] = {name: summary(values) for name, values in samples.items()}
    return result


def run(quick: bool) -> dict[str, Any]:
    count = 5 if quick else 30
    module = min(load_corpus(), key=lambda module: (len(module.text.encode()), module.name))
    shared = llvmplug.default_plugin()  # what llvmplug.reset() reloads
    warm = timed(lambda: shared.compile(module.text, flags=FLAGS), count)
    # Made one at a time, so that no other Plugin's background work (a standby, a child) runs meanwhile.
    plugins: dict[str, Callable[[], llvmplug.Plugin]] = {
        "llvmplug.reset()": lambda: shared, PRIVATE: lambda: llvmplug.Plugin(private=True),
        PRIVATE + PREVIOUS: lambda: llvmplug.Plugin(private=True),
        STANDBY: lambda: llvmplug.Plugin(private=True, standby=True),
        'Plugin(isolation="process").reload()': lambda: llvmplug.Plugin(isolation="process"),
        'Plugin(isolation="process", standby=True).reload()':
            lambda: llvmplug.Plugin(isolation="process", standby=True)}
    first, ready = {}, {}
    for name, make in plugins.items():
        with _previous_design() if name.endswith(PREVIOUS) else contextlib.nullcontext():
            plugin = make()
            try:
                between = _standby_ready(plugin) if "standby" in name else None
                first[name] = timed(lambda p=plugin: (p.reload(), p.compile(module.text, flags=FLAGS)), count,
                                    between=between)
                # Process isolation: reload() stops the child, the next call starts one; "ready" means nothing there.
                if "isolation" not in name:
                    ready[name] = timed(plugin.reload, count, between=between)
            finally:
                if plugin is not shared:  # the shared copy stays loaded for the sections after this one
                    plugin.unload()
    ready[FRESH], first[FRESH] = _fresh_workers(module.text, count)
    ready[FRESH + PREVIOUS], first[FRESH + PREVIOUS] = _fresh_workers(module.text, count, PREVIOUS_ENV)
    # Fresh interpreters: one private Plugin that compiled, with and without its standby, in both designs.
    memory: dict[str, Any] = {}
    if sys.platform.startswith("linux"):
        for design, env in (("now", None), ("previous", PREVIOUS_ENV)):
            memory[design] = {kind: probe({"what": "copies", "module": module.text, "standby": kind == "standby"},
                                          env) for kind in ("plain", "standby")}
    return {"module": module.name, "first_result": {k: summary(v) for k, v in first.items()},
            "ready": {k: summary(v) for k, v in ready.items()}, "warm_compile": summary(warm),
            "rss": {kind: m["rss"] for kind, m in memory.get("now", {}).items()}, "memory": memory,
            "start_up": _start_up(count)}


def _spare(memory: dict[str, Any], what: str) -> float:
    """What the standby's spare copy adds: RSS, or the shared memory of memfds."""
    return memory["standby"][what] - memory["plain"][what]


def _has_pss(memory: dict[str, Any]) -> bool:
    """Whether both probes measured the proportional set size (Linux)."""
    return memory["plain"].get("pss") is not None and memory["standby"].get("pss") is not None


def _proportional(memory: dict[str, Any]) -> str:
    """What the spare copy adds to the proportional set size, where measured."""
    if not _has_pss(memory):
        return ""
    return f" (proportionally {mib(_spare(memory, 'pss'))}: the code pages both copies map count once)"


def targets(result: dict[str, Any]) -> list[dict[str, Any]]:
    first, ready = result["first_result"], result["ready"]
    fresh, standby, reset = first[FRESH]["median"], first[STANDBY]["median"], first["llvmplug.reset()"]["median"]
    factor = fresh / standby
    private, before = PRIVATE, PRIVATE + PREVIOUS
    rows = [{
        "target": f"standby reset at least {TARGET}x faster than a fresh worker process, until the first result",
        "measured": f"{factor:.1f}x ({ms(standby)} vs {ms(fresh)}); previous design (llvmplug.reset(), "
                    f"no standby): {fresh / reset:.1f}x ({ms(reset)})",
        "met": factor >= TARGET,
        "note": "" if factor >= TARGET else (
            f"of the {ms(standby)}, the swap takes {ms(ready[STANDBY]['median'])} (medians) and the first "
            f"compile the rest; a warm compile of the module takes {ms(result['warm_compile']['median'])}"),
    }, {
        "target": f"standby reset until the first result <= {ms(STANDBY_TARGET)}",
        "measured": f"{ms(standby)}; a warm compile of the module: {ms(result['warm_compile']['median'])}",
        "met": standby <= STANDBY_TARGET,
        "note": "" if standby <= STANDBY_TARGET else
        "the swapped-in copy's first compile runs on data of its own (heap, tables) the caches no longer hold; its "
        "code is the active copy's pages",
    }]
    for what, key, goal in (("until ready", "ready", READY_TARGET), ("until the first result", "first_result",
                                                                      FIRST_TARGET)):
        now, then = result[key][private]["median"], result[key][before]["median"]
        rows.append({"target": f"{private} {what} <= {ms(goal)}",
                     "measured": f"{ms(now)}; previous design (policy tables and warm-up compile at load): {ms(then)}",
                     "met": now <= goal, "note": ""})
    start, then = first[FRESH]["median"], first[FRESH + PREVIOUS]["median"]
    python = result["start_up"]["python"]["median"]
    rows.append({"target": f"a fresh process from python -c to its first object <= {ms(START_TARGET)}",
                 "measured": f"{ms(start)}; previous design (the shim and cffi's declarations): {ms(then)}",
                 "met": start <= START_TARGET, "note": f"of which the interpreter alone: {ms(python)}"})
    empty = result["start_up"]["empty_module"]
    if "opt | llc" in empty:
        cli, cli_then, peer = (empty[name]["median"] for name in ("llvmplug compile", "llvmplug compile" + PREVIOUS,
                                                                   "opt | llc"))
        rows.append({"target": f"llvmplug compile of an empty module <= {CLI_TARGET:.0f}x opt | llc (processes)",
                     "measured": f"{cli / peer:.2f}x ({ms(cli)} vs {ms(peer)}); previous design: "
                                 f"{cli_then / peer:.2f}x ({ms(cli_then)})",
                     "met": cli / peer <= CLI_TARGET, "note": f"of which the interpreter alone: {ms(python)}"})
    memory = result["memory"]
    if memory:
        spare, spare_then = _spare(memory["now"], "rss"), _spare(memory["previous"], "rss")
        rows.append({"target": f"a spare copy (standby) <= {mib(SPARE_TARGET)} resident",
                     "measured": f"{mib(spare)}; previous design: {mib(spare_then)}",
                     "met": spare <= SPARE_TARGET,
                     "note": f"resident: the pages of the shim the copy touched (loading, its backends' registration, "
                             f"the warm-up compile of a standby), its code mapped from the template, the rest from its "
                             f"memfd{_proportional(memory['now'])}; the memfd itself holds the whole shim, "
                             f"{mib(_spare(memory['now'], 'memfd'))} of shared memory RSS does not show"})
    return rows


def markdown(result: dict[str, Any]) -> str:
    first, ready, memory = result["first_result"], result["ready"], result["memory"]
    rows = [[name, ms(s["median"]), ms(s["p95"]), ratio(first[FRESH]["median"], s["median"]),
             ms(ready[name]["median"]) if name in ready else "n/a"] for name, s in first.items()]
    if memory:
        memory_rows = [[f"one private Plugin{', previous design' if design == 'previous' else ''}",
                        mib(m["plain"]["rss"]), mib(_spare(m, "rss")),
                        *((mib(m["plain"]["pss"]), mib(_spare(m, "pss"))) if _has_pss(m) else ("n/a", "n/a")),
                        mib(m["plain"]["memfd"]), mib(_spare(m, "memfd"))]
                       for design, m in memory.items()]
        memory_part = ["Memory (fresh interpreters, one private Plugin that compiled; a copy's memfd holds the whole "
                       "shim, of which RSS counts only the pages mapped; proportional: Pss, where a page two copies "
                       "map, as a copy maps the template's code, counts once):", "",
                       markdown_table(["", "resident", "+ standby (the spare copy)", "proportional", "+ standby",
                                       "memfds", "+ standby"], memory_rows), "", "The spare copy: hence opt-in."]
    else:
        memory_part = ["Standby memory: not measured (Linux only)."]
    start = result["start_up"]
    start_rows = [[name, ms(s["median"]), ms(s["p95"])] for name, s in start["empty_module"].items()]
    return "\n".join([
        "## Reset cost", "",
        f"Until the first result: the reset, then one {FLAGS} compile of the smallest corpus module "
        f"({result['module']}; warm, {ms(result['warm_compile']['median'])}). 'Until ready' stops when the reload "
        "returns (or the worker reports in). A private reload maps the kept memfd again: no copy of the shim. "
        "Previous design: each copy computes its policy tables and runs a warm-up compile when it starts, each "
        "process parses the header for cffi, as before issue 27 (LLVMPLUG_PREVIOUS_LOAD=1; the package's imports "
        "are today's).", "",
        markdown_table(["reset", "until the first result (median)", "p95", "fresh worker / this", "until ready"],
                       rows), "", *memory_part, "",
        f"Start-up: a process per compile of an empty module (-O2, to an object; in turns). The interpreter alone "
        f"(python -c pass): {ms(start['python']['median'])}.", "",
        markdown_table(["process", "median", "p95"], start_rows), "",
        *(f"Skipped: {key}: {reason}." for key, reason in start["skipped"].items()), ""])
