"""Throughput rows of issue 13: threads sharing one copy, split codegen, and
the per-call floor.

Standalone: ``python -m benchmarks.throughput [--quick]`` prints the table;
``run(quick)`` returns the numbers and ``table(results)`` renders them, for
the report to wire in. Every row is measured side by side in one run against
its peer or the previous design:

- scaling: ``llvmplug.compile`` from 2 threads vs 1 thread (target >= 1.8x),
  next to 2 threads whose calls set a per-call option and so run one at a
  time (what every call did before the readers-writer lock);
- split: the corpus merged into one module, ``parts=2`` vs whole (>= 1.6x);
- floor: an empty module to an object at -O2, with the reused TargetMachine
  and codegen pipeline vs a fresh one per call (a private copy loaded with
  LLVMPLUG_NO_MACHINE_CACHE=1, i.e. the previous design) (target <= 0.5 ms).

The two parallel rows need idle CPUs: Linux shares CPU time between sessions
(autogroups), not threads, so while anything else runs, two threads of this
process get about one CPU between them. "CPUs busy" (CPU time over wall time
during the 2-thread run) says how many the run really had.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import llvmplug

CORPUS = Path(
    os.environ.get("LLVMPLUG_CORPUS", Path(__file__).resolve().parents[2] / "shared" / "corpus" / "codegen")
)
EMPTY = "; an empty module\n"

_GLOBAL = re.compile(r'@(?!llvm\.)([-a-zA-Z$._][-a-zA-Z$._0-9]*|"[^"]*"|\d+)')
_ATTRIBUTES = re.compile(r"#(\d+)\b")
_METADATA = re.compile(r"!(\d+)\b")
_TYPE_DEFINITION = re.compile(r"^(%[-a-zA-Z$._][-a-zA-Z$._0-9]*) = type ", re.M)


def corpus_modules() -> list[str]:
    """The IR text of every corpus module, in a fixed order."""
    files = sorted(CORPUS.glob("*.ll"))
    if not files:
        raise FileNotFoundError(f"IR corpus not found at {CORPUS} (set LLVMPLUG_CORPUS)")
    return [path.read_text() for path in files]


def merge_modules(modules: Sequence[str]) -> str:
    """One module defining everything the given modules define.

    Text processing for target-neutral modules such as the corpus: each
    module's globals (other than intrinsics), named types, attribute groups
    and numbered metadata get a suffix or offset of their own, and intrinsic
    declarations are kept once.
    """
    out: list[str] = []
    declared: set[str] = set()
    for index, text in enumerate(modules):
        lines = [line for line in text.splitlines() if line and not line.lstrip().startswith(";")]
        text = "\n".join(
            line
            for line in lines
            if not line.startswith(("source_filename", "target datalayout", "target triple"))
        )
        for name in sorted(set(_TYPE_DEFINITION.findall(text)), key=len, reverse=True):
            text = re.sub(re.escape(name) + r"(?![-a-zA-Z$._0-9])", f"{name}.m{index}", text)

        def rename(match: re.Match[str]) -> str:
            name = match.group(1)
            if name.startswith('"'):
                return f'@"{name[1:-1]}.m{index}"'
            return f"@{name}.m{index}" if not name.isdigit() else f"@m{index}.{name}"

        text = _GLOBAL.sub(rename, text)
        text = _ATTRIBUTES.sub(lambda m: f"#{index * 1000 + int(m.group(1))}", text)
        text = _METADATA.sub(lambda m: f"!{index * 1000 + int(m.group(1))}", text)
        for line in text.splitlines():
            if line.startswith("declare"):
                name = re.search(r"@[^(\s]+", line)
                if name and name.group(0) in declared:
                    continue
                if name:
                    declared.add(name.group(0))
            out.append(line)
    return "\n".join(out) + "\n"


def _best(fn: Callable[[], Any], repeat: int, number: int) -> float:
    """Smallest mean seconds per call of ``fn`` over ``repeat`` rounds."""
    fn()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        times.append((time.perf_counter() - start) / number)
    return min(times)


def _throughput(threads: int, work: Callable[[], None], calls: int) -> tuple[float, float]:
    """Calls per second with ``threads`` threads each making ``calls`` calls,
    and the CPUs this process kept busy meanwhile (CPU time over wall time:
    about 2 when two threads really run at once on an idle machine)."""
    barrier = threading.Barrier(threads + 1)

    def lane() -> None:
        barrier.wait()
        for _ in range(calls):
            work()

    lanes = [threading.Thread(target=lane) for _ in range(threads)]
    for thread in lanes:
        thread.start()
    barrier.wait()
    start, cpu = time.perf_counter(), time.process_time()
    for thread in lanes:
        thread.join()
    wall = time.perf_counter() - start
    return threads * calls / wall, (time.process_time() - cpu) / wall


def scaling(quick: bool) -> dict[str, float]:
    """2 threads vs 1 on llvmplug.compile (median module of the corpus)."""
    modules = corpus_modules()
    costs = sorted((_best(lambda m=m: llvmplug.compile(m), 1, 3), m) for m in modules)
    module = costs[len(costs) // 2][1]
    calls = 150 if quick else 600
    rounds = 2 if quick else 5

    def shared() -> None:
        llvmplug.compile(module)

    def alone() -> None:  # a per-call option: the exclusive lock, as before
        llvmplug.compile(module, flags="-align-loops=0")

    ratios, serial, busy = [], [], []
    for _ in range(rounds):
        (one, _), (two, cpus) = _throughput(1, shared, calls), _throughput(2, shared, calls)
        ratios.append(two / one)
        busy.append(cpus)
        serial.append(_throughput(2, alone, calls)[0] / _throughput(1, alone, calls)[0])
    return {
        "module_ms": costs[len(costs) // 2][0] * 1e3,
        "ratio_2_threads": statistics.median(ratios),
        "cpus_busy_2_threads": statistics.median(busy),
        "ratio_2_threads_per_call_options": statistics.median(serial),
    }


def split(quick: bool) -> dict[str, float]:
    """The corpus merged into one module: parts=2 vs whole."""
    merged = merge_modules(corpus_modules())
    plugin = llvmplug.default_plugin()
    whole_output = plugin.compile(merged)
    parts_output = plugin.compile_parts(merged, parts=2)
    repeat = 3 if quick else 9
    whole = _best(lambda: plugin.compile(merged), repeat, 2 if quick else 4)
    parted = _best(lambda: plugin.compile_parts(merged, parts=2), repeat, 2 if quick else 4)
    start, cpu = time.perf_counter(), time.process_time()
    plugin.compile_parts(merged, parts=2)
    busy = (time.process_time() - cpu) / (time.perf_counter() - start)
    return {
        "cpus_busy_parts2": busy,
        "functions": merged.count("\ndefine "),
        "whole_ms": whole * 1e3,
        "parts2_ms": parted * 1e3,
        "speedup": whole / parted,
        "parts": len(parts_output),
        "whole_bytes": len(whole_output),
    }


def floor(quick: bool) -> dict[str, float]:
    """An empty module to an object at -O2: reused machine vs fresh."""
    number = 200 if quick else 1000
    repeat = 3 if quick else 7
    results: dict[str, float] = {}
    previous = os.environ.get("LLVMPLUG_NO_MACHINE_CACHE")
    for name, disabled in (("reuse", False), ("fresh", True)):
        # Each private copy reads the variable at its first compile.
        if disabled:
            os.environ["LLVMPLUG_NO_MACHINE_CACHE"] = "1"
        else:
            os.environ.pop("LLVMPLUG_NO_MACHINE_CACHE", None)
        try:
            with llvmplug.Plugin(private=True) as plugin:
                plugin.compile(EMPTY)
                for flags in ("-O2", "-O2 -passes="):
                    key = f"{name}_{'O2' if flags == '-O2' else 'no_passes'}_ms"
                    results[key] = _best(lambda f=flags: plugin.compile(EMPTY, flags=f), repeat, number) * 1e3
        finally:
            if previous is None:
                os.environ.pop("LLVMPLUG_NO_MACHINE_CACHE", None)
            else:
                os.environ["LLVMPLUG_NO_MACHINE_CACHE"] = previous
    return results


def run(quick: bool) -> dict[str, Any]:
    """Every row's numbers, measured in this process."""
    return {
        "cpus": os.cpu_count(),
        "load": os.getloadavg()[0] if hasattr(os, "getloadavg") else None,
        "scaling": scaling(quick),
        "split": split(quick),
        "floor": floor(quick),
    }


