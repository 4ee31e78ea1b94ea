"""The compile cache (issue 13, item 3): hit latency against a real compile.

For the median corpus module (by size) compiled to an object at -O2 with
``llvmplug.compile``: a compile with no cache, a hit in memory
(``Cache()``), a hit on disk (a fresh ``Cache(directory)`` per sample, so
the entry is read, verified and decoded from its file), and the pieces of a
hit (computing the fingerprint; ``Cache.get``). Target: a memory hit of at
most 50 µs.

Standalone: depends on llvmplug and the standard library only.

    python -m benchmarks.cache [--quick]
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import llvmplug

TARGET_MEMORY_HIT_SECONDS = 50e-6
FLAGS = "-O2"


def _corpus_files() -> list[Path]:
    """$LLVMPLUG_CORPUS, else the corpus vendored in tests/data/corpus, else ../shared/corpus/codegen."""
    root = Path(__file__).resolve().parents[1]
    candidates = [root / "tests" / "data" / "corpus", root.parent / "shared" / "corpus" / "codegen"]
    if "LLVMPLUG_CORPUS" in os.environ:
        candidates = [Path(os.environ["LLVMPLUG_CORPUS"])]
    for directory in candidates:
        files = sorted(directory.glob("*.ll"))
        if files:
            return files
    raise FileNotFoundError(f"no IR corpus in {', '.join(map(str, candidates))} (set LLVMPLUG_CORPUS)")


def median_module() -> tuple[str, str]:
    """(name, text) of the corpus module of median size."""
    files = sorted(_corpus_files(), key=lambda path: (path.stat().st_size, path.name))
    chosen = files[len(files) // 2]
    return chosen.name, chosen.read_text()


def _samples(function: Callable[[], Any], count: int, batch: int = 1,
             setup: Callable[[], None] | None = None) -> list[float]:
    """Seconds per call: ``count`` samples, each the mean of ``batch`` calls (after one warm-up)."""
    function()
    result = []
    for _ in range(count):
        if setup is not None:
            setup()
        start = time.perf_counter()
        for _ in range(batch):
            function()
        result.append((time.perf_counter() - start) / batch)
    return result


def _summary(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {"n": len(samples), "median": statistics.median(ordered),
            "p95": ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))], "min": ordered[0]}


def run(quick: bool) -> dict[str, Any]:
    """Measure; return the module, each row's samples summarised, and the ratios."""
    name, module = median_module()
    count = 30 if quick else 200
    plugin = llvmplug.default_plugin()
    fresh = llvmplug.compile(module, flags=FLAGS, cache=None)

    rows: dict[str, dict[str, float]] = {}
    rows["compile, no cache"] = _summary(_samples(lambda: llvmplug.compile(module, flags=FLAGS, cache=None),
                                                  count))

    memory = llvmplug.Cache()
    assert llvmplug.compile(module, flags=FLAGS, cache=memory) == fresh
    rows["hit in memory"] = _summary(_samples(lambda: llvmplug.compile(module, flags=FLAGS, cache=memory),
                                              count, batch=50))
    key = llvmplug.fingerprint(module, flags=FLAGS, plugin=plugin)
    rows["fingerprint (part of a hit)"] = _summary(_samples(
        lambda: llvmplug.fingerprint(module, flags=FLAGS, plugin=plugin), count, batch=50))
    rows["Cache.get in memory (part of a hit)"] = _summary(_samples(lambda: memory.get(key), count, batch=50))

    with tempfile.TemporaryDirectory(prefix="llvmplug-cache-bench-") as directory:
        llvmplug.compile(module, flags=FLAGS, cache=llvmplug.Cache(directory))
        holder: list[llvmplug.Cache] = []

        def fresh_cache() -> None:
            # An empty memory tier each sample: the hit comes from the file.
            holder[:] = [llvmplug.Cache(directory)]

        def disk_hit() -> bytes:
            return llvmplug.compile(module, flags=FLAGS, cache=holder[0])

        fresh_cache()
        assert disk_hit() == fresh
        rows["hit on disk"] = _summary(_samples(disk_hit, count, setup=fresh_cache))
        assert holder[0].stats.disk_hits == 1

    compile_median = rows["compile, no cache"]["median"]
    memory_median = rows["hit in memory"]["median"]
    return {
        "module": name,
        "module_bytes": len(module.encode()),
        "object_bytes": len(fresh),
        "flags": FLAGS,
        "rows": rows,
        "speedup_memory": compile_median / memory_median,
        "speedup_disk": compile_median / rows["hit on disk"]["median"],
        "target_memory_hit_us": TARGET_MEMORY_HIT_SECONDS * 1e6,
        "memory_hit_met": memory_median <= TARGET_MEMORY_HIT_SECONDS,
    }


def markdown(result: dict[str, Any]) -> str:
    """The result of :func:`run` as a markdown section with one table."""
    compile_median = result["rows"]["compile, no cache"]["median"]
    lines = [
        "## Compile cache",
        "",
        f"Median corpus module by size: `{result['module']}` ({result['module_bytes']} bytes of IR, "
        f"{result['object_bytes']} bytes of object), `llvmplug.compile(..., flags=\"{result['flags']}\")`.",
        "",
        "| path | median µs | p95 µs | compile ÷ this |",
        "|---|---:|---:|---:|",
    ]
    for label, row in result["rows"].items():
        lines.append(f"| {label} | {row['median'] * 1e6:.1f} | {row['p95'] * 1e6:.1f} | "
                     f"{compile_median / row['median']:.0f}x |")
    verdict = "met" if result["memory_hit_met"] else "missed"
    lines += ["", f"Target: a memory hit ≤ {result['target_memory_hit_us']:.0f} µs: **{verdict}** "
              f"({result['rows']['hit in memory']['median'] * 1e6:.1f} µs, {result['speedup_memory']:.0f}x "
              f"faster than compiling; a disk hit {result['speedup_disk']:.0f}x)."]
    return "\n".join(lines)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(prog="python -m benchmarks.cache", description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer samples")
    print(markdown(run(parser.parse_args().quick)))
