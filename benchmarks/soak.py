"""Soak: thousands of compiles with random flags, reloads and injected fatal errors; RSS must level off.

    python -m benchmarks.soak --compiles 20000            # in process
    python -m benchmarks.soak --compiles 5000 --isolation process

Every ``--sample-every`` compiles it records the resident set size (of this
process; with ``--isolation process`` of the child too) and at the end prints
the curve and the least-squares slope of RSS per 1000 compiles over the second
half of the run (the first half includes warm-up: allocator arenas, caches,
first-use initialisation). ``--max-slope`` turns the verdict into an exit
status, for CI.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
import warnings
from pathlib import Path
from typing import Any

import llvmplug

from ._common import machine_info, markdown_table, mib, rss_bytes
from .corpus import FATAL_IR as FATAL, corpus_dir

TRIPLE = "x86_64-unknown-linux-gnu"
LEVELS = ("-O0", "-O1", "-O2", "-O3", "-passes=")
EXTRAS = (
    "",
    "-x86-asm-syntax=intel",
    "-mcpu=skylake",
    "-mcpu=znver3 -mattr=+avx2",
    "-relocation-model=pic",
    "-function-sections -data-sections",
    "-unroll-threshold=50",
    "-code-model=large",
    "-inline-threshold=500",
)
OUTPUTS = ("obj", "obj", "asm", "bc", "ll")
STICKY = ("-x86-asm-syntax=intel", "-unroll-threshold=10", "-enable-misched=false")


def _modules() -> list[str]:
    files = sorted(corpus_dir().glob("*.ll"))
    if not files:
        raise SystemExit(f"no IR corpus at {corpus_dir()} (set LLVMPLUG_CORPUS)")
    return [path.read_text() for path in files]


def _slope_per_1000(points: list[tuple[int, int]]) -> float:
    """Least-squares slope of RSS (bytes) against compiles, per 1000 compiles."""
    n = len(points)
    if n < 2:
        return float("nan")
    mean_x = sum(x for x, _ in points) / n
    mean_y = sum(y for _, y in points) / n
    var = sum((x - mean_x) ** 2 for x, _ in points)
    cov = sum((x - mean_x) * (y - mean_y) for x, y in points)
    return cov / var * 1000 if var else float("nan")


def run(args: argparse.Namespace) -> dict[str, Any]:
    rng = random.Random(args.seed)
    modules = _modules()
    plugin = llvmplug.Plugin(isolation=args.isolation)
    counts = {"compiles": 0, "errors": 0, "fatal": 0, "reloads": 0, "sticky": 0}
    samples: list[dict[str, Any]] = []

    def sample() -> None:
        child = getattr(plugin, "worker_pid", None)
        samples.append({
            "compiles": counts["compiles"],
            "seconds": round(time.perf_counter() - started, 2),
            "rss": rss_bytes(),
            "child_rss": rss_bytes(child) if child else None,
        })

    started = time.perf_counter()
    sample()
    while counts["compiles"] < args.compiles:
        roll = rng.random()
        if roll < args.fatal_rate:
            try:
                plugin.compile(FATAL, TRIPLE)
            except llvmplug.FatalError:
                counts["fatal"] += 1
        elif roll < args.fatal_rate + args.reload_rate:
            plugin.reload()
            counts["reloads"] += 1
        elif roll < args.fatal_rate + args.reload_rate + args.sticky_rate:
            plugin.set_options(rng.choice(STICKY))
            counts["sticky"] += 1
        flags = f"{rng.choice(LEVELS)} {rng.choice(EXTRAS)}"
        module = rng.choice(modules)
        if rng.random() < args.error_rate:
            module = module.replace("ret ", "ret i1 ", 1)  # a parse or verify error
        try:
            plugin.compile(module, TRIPLE, flags, output=rng.choice(OUTPUTS))
        except llvmplug.LLVMPlugError:
            counts["errors"] += 1
        counts["compiles"] += 1
        if counts["compiles"] % args.sample_every == 0:
            sample()
            last = samples[-1]
            print(f"[{last['seconds']:8.1f} s] {last['compiles']:6d} compiles  RSS {mib(last['rss'])}"
                  + (f"  child {mib(last['child_rss'])}" if last["child_rss"] else ""),
                  file=sys.stderr, flush=True)
    plugin.unload()

    half = [s for s in samples if s["compiles"] >= args.compiles // 2]
    result = {
        "isolation": args.isolation or "none",
        "seed": args.seed,
        "counts": counts,
        "seconds": round(time.perf_counter() - started, 1),
        "samples": samples,
        "slope_second_half_bytes_per_1000": _slope_per_1000([(s["compiles"], s["rss"]) for s in half]),
        "slope_whole_run_bytes_per_1000": _slope_per_1000([(s["compiles"], s["rss"]) for s in samples]),
    }
    if half and half[-1]["child_rss"]:
        result["child_slope_second_half_bytes_per_1000"] = _slope_per_1000(
            [(s["compiles"], s["child_rss"]) for s in half if s["child_rss"]]
        )
    result["machine"] = machine_info()
    return result


def report(result: dict[str, Any]) -> str:
    child = any(s["child_rss"] for s in result["samples"])
    headers = ["compiles", "seconds", "RSS"] + (["child RSS"] if child else [])
    rows = [
        [s["compiles"], f"{s['seconds']:.1f}", mib(s["rss"])] + ([mib(s["child_rss"])] if child else [])
        for s in result["samples"]
    ]
    counts = result["counts"]
    lines = [
        f"## Soak: {counts['compiles']} compiles, isolation={result['isolation']}",
        "",
        f"{counts['errors']} failed compiles (parse/verify errors injected), {counts['fatal']} injected "
        f"fatal errors (each followed by an automatic reload), {counts['reloads']} explicit reloads, "
        f"{counts['sticky']} set_options calls; {result['seconds']} s.",
        "",
        markdown_table(headers, rows),
        "",
        f"RSS slope over the second half: {result['slope_second_half_bytes_per_1000'] / 2**20:+.3f} MiB "
        f"per 1000 compiles (whole run: {result['slope_whole_run_bytes_per_1000'] / 2**20:+.3f} MiB).",
    ]
    if "child_slope_second_half_bytes_per_1000" in result:
        lines.append(f"Child RSS slope over the second half: "
                     f"{result['child_slope_second_half_bytes_per_1000'] / 2**20:+.3f} MiB per 1000 compiles.")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.soak", description=__doc__.splitlines()[0])
    parser.add_argument("--compiles", type=int, default=10000)
    parser.add_argument("--isolation", choices=("none", "process"), default="none")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--sample-every", type=int, default=500)
    parser.add_argument("--fatal-rate", type=float, default=0.01, help="fraction of steps that inject a fatal error")
    parser.add_argument("--reload-rate", type=float, default=0.002, help="fraction of steps that reload")
    parser.add_argument("--sticky-rate", type=float, default=0.005, help="fraction of steps that set_options")
    parser.add_argument("--error-rate", type=float, default=0.05, help="fraction of compiles given broken IR")
    parser.add_argument("--json", type=Path, help="also write the result here")
    parser.add_argument("--max-slope", type=float, help="fail if the second-half slope exceeds this many MiB/1000")
    args = parser.parse_args(argv)
    warnings.simplefilter("ignore", llvmplug.LLVMPlugWarning)
    result = run(args)
    print(report(result))
    if args.json:
        args.json.write_text(json.dumps(result, indent=1))
    slope = result["slope_second_half_bytes_per_1000"] / 2**20
    if args.max_slope is not None and slope > args.max_slope:
        print(f"RSS did not level off: {slope:.3f} MiB per 1000 compiles > {args.max_slope}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
