"""The compile cache (issue 13): hit latency against a real compile.

The median corpus module (by size) to an object at -O2 with
``llvmplug.compile``: no cache (the peer), a hit in memory (``Cache()``), a
hit on disk (a fresh ``Cache(directory)`` per sample, so the entry is read,
verified and decoded from its file), and the pieces of a hit. Target: a
memory hit of at most 50 µs.

A fresh process (a build system or a command line runs one compile per
process): ``python -c`` that imports llvmplug and gets a disk hit, end to end
(target: at most 100 ms), beside the same with ``-mcpu=native`` (whose key
needs the host's CPU, so LLVM is loaded: what every hit cost before the
build id) and an interpreter that does nothing.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from typing import Any

import llvmplug

from ._common import FLAGS, markdown_table, ms, summary, timed
from .corpus import median_module

TARGET = 50e-6
COLD_TARGET = 0.100

COLD_SCRIPT = """
import sys, llvmplug
cache = llvmplug.Cache(sys.argv[2])
llvmplug.compile(open(sys.argv[1]).read(), flags=sys.argv[3], cache=cache)
assert cache.stats.disk_hits == 1, cache.stats
"""


def _cold(module: str, quick: bool) -> dict[str, float]:
    """Best wall time of a fresh interpreter per row (the first run of a key fills the cache)."""
    rows: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="llvmplug-cold-") as directory:
        source = f"{directory}/module.ll"
        with open(source, "w") as stream:
            stream.write(module)
        commands = {"python -c pass": [sys.executable, "-c", "pass"]}
        for name, flags in (("import + disk hit", FLAGS), ("import + disk hit, -mcpu=native", f"{FLAGS} -mcpu=native")):
            command = [sys.executable, "-c", COLD_SCRIPT, source, f"{directory}/cache", flags]
            # The first run misses (its assertion fails) and fills the entry.
            subprocess.run(command, check=False, capture_output=True, cwd=directory)
            commands[name] = command
        for name, command in commands.items():
            samples = []
            for _ in range(3 if quick else 10):
                start = time.perf_counter()
                subprocess.run(command, check=True, capture_output=True, cwd=directory)
                samples.append(time.perf_counter() - start)
            rows[name] = min(samples)
    return rows


def run(quick: bool) -> dict[str, Any]:
    module = median_module()
    count = 30 if quick else 200
    plugin = llvmplug.default_plugin()
    fresh = llvmplug.compile(module.text, flags=FLAGS, cache=None)
    rows = {"compile, no cache": timed(lambda: llvmplug.compile(module.text, flags=FLAGS, cache=None), count)}
    memory = llvmplug.Cache()
    if llvmplug.compile(module.text, flags=FLAGS, cache=memory) != fresh:
        raise RuntimeError("a memory hit differs from the compile")
    rows["hit in memory"] = timed(lambda: llvmplug.compile(module.text, flags=FLAGS, cache=memory), count, 50)
    rows["fingerprint (part of a hit)"] = timed(
        lambda: llvmplug.fingerprint(module.text, flags=FLAGS, plugin=plugin), count, 50)
    key = llvmplug.fingerprint(module.text, flags=FLAGS, plugin=plugin)
    rows["Cache.get in memory (part of a hit)"] = timed(lambda: memory.get(key), count, 50)
    with tempfile.TemporaryDirectory(prefix="llvmplug-cache-bench-") as directory:
        llvmplug.compile(module.text, flags=FLAGS, cache=llvmplug.Cache(directory))
        caches = [llvmplug.Cache(directory)]

        def empty_memory_tier() -> None:
            caches[0] = llvmplug.Cache(directory)

        rows["hit on disk"] = timed(lambda: llvmplug.compile(module.text, flags=FLAGS, cache=caches[0]), count,
                                    between=empty_memory_tier)
        if caches[0].stats.disk_hits != 1:
            raise RuntimeError("the disk row did not hit on disk")
    return {"module": module.name, "module_bytes": len(module.text.encode()), "object_bytes": len(fresh),
            "rows": {name: summary(samples) for name, samples in rows.items()}, "cold": _cold(module.text, quick)}


def targets(result: dict[str, Any]) -> list[dict[str, Any]]:
    hit, compile_ = result["rows"]["hit in memory"]["median"], result["rows"]["compile, no cache"]["median"]
    cold = result["cold"]
    return [{"target": "cache hit in memory <= 50 µs (median corpus module)", "met": hit <= TARGET,
             "measured": f"{ms(hit)}; {compile_ / hit:.0f}x faster than compiling ({ms(compile_)})", "note": ""},
            {"target": "a fresh process: import llvmplug and a disk hit <= 100 ms end to end",
             "met": cold["import + disk hit"] <= COLD_TARGET,
             "measured": f"{ms(cold['import + disk hit'])}; with a key that needs LLVM loaded (-mcpu=native, as "
                         f"every key did before the build id): {ms(cold['import + disk hit, -mcpu=native'])}",
             "note": f"of which the interpreter alone: {ms(cold['python -c pass'])}"}]


def markdown(result: dict[str, Any]) -> str:
    compile_ = result["rows"]["compile, no cache"]["median"]
    return "\n".join([
        "## Compile cache", "",
        f"The median corpus module by size, {result['module']} ({result['module_bytes']} bytes of IR, "
        f"{result['object_bytes']} bytes of object), `llvmplug.compile(..., flags=\"{FLAGS}\")`.", "",
        markdown_table(["path", "median", "p95", "compile ÷ this"],
                       [[name, ms(row["median"]), ms(row["p95"]), f"{compile_ / row['median']:.0f}x"]
                        for name, row in result["rows"].items()]), "",
        "A fresh process each (best of several; the interpreter's start counted in): " + ", ".join(
            f"{name} {ms(seconds)}" for name, seconds in result["cold"].items()) + ".", ""])
