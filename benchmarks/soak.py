"""Soak: thousands of compiles with random flags, reloads and injected fatal errors; RSS must level off.

A section of ``python -m benchmarks`` (a short soak in each isolation), and a
command of its own for long soaks with every knob:

    python -m benchmarks.soak --compiles 20000            # in process
    python -m benchmarks.soak --compiles 5000 --isolation process

Every ``--sample-every`` compiles it records the resident set size (of this
process; with ``--isolation process`` of the child too; the curve goes to
stderr) and at the end prints the least-squares slope of RSS per 1000 compiles
over the second half of the run (the first half includes warm-up: allocator
arenas, caches, first-use initialisation).
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
from .corpus import FATAL_IR as FATAL, load_corpus

TRIPLE = "x86_64-unknown-linux-gnu"
LEVELS = ("-O0", "-O1", "-O2", "-O3", "-passes=")
EXTRAS = ("", "-x86-asm-syntax=intel", "-mcpu=skylake", "-mcpu=znver3 -mattr=+avx2", "-relocation-model=pic",
          "-function-sections -data-sections", "-unroll-threshold=50", "-code-model=large", "-inline-threshold=500")
OUTPUTS = ("obj", "obj", "asm", "bc", "ll")
STICKY = ("-x86-asm-syntax=intel", "-unroll-threshold=10", "-enable-misched=false")


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


def soak(args: argparse.Namespace) -> dict[str, Any]:
    rng = random.Random(args.seed)
    modules = [module.text for module in load_corpus()]
    # In process: a private copy, so the soak can run beside the shared one (python -m benchmarks).
    plugin = llvmplug.Plugin(isolation="process") if args.isolation == "process" else llvmplug.Plugin(private=True)
    counts = {"compiles": 0, "errors": 0, "fatal": 0, "reloads": 0, "sticky": 0}
    samples: list[dict[str, Any]] = []

    def sample() -> None:
        child = getattr(plugin, "worker_pid", None)
        samples.append({"compiles": counts["compiles"], "seconds": round(time.perf_counter() - started, 2),
                        "rss": rss_bytes(), "child_rss": rss_bytes(child) if child else None})

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
        "isolation": args.isolation,
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


def run(quick: bool) -> dict[str, Any]:
    """The runner's section: a short soak in each isolation, default rates."""
    compiles = 300 if quick else 5000
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", llvmplug.LLVMPlugWarning)
        return {isolation: soak(_parser().parse_args(
            ["--compiles", str(compiles), "--sample-every", str(compiles // 6), "--isolation", isolation]))
            for isolation in ("none", "process")}


def markdown(result: dict[str, Any]) -> str:
    rows = [[isolation, r["counts"]["compiles"], f"{r['seconds']:.0f} s", mib(r["samples"][-1]["rss"]),
             f"{r['slope_second_half_bytes_per_1000'] / 2**20:+.3f} MiB",
             f"{r['child_slope_second_half_bytes_per_1000'] / 2**20:+.3f} MiB"
             if "child_slope_second_half_bytes_per_1000" in r else "n/a"] for isolation, r in result.items()]
    return "\n".join([
        "## Soak: RSS over many compiles", "",
        "Random corpus modules, optimisation levels, CPUs and outputs, with injected fatal errors (each "
        "followed by an automatic reload), explicit reloads, sticky options and broken IR; the slope is a "
        "least-squares fit of RSS per 1000 compiles over the second half of the run (the first half holds "
        "warm-up). `python -m benchmarks.soak --help` runs longer soaks.", "",
        markdown_table(["isolation", "compiles", "time", "final RSS", "RSS slope, 2nd half",
                        "child RSS slope, 2nd half"], rows), ""])


def _parser() -> argparse.ArgumentParser:
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
    return parser


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    warnings.simplefilter("ignore", llvmplug.LLVMPlugWarning)
    result = soak(args)
    print(markdown({args.isolation: result}))
    if args.json:
        args.json.write_text(json.dumps(result, indent=1))
    slope = result["slope_second_half_bytes_per_1000"] / 2**20
    if args.max_slope is not None and slope > args.max_slope:
        print(f"RSS did not level off: {slope:.3f} MiB per 1000 compiles > {args.max_slope}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
