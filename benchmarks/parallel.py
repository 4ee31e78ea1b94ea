"""Parallel optimisation, ThinLTO's way (issue 20): compile_parts and compile_modules against compile.

- one multi-megabyte module made of the corpus's real functions (the corpus
  concatenated, names made unique): ``compile`` (one thread), against
  ``compile_parts(parts=2)``, which splits first and optimises and generates
  the parts on two threads with cross-part importing, and against the previous
  design (the whole module optimised on one thread, then split:
  ``-passes=default<O2>`` keeps that path);
- the corpus as separate translation units: ``compile_modules`` on 1 and 2
  threads, against ``compile`` of each.

Wall time, best of the samples (interleaved); CPUs busy is process CPU time
over wall time.
"""

from __future__ import annotations

import time
from typing import Any

import llvmplug

from ._common import markdown_table, ms, once
from .corpus import load_corpus, merge_modules

TARGET = 1.6
PREVIOUS = "-passes=default<O2>"  # optimise the whole module, then split (the previous design)


def _best(action: Any, samples: int) -> tuple[float, float]:
    """(best wall seconds, CPUs busy in that sample)."""
    best, busy = float("inf"), 0.0
    for _ in range(samples):
        cpu = time.process_time()
        wall = once(action)
        if wall < best:
            best, busy = wall, (time.process_time() - cpu) / wall
    return best, busy


def run(quick: bool) -> dict[str, Any]:
    corpus = [module.text for module in load_corpus()]
    copies = 4 if quick else 100
    big = merge_modules([corpus[i % len(corpus)] for i in range(copies * len(corpus))])
    units = [merge_modules([""] * index + [text]) for index, text in enumerate(corpus)]  # unique names
    samples = 2 if quick else 5
    plugin = llvmplug.Plugin(private=True)
    try:
        rows: dict[str, tuple[float, float]] = {}
        for name, action in [
            ("compile (one thread)", lambda: plugin.compile(big, cache=None)),
            ("compile_parts(parts=2), ThinLTO", lambda: plugin.compile_parts(big, parts=2, cache=None)),
            ("compile_parts(parts=2), previous design", lambda: plugin.compile_parts(big, flags=PREVIOUS,
                                                                                       parts=2, cache=None)),
            ("compile of each corpus module", lambda: [plugin.compile(u, cache=None) for u in units]),
            ("compile_modules(corpus), 1 thread", lambda: plugin.compile_modules(units, threads=1)),
            ("compile_modules(corpus), 2 threads", lambda: plugin.compile_modules(units, threads=2)),
        ]:
            rows[name] = _best(action, samples)
        same = plugin.compile_modules(units, threads=1) == plugin.compile_modules(units, threads=2)
    finally:
        plugin.unload()
    return {"module_bytes": len(big.encode()), "functions": big.count("\ndefine "), "units": len(units),
            "outputs_independent_of_threads": same,
            "rows": {name: {"seconds": wall, "cpus_busy": busy} for name, (wall, busy) in rows.items()}}


def targets(result: dict[str, Any]) -> list[dict[str, Any]]:
    rows = result["rows"]
    whole = rows["compile (one thread)"]["seconds"]
    thin = rows["compile_parts(parts=2), ThinLTO"]
    previous = rows["compile_parts(parts=2), previous design"]["seconds"]
    return [{"target": f"compile_parts(parts=2) >= {TARGET}x compile on a multi-megabyte module "
                       f"({result['module_bytes'] / 1e6:.1f} MB of IR)",
             "measured": f"{whole / thin['seconds']:.2f}x ({thin['cpus_busy']:.2f} CPUs busy); previous design "
                         f"{whole / previous:.2f}x",
             "met": whole / thin["seconds"] >= TARGET,
             "note": "" if whole / thin["seconds"] >= TARGET else
             "ThinLTO optimises what each part imports from the other in both parts, and runs a pre-link and "
             "a post-link pipeline: more CPU in all than one whole-module compile (see the CPUs busy column)"}]


def markdown(result: dict[str, Any]) -> str:
    rows = result["rows"]
    whole = rows["compile (one thread)"]["seconds"]
    table = markdown_table(["path", "best", "CPUs busy", "compile ÷ this"],
                           [[name, ms(row["seconds"]), f"{row['cpus_busy']:.2f}", f"{whole / row['seconds']:.2f}x"]
                            for name, row in rows.items()])
    return "\n".join([
        "## Parallel optimisation (ThinLTO's way)", "",
        f"One module of {result['module_bytes'] / 1e6:.1f} MB of IR ({result['functions']} functions: the "
        f"corpus repeated with unique names) and the corpus as {result['units']} separate translation units; "
        f"-O2, objects. `compile_modules` outputs identical on 1 and 2 threads: "
        f"{'yes' if result['outputs_independent_of_threads'] else '**no**'}.", "", table, ""])
