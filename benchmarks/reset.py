"""Reset cost: every kind of reset against starting a fresh worker process.

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
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from typing import Any, Callable, TextIO, cast

import llvmplug
from llvmplug import _loader

from ._common import FLAGS, markdown_table, mib, ms, probe, ratio, summary, timed
from .corpus import load_corpus

FRESH = "fresh worker process (start Python, import llvmplug, load)"
STANDBY = "Plugin(private=True, standby=True).reload()"
TARGET = 50

# The peer: a fresh Python process that imports llvmplug, says it is ready,
# compiles the module from stdin and reports the object's size.
WORKER = f"""
import sys, llvmplug
plugin = llvmplug.Plugin()
print("ready", flush=True)
print(len(plugin.compile(sys.stdin.read(), flags="{FLAGS}")), flush=True)
"""


def _fresh_workers(text: str, count: int) -> tuple[list[float], list[float]]:
    """Start to ready, and start to first result; the worker's exit is not timed."""
    ready, first = [], []
    for index in range(count + 1):  # the first one warms the page cache
        start = time.perf_counter()
        # Outside the checkout, so that it imports the installed llvmplug.
        worker = subprocess.Popen([sys.executable, "-c", WORKER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, cwd=tempfile.gettempdir())
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


def run(quick: bool) -> dict[str, Any]:
    count = 5 if quick else 30
    module = min(load_corpus(), key=lambda module: (len(module.text.encode()), module.name))
    shared = llvmplug.default_plugin()  # what llvmplug.reset() reloads
    warm = timed(lambda: shared.compile(module.text, flags=FLAGS), count)
    # Made one at a time, so that no other Plugin's background work (a standby, a child) runs meanwhile.
    plugins: dict[str, Callable[[], llvmplug.Plugin]] = {
        "llvmplug.reset()": lambda: shared, "Plugin(private=True).reload()": lambda: llvmplug.Plugin(private=True),
        STANDBY: lambda: llvmplug.Plugin(private=True, standby=True),
        'Plugin(isolation="process").reload()': lambda: llvmplug.Plugin(isolation="process"),
        'Plugin(isolation="process", standby=True).reload()':
            lambda: llvmplug.Plugin(isolation="process", standby=True)}
    first, ready = {}, {}
    for name, make in plugins.items():
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
    rss = {kind: probe({"what": "standby", "module": module.text, "standby": kind == "standby"})
           for kind in ("plain", "standby")} if sys.platform.startswith("linux") else {}
    return {"module": module.name, "first_result": {k: summary(v) for k, v in first.items()},
            "ready": {k: summary(v) for k, v in ready.items()}, "warm_compile": summary(warm), "rss": rss}


def targets(result: dict[str, Any]) -> list[dict[str, Any]]:
    first = result["first_result"]
    fresh, standby, reset = first[FRESH]["median"], first[STANDBY]["median"], first["llvmplug.reset()"]["median"]
    factor = fresh / standby
    return [{
        "target": f"standby reset at least {TARGET}x faster than a fresh worker process, until the first result",
        "measured": f"{factor:.1f}x ({ms(standby)} vs {ms(fresh)}); previous design (llvmplug.reset(), "
                    f"no standby): {fresh / reset:.1f}x ({ms(reset)})",
        "met": factor >= TARGET,
        "note": "" if factor >= TARGET else (
            f"of the {ms(standby)}, the swap takes {ms(result['ready'][STANDBY]['median'])} (medians) and the first "
            f"compile the rest; a warm compile of the module takes {ms(result['warm_compile']['median'])}"),
    }]


def markdown(result: dict[str, Any]) -> str:
    first, ready, rss = result["first_result"], result["ready"], result["rss"]
    rows = [[name, ms(s["median"]), ms(s["p95"]), ratio(first[FRESH]["median"], s["median"]),
             ms(ready[name]["median"]) if name in ready else "n/a"] for name, s in first.items()]
    memory = (f"Standby memory (fresh interpreters, one private Plugin that compiled): {mib(rss['plain'])} "
              f"resident, {mib(rss['standby'])} with standby=True (+{mib(rss['standby'] - rss['plain'])}): "
              "hence opt-in." if rss else "Standby memory: not measured (Linux only).")
    return "\n".join([
        "## Reset cost", "",
        f"Until the first result: the reset, then one {FLAGS} compile of the smallest corpus module "
        f"({result['module']}; warm, {ms(result['warm_compile']['median'])}). 'Until ready' stops when the reload "
        "returns (or the worker reports in). A private reload maps the kept memfd again: no copy of the shim.", "",
        markdown_table(["reset", "until the first result (median)", "p95", "fresh worker / this", "until ready"],
                       rows), "", memory, ""])