def table(results: dict[str, Any]) -> str:
    """The rows as a markdown table."""
    s, p, f = results["scaling"], results["split"], results["floor"]

    def met(ok: bool) -> str:
        return "yes" if ok else "no"

    rows = [
        ("2 threads on llvmplug.compile vs 1 thread", f"{s['ratio_2_threads']:.2f}x "
         f"({s['cpus_busy_2_threads']:.2f} CPUs busy)",
         f"{s['ratio_2_threads_per_call_options']:.2f}x with a per-call option (runs alone)",
         ">= 1.8x", met(s["ratio_2_threads"] >= 1.8)),
        (f"corpus merged ({p['functions']} functions): parts=2 vs whole", f"{p['speedup']:.2f}x",
         f"{p['whole_ms']:.1f} ms whole, {p['parts2_ms']:.1f} ms in {p['parts']} parts "
         f"({p['cpus_busy_parts2']:.2f} CPUs busy)",
         ">= 1.6x", met(p["speedup"] >= 1.6)),
        ("empty module to object at -O2", f"{f['reuse_O2_ms']:.3f} ms",
         f"{f['fresh_O2_ms']:.3f} ms with a fresh machine per call "
         f"({f['fresh_O2_ms'] / f['reuse_O2_ms']:.1f}x)",
         "<= 0.5 ms", met(f["reuse_O2_ms"] <= 0.5)),
        ("empty module to object, -passes=", f"{f['reuse_no_passes_ms']:.3f} ms",
         f"{f['fresh_no_passes_ms']:.3f} ms with a fresh machine per call", "", ""),
    ]
    lines = ["| row | measured | peer / previous design | target | met? |", "|---|---|---|---|---|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    load = results.get("load")
    if s["cpus_busy_2_threads"] < 1.6:
        lines.append("")
        lines.append(
            f"The 2-thread run had {s['cpus_busy_2_threads']:.2f} CPUs, not 2: the machine was busy, "
            "so the two parallel rows understate what idle CPUs give."
        )
    lines.append("")
    machine = f"{results['cpus']} CPUs"
    if load is not None:
        machine += f", load average {load:.2f} at the start"
    lines.append(machine)
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    args = parser.parse_args(argv)
    print(table(run(args.quick)))


if __name__ == "__main__":
    main()
