"""The compile cache (issue 13): hit latency against a real compile.

The median corpus module (by size) to an object at -O2 with
``llvmplug.compile``: no cache (the peer), a hit in memory (``Cache()``), a
hit on disk (a fresh ``Cache(directory)`` per sample, so the entry is read,
verified and decoded from its file), and the pieces of a hit. Target: a
memory hit of at most 50 µs.
"""

from __future__ import annotations

import tempfile
from typing import Any

import llvmplug

from ._common import FLAGS, markdown_table, ms, summary, timed
from .corpus import median_module

TARGET = 50e-6


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
            "rows": {name: summary(samples) for name, samples in rows.items()}}


def targets(result: dict[str, Any]) -> list[dict[str, Any]]:
    hit, compile_ = result["rows"]["hit in memory"]["median"], result["rows"]["compile, no cache"]["median"]
    return [{"target": "cache hit in memory <= 50 µs (median corpus module)", "met": hit <= TARGET,
             "measured": f"{ms(hit)}; {compile_ / hit:.0f}x faster than compiling ({ms(compile_)})", "note": ""}]


def markdown(result: dict[str, Any]) -> str:
    compile_ = result["rows"]["compile, no cache"]["median"]
    return "\n".join([
        "## Compile cache", "",
        f"The median corpus module by size, {result['module']} ({result['module_bytes']} bytes of IR, "
        f"{result['object_bytes']} bytes of object), `llvmplug.compile(..., flags=\"{FLAGS}\")`.", "",
        markdown_table(["path", "median", "p95", "compile ÷ this"],
                       [[name, ms(row["median"]), ms(row["p95"]), f"{compile_ / row['median']:.0f}x"]
                        for name, row in result["rows"].items()]), ""])
