"""``python -m benchmarks``: llvmplug against the alternatives, on the real IR corpus.

Writes benchmarks.md (tables with ratios), benchmarks.json (raw samples and
machine facts) and benchmarks.png (latency by backend and module size).
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import llvmplug

from . import artefacts, latency, memory, options, overhead, report, reset, scaling
from ._common import machine_info
from .corpus import EMPTY, concatenate, corpus_dir, load_corpus, loops
from .peers import make_backends
from .settings import FULL, QUICK

SECTIONS = ("latency", "overhead", "reset", "scaling", "memory", "artefacts", "options")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks",
        description="Benchmark llvmplug against llvmlite, opt|llc processes, a process per "
        "compile and process isolation, on the IR corpus ($LLVMPLUG_CORPUS, default "
        f"{corpus_dir()}). Missing optional peers are skipped with the reason.",
    )
    parser.add_argument("--quick", action="store_true", help="a small run (under two minutes; what CI runs)")
    parser.add_argument("--out", type=Path, default=Path("benchmark-results"),
                        help="directory for benchmarks.md/.json/.png (default: ./benchmark-results)")
    parser.add_argument("--only", nargs="+", choices=SECTIONS, metavar="SECTION",
                        help=f"run only these sections: {', '.join(SECTIONS)}")
    parser.add_argument("--no-chart", action="store_true", help="skip the PNG even if matplotlib is installed")
    return parser


def _progress(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    settings = QUICK if args.quick else FULL
    sections = set(args.only or SECTIONS)
    started = time.perf_counter()
    machine = machine_info()
    corpus = load_corpus(settings.corpus_limit)
    everything = load_corpus()
    classes = {"empty": [EMPTY], "corpus": corpus}
    for count in settings.concat_sizes:
        classes[f"concat-{count}"] = [concatenate(everything, count)]
    for count in settings.loop_sizes:
        classes[f"loops-{count}"] = [loops(count)]

    results: dict[str, Any] = {
        "command": "python -m benchmarks " + shlex.join(sys.argv[1:] if argv is None else argv),
        "mode": "quick" if args.quick else "full",
        "settings": settings.__dict__,
        "machine": machine,
        "llvmplug": {"version": llvmplug.__version__, "path": str(Path(llvmplug.__file__).parent)},
        "skipped": {},
    }
    with tempfile.TemporaryDirectory(prefix="llvmplug-bench-") as scratch:
        plugin = llvmplug.Plugin()
        info = plugin.info()
        results["llvmplug"]["llvm_version"] = info["llvm_version"]
        results["llvmplug"]["host"] = {"triple": info["host_triple"], "cpu": info["host_cpu"]}
        if "latency" in sections:
            backends, skipped = make_backends(plugin, Path(scratch))
            results["skipped"].update({f"latency: {k}": v for k, v in skipped.items()})
            for key, reason in skipped.items():
                _progress(f"skipping {key}: {reason}")
            results["backends"] = {b.key: {"label": b.label, "version": b.version} for b in backends}
            try:
                results["latency"] = latency.run(
                    backends, classes, settings.rounds, settings.spawn_rounds, settings.repeats,
                    settings.spawn_repeats, _progress)
            finally:
                for backend in backends:
                    backend.close()
        if "overhead" in sections:
            _progress("ABI overhead")
            estimates = {modules[0]: (results["latency"][name]["stats"]["llvmplug"]["median"]
                                      if "latency" in results else 0.1)
                         for name, modules in classes.items() if len(modules) == 1 and name != "empty"}
            results["overhead"] = overhead.run(plugin, EMPTY, estimates, settings.overhead_calls,
                                               settings.overhead_seconds)
        small = corpus[0]
        if "reset" in sections:
            _progress("reset cost")
            results["reset"] = reset.run(plugin, small, settings.resets)
        plugin.unload()
        if "scaling" in sections:
            workloads = {"corpus modules": corpus, "loops-16": [loops(16)]}
            results["scaling"] = scaling.run(workloads, settings.scaling_seconds, settings.scaling_slices, _progress)
        if "memory" in sections:
            _progress("memory")
            results["memory"] = memory.run(loops(16), settings.instances, settings.reload_cycles)
        if "artefacts" in sections:
            results["artefacts"] = artefacts.run()
        if "options" in sections:
            _progress("option save/restore")
            results["options"] = options.run(classes["concat-8"][0], EMPTY, settings.option_calls)

    machine["load_average_after"] = machine_info()["load_average"]
    results["seconds"] = time.perf_counter() - started
    args.out.mkdir(parents=True, exist_ok=True)
    chart = None
    if not args.no_chart and "latency" in results:
        chart = report.chart(results, args.out / "benchmarks.png")
        if chart is None:
            results["skipped"]["chart"] = "matplotlib is not installed"
    (args.out / "benchmarks.md").write_text(report.markdown(results, chart))
    (args.out / "benchmarks.json").write_text(json.dumps(results, indent=1, default=str))
    _progress(f"done in {results['seconds']:.0f} s: {args.out}/benchmarks.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
