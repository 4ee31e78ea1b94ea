"""Reset cost: reloading llvmplug against starting a fresh worker process.

A reset is over at the first result: every row is timed from the reset until
the reset LLVM has compiled a small corpus module, and the verdict scores that
figure. "Until ready" (the library loaded, the worker reporting in) is shown
beside it because it says where the time goes, not because it is the metric.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, TextIO, cast

import llvmplug
from llvmplug import _loader

from ._common import FLAGS, markdown_table, mib, ms, once, ratio, summary, timed
from .corpus import load_corpus

FRESH = "fresh worker process (start Python, import llvmplug, load)"
TARGET = 30  # the reload's advantage the project aims for


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


def _copy_seconds(count: int) -> list[float]:
    """Copying the shim file: what a private instance does before it loads."""
    source = _loader.library_path()
    samples = []
    for _ in range(count):
        with tempfile.TemporaryDirectory(prefix="llvmplug-bench-") as directory:
            samples.append(once(lambda: shutil.copyfile(source, Path(directory) / source.name)))
    return samples


def run(quick: bool) -> dict[str, Any]:
    count = 5 if quick else 30
    module = load_corpus(1)[0]

    def reload_then(plugin: Any, compile_too: bool) -> Callable[[], None]:
        def action() -> None:
            plugin.reload()
            if compile_too:
                plugin.compile(module.text, flags=FLAGS)
        return action

    shared = llvmplug.default_plugin()  # what llvmplug.reset() reloads
    isolated = llvmplug.Plugin(isolation="process")
    plugins = {"llvmplug.reset()": shared, "Plugin(private=True).reload()": llvmplug.Plugin(private=True),
               'Plugin(isolation="process").reload()': isolated}
    first, ready = {}, {}
    warm = timed(lambda: shared.compile(module.text, flags=FLAGS), count)
    try:
        for name, plugin in plugins.items():
            first[name] = timed(reload_then(plugin, True), count)
            # Process isolation: reload() stops the child, the next call starts one; "ready" means nothing there.
            if plugin is not isolated:
                ready[name] = timed(reload_then(plugin, False), count)
    finally:
        for plugin in plugins.values():
            if plugin is not shared:  # the shared copy stays loaded for the sections after this one
                plugin.unload()
    ready[FRESH], first[FRESH] = _fresh_workers(module.text, count)
    return {"module": module.name, "first_result": {k: summary(v) for k, v in first.items()},
            "ready": {k: summary(v) for k, v in ready.items()},
            "warm_compile": summary(warm), "copy_shim": summary(_copy_seconds(count)),
            "shim_bytes": _loader.library_path().stat().st_size}


def targets(result: dict[str, Any]) -> list[dict[str, Any]]:
    first, ready = result["first_result"], result["ready"]
    fresh = first[FRESH]["median"]
    reload_ = first["llvmplug.reset()"]["median"]
    factor = fresh / reload_
    return [{
        "target": f"reset (reload) at least {TARGET}x faster than a fresh worker process, until the first result",
        "measured": f"{factor:.1f}x ({ms(reload_)} vs {ms(fresh)}); until ready only: "
                    f"{ready[FRESH]['median'] / ready['llvmplug.reset()']['median']:.1f}x",
        "met": factor >= TARGET,
        "note": "" if factor >= TARGET else (
            f"of the {ms(reload_)}, the reload takes {ms(ready['llvmplug.reset()']['median'])} (medians) and the "
            f"first compile in the reloaded copy the rest; a warm compile of the module takes "
            f"{ms(result['warm_compile']['median'])}"),
    }]


def markdown(result: dict[str, Any]) -> str:
    first, ready = result["first_result"], result["ready"]
    rows = [[name, ms(s["median"]), ms(s["p95"]), ratio(first[FRESH]["median"], s["median"]),
             ms(ready[name]["median"]) if name in ready else "n/a"] for name, s in first.items()]
    return "\n".join([
        "## Reset cost", "",
        f"Until the first result: the reset, then one -O2 compile of a small corpus module ({result['module']}). "
        "'Until ready' stops when the library is loaded (or the worker reports in).", "",
        markdown_table(["reset", "until the first result (median)", "p95", "fresh worker / this", "until ready"],
                       rows), "",
        f"A private reload copies the shim ({mib(result['shim_bytes'])}; the copy alone takes "
        f"{ms(result['copy_shim']['median'])}) to a new path before loading it: that is what makes it an "
        "independent LLVM, and why it costs more than reloading the shared copy.", "",
    ])
