"""Lifecycle costs: reload vs a fresh process, RSS over load/unload cycles,
1 vs 2 private instances on 2 threads, and what a private copy costs.

    python -m benchmarks.lifecycle [--quick] [--json FILE]

Each ``measure_*`` function returns plain numbers (seconds, bytes) and prints
nothing, so a larger suite can call it; :func:`main` prints Markdown tables.
Memory figures come from fresh child processes, so nothing measured earlier
in this process is counted.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Callable

import llvmplug

from ._common import machine_info, markdown_table, ms, ratio, rss_bytes, summary, throughput
from .corpus import concatenate, load_corpus, loops

FLAGS = "-O2"
SMALL = "define i32 @add(i32 %a, i32 %b) {\n  %s = add i32 %a, %b\n  ret i32 %s\n}\n"
CHECKOUT = Path(__file__).resolve().parents[1]


# -- reload vs fresh process ---------------------------------------------------


def measure_reload(cycles: int, module: str = SMALL) -> dict[str, Any]:
    """Unload, load, first compile: per-phase and total seconds, for the shared
    Plugin (what :func:`llvmplug.reset` does) and for a private one."""
    results: dict[str, Any] = {}
    for kind in ("shared", "private"):
        plugin = llvmplug.default_plugin() if kind == "shared" else llvmplug.Plugin(private=True)
        plugin.compile(module, flags=FLAGS)
        phases: dict[str, list[float]] = {"unload": [], "load": [], "first compile": [], "total": []}
        for _ in range(cycles):
            start = time.perf_counter()
            plugin.unload()
            unloaded = time.perf_counter()
            plugin.reload()  # on an unloaded Plugin: just the load
            loaded = time.perf_counter()
            plugin.compile(module, flags=FLAGS)
            done = time.perf_counter()
            phases["unload"].append(unloaded - start)
            phases["load"].append(loaded - unloaded)
            phases["first compile"].append(done - loaded)
            phases["total"].append(done - start)
        if kind == "private":
            plugin.unload()
        results[kind] = {phase: summary(samples) for phase, samples in phases.items()}
    return results


_WORKER = r"""
import sys, llvmplug
module = sys.stdin.read()
sys.stdout.write(f"{len(llvmplug.compile(module, flags=sys.argv[1]))}\n")
sys.stdout.flush()
"""


def measure_fresh_process(count: int, module: str = SMALL) -> dict[str, Any]:
    """Start a Python process that imports llvmplug and compiles `module`:
    seconds until its object is reported back (its exit is not timed)."""
    samples = []
    for index in range(count + 1):  # the first one warms the page cache
        start = time.perf_counter()
        worker = subprocess.Popen(
            [sys.executable, "-c", _WORKER, FLAGS],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=tempfile.gettempdir(),  # never the checkout's llvmplug
        )
        assert worker.stdin is not None and worker.stdout is not None
        worker.stdin.write(module)
        worker.stdin.close()
        size = worker.stdout.readline()
        elapsed = time.perf_counter() - start
        if worker.wait() != 0 or not size.strip().isdigit():
            raise RuntimeError("the fresh worker process failed")
        if index:
            samples.append(elapsed)
    return summary(samples)


# -- RSS over load/compile/unload cycles -----------------------------------------


def _child(mode: str, *args: str) -> Any:
    """Run this module in a fresh interpreter (see _child_main); return its JSON."""
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks.lifecycle", "--child", mode, *args],
        capture_output=True,
        text=True,
        cwd=CHECKOUT,  # benchmarks/__init__ drops the checkout from sys.path again
    )
    if done.returncode:
        raise RuntimeError(f"child {mode} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.splitlines()[-1])


def measure_rss_cycles(checkpoints: Sequence[int] = (10, 100, 500), private: bool = False) -> dict[str, Any]:
    """RSS of a fresh process after N load/compile/unload cycles.

    Returns RSS (bytes) before the first load, after the first cycle, at each
    checkpoint, and the growth per cycle (bytes) from the first checkpoint on.
    """
    return _rss_cycles(checkpoints, "private" if private else "shared")


def measure_empty_library_rss_cycles(checkpoints: Sequence[int] = (10, 100, 500)) -> dict[str, Any]:
    """The peer for :func:`measure_rss_cycles`: RSS over dlopen/call/dlclose
    cycles of an empty C shared library (built with the system C compiler),
    i.e. what the dynamic loader itself costs per cycle."""
    compiler = shutil.which(os.environ.get("CC", "cc"))
    if compiler is None:
        return {"skipped": "no C compiler to build the empty library with"}
    with tempfile.TemporaryDirectory() as directory:
        source = Path(directory) / "empty.c"
        source.write_text("int empty_function(void) { return 0; }\n")
        library = Path(directory) / "libempty.so"
        subprocess.run([compiler, "-shared", "-fPIC", "-o", str(library), str(source)], check=True)
        return _rss_cycles(checkpoints, f"empty:{library}")


def _rss_cycles(checkpoints: Sequence[int], kind: str) -> dict[str, Any]:
    rss = _child("rss-cycles", json.dumps(list(checkpoints)), kind)
    at = {int(k): v for k, v in rss["at"].items()}
    first, last = min(checkpoints), max(checkpoints)
    return {
        "kind": "empty library" if kind.startswith("empty:") else kind,
        "private": kind == "private",
        "before": rss["before"],
        "after 1": rss["after 1"],
        "peak loaded": rss["peak loaded"],
        "at": at,
        "growth per cycle": (at[last] - at[first]) / (last - first) if last > first else None,
    }


def _rss_cycles_child(checkpoints: list[int], kind: str) -> dict[str, Any]:
    before = rss_bytes()
    peak = 0
    at: dict[int, int | None] = {}
    after_one = None
    for cycle in range(1, max(checkpoints) + 1):
        if kind.startswith("empty:"):
            import _ctypes
            import ctypes

            library = ctypes.CDLL(kind[len("empty:"):])
            library.empty_function()
            peak = max(peak, rss_bytes() or 0)
            _ctypes.dlclose(library._handle)
            del library
        else:
            plugin = llvmplug.Plugin(private=kind == "private")
            plugin.compile(SMALL, flags=FLAGS)
            peak = max(peak, rss_bytes() or 0)
            plugin.unload()
        if cycle == 1:
            after_one = rss_bytes()
        if cycle in checkpoints:
            at[cycle] = rss_bytes()
    return {"before": before, "after 1": after_one, "peak loaded": peak, "at": at}


# -- private instances: throughput, copy cost, RSS per instance ---------------------


def measure_throughput(workload: list[str], seconds: float) -> dict[str, Any]:
    """Modules per second: 1 instance on 1 thread, 1 instance shared by 2
    threads (calls on one instance take turns), 2 private instances on 2 threads."""
    first, second = llvmplug.Plugin(private=True), llvmplug.Plugin(private=True)

    def on(plugin: llvmplug.Plugin) -> Callable[[str], Any]:
        return lambda text: plugin.compile(text, flags=FLAGS)

    try:
        return {
            "1 instance, 1 thread": throughput([on(first)], workload, seconds),
            "1 instance, 2 threads": throughput([on(first)] * 2, workload, seconds),
            "2 private instances, 2 threads": throughput([on(first), on(second)], workload, seconds),
        }
    finally:
        first.unload()
        second.unload()


def measure_private_copy(count: int) -> dict[str, Any]:
    """Seconds to copy the shim, to make a private Plugin (copy + load), to
    compile the first module in it, and to unload it."""
    source = llvmplug.default_plugin().path
    phases: dict[str, list[float]] = {"copy file": [], "copy + load": [], "first compile": [], "unload": []}
    for _ in range(count):
        directory = Path(tempfile.mkdtemp(prefix="llvmplug-bench-"))
        start = time.perf_counter()
        shutil.copyfile(source, directory / source.name)
        phases["copy file"].append(time.perf_counter() - start)
        shutil.rmtree(directory)

        start = time.perf_counter()
        plugin = llvmplug.Plugin(private=True)
        loaded = time.perf_counter()
        plugin.compile(SMALL, flags=FLAGS)
        compiled = time.perf_counter()
        plugin.unload()
        unloaded = time.perf_counter()
        phases["copy + load"].append(loaded - start)
        phases["first compile"].append(compiled - loaded)
        phases["unload"].append(unloaded - compiled)
    return {"file size": source.stat().st_size, **{k: summary(v) for k, v in phases.items()}}


def measure_instance_rss(instances: int, module: str | None = None) -> dict[str, Any]:
    """RSS added by each loaded private instance, in a fresh process: after
    loading it, and after it compiled `module` (default: a generated loop module)."""
    result = _child("instance-rss", str(instances), module or loops(16).text)
    loaded = [b - a for a, b in zip(result["steps"][0::2], result["steps"][1::2])]
    return {**result, "loaded": loaded}


def _instance_rss_child(instances: int, module: str) -> dict[str, Any]:
    import warnings

    warnings.simplefilter("ignore")
    llvmplug.Plugin(private=True).unload()  # cffi and the first-load allocations
    base = rss_bytes() or 0
    plugins = []
    steps = []  # RSS before and after each load
    compiled = []
    for _ in range(instances):
        steps.append(rss_bytes())
        plugins.append(llvmplug.Plugin(private=True))
        steps.append(rss_bytes())
        plugins[-1].compile(module, flags=FLAGS)
        compiled.append(rss_bytes())
    total = (rss_bytes() or 0) - base
    for plugin in plugins:
        plugin.unload()
    return {"base": base, "steps": steps, "after compile": compiled, "per instance": total / instances,
            "after unload": rss_bytes()}


# -- report ----------------------------------------------------------------------


def _kib(size: float | None) -> str:
    return "n/a" if size is None else f"{size / 1024:,.1f} KiB"


def _mib(size: float | None) -> str:
    return "n/a" if size is None else f"{size / 2**20:,.1f} MiB"


SECTIONS = ("reload", "rss", "throughput", "private")


def run(quick: bool, sections: Sequence[str] = SECTIONS) -> dict[str, Any]:
    """The measurements named in `sections`; --quick takes about a minute on 2 cores."""
    results: dict[str, Any] = {"machine": machine_info(), "quick": quick}
    if "reload" in sections:
        results["reload"] = measure_reload(20 if quick else 150)
        results["fresh process"] = measure_fresh_process(5 if quick else 30)
    if "rss" in sections:
        checkpoints = (10, 50) if quick else (10, 100, 500)
        results["rss cycles"] = [measure_rss_cycles(checkpoints, private=False),
                                 measure_rss_cycles(checkpoints, private=True)]
        empty = measure_empty_library_rss_cycles(checkpoints)
        if "skipped" not in empty:
            results["rss cycles"].append(empty)
    if "throughput" in sections:
        workloads = {
            "corpus modules one by one": [m.text for m in load_corpus(24 if quick else None)],
            "loops-64 (generated)": [loops(64).text],
        }
        if not quick:
            workloads["concat-32 (32 corpus modules merged)"] = [concatenate(load_corpus(), 32).text]
        results["throughput"] = {name: measure_throughput(texts, 3.0 if quick else 10.0)
                                 for name, texts in workloads.items()}
    if "private" in sections:
        results["private copy"] = measure_private_copy(5 if quick else 30)
        results["instance rss"] = measure_instance_rss(2 if quick else 4)
    results["machine"]["load_average_after"] = list(os.getloadavg()) if hasattr(os, "getloadavg") else None
    return results


def report(results: dict[str, Any]) -> str:
    out = []
    machine = results["machine"]
    loads = [machine.get("load_average"), machine.get("load_average_after")]
    load = " -> ".join(", ".join(f"{x:.2f}" for x in pair) for pair in loads if pair)
    out.append(f"Machine: {machine['cpu']}, {machine['cores']} cores, load average {load} (before -> after); "
               f"Python {machine['python']}; {'--quick' if results['quick'] else 'full run'}, "
               f"{machine['time_utc']}.\n")

    if "reload" in results:
        out.append(_reload_table(results))
    if "rss cycles" in results:
        out.append(_rss_table(results))
    if "throughput" in results:
        out.append(_throughput_table(results))
    if "private copy" in results:
        out.append(_private_table(results))
    return "\n".join(out)


def _reload_table(results: dict[str, Any]) -> str:
    out = []
    fresh = results["fresh process"]
    rows = []
    for kind, phases in results["reload"].items():
        total = phases["total"]
        rows.append([f"{kind} Plugin: unload + load + first compile", ms(total["median"]), ms(total["p95"]),
                     total["n"], ratio(fresh["median"], total["median"])])
        for phase in ("unload", "load", "first compile"):
            rows.append([f"&nbsp;&nbsp;{phase}", ms(phases[phase]["median"]), ms(phases[phase]["p95"]),
                         phases[phase]["n"], ""])
    rows.append(["fresh process: start, import llvmplug, compile", ms(fresh["median"]), ms(fresh["p95"]),
                 fresh["n"], "1.00x"])
    out.append("### Reset: reload vs a fresh worker process\n")
    out.append(markdown_table(["what", "median", "p95", "n", "fresh process / this"], rows) + "\n")
    return "\n".join(out)


def _rss_table(results: dict[str, Any]) -> str:
    out = []
    out.append("### RSS over load/compile/unload cycles (fresh process each)\n")
    rows = []
    labels = {"shared": "Plugin()", "private": "Plugin(private=True)",
              "empty library": "peer: an empty C library (ctypes, dlclose)"}
    for rss in results["rss cycles"]:
        label = labels.get(rss.get("kind", "private" if rss["private"] else "shared"), "?")
        row = [label, _mib(rss["before"]),
               _mib(rss["peak loaded"]), _mib(rss["after 1"])]
        row += [_mib(rss["at"][n]) for n in sorted(rss["at"])]
        row.append(_kib(rss["growth per cycle"]))
        rows.append(row)
    checkpoints = sorted(results["rss cycles"][0]["at"])
    first, last = checkpoints[0], checkpoints[-1]
    out.append(markdown_table(["cycle", "before load", "peak while loaded", "after 1"]
                              + [f"after {n}" for n in checkpoints] + [f"growth/cycle ({first}..{last})"], rows) + "\n")
    return "\n".join(out)


def _throughput_table(results: dict[str, Any]) -> str:
    out = []
    out.append("### Throughput: 1 vs 2 private instances on 2 threads\n")
    rows = []
    for name, runs in results["throughput"].items():
        single = runs["1 instance, 1 thread"]["per_second"]
        shared = runs["1 instance, 2 threads"]["per_second"]
        for config, run_ in runs.items():
            per_cpu = run_["per_cpu_second"]
            rows.append([name, config, f"{run_['per_second']:.1f}", f"{run_['cores_used']:.2f}",
                         "n/a" if per_cpu is None else f"{per_cpu:.1f}",
                         ratio(run_["per_second"], single), ratio(run_["per_second"], shared)])
    out.append("`cores used` is the CPU time the compiling threads got per wall-clock second "
               "(2.00 = both cores to themselves); `per CPU-s` is modules per CPU-second, which "
               "stays flat if the instances do not slow each other down.\n")
    out.append(markdown_table(["workload", "configuration", "modules/s", "cores used", "per CPU-s",
                               "vs 1 instance 1 thread", "vs 1 instance 2 threads"], rows) + "\n")
    return "\n".join(out)


def _private_table(results: dict[str, Any]) -> str:
    out = []
    copy = results["private copy"]
    inst = results["instance rss"]
    out.append("### Cost of a private instance\n")
    rows = [[f"copy the shim ({_mib(copy['file size'])})", ms(copy["copy file"]["median"])],
            ["Plugin(private=True): copy + load", ms(copy["copy + load"]["median"])],
            ["first compile in it (small module)", ms(copy["first compile"]["median"])],
            ["unload", ms(copy["unload"]["median"])],
            ["RSS added by loading one instance (median)", _mib(sorted(inst["loaded"])[len(inst["loaded"]) // 2])],
            [f"RSS per instance after compiling loops-16 ({len(inst['loaded'])} loaded)", _mib(inst["per instance"])]]
    out.append(markdown_table(["what", "median"], rows) + "\n")
    return "\n".join(out)


def _child_main(mode: str, args: list[str]) -> None:
    if mode == "rss-cycles":
        print(json.dumps(_rss_cycles_child(json.loads(args[0]), args[1])))
    elif mode == "instance-rss":
        print(json.dumps(_instance_rss_child(int(args[0]), args[1])))
    else:
        raise SystemExit(f"unknown child mode {mode}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.lifecycle",
        description="llvmplug lifecycle costs: reload vs fresh process, RSS over load/unload cycles, "
                    "1 vs 2 private instances on 2 threads, private copy cost and RSS per instance. "
                    "Prints Markdown tables.",
    )
    parser.add_argument("--quick", action="store_true", help="fewer cycles and shorter runs (about a minute)")
    parser.add_argument("--json", type=Path, help="also write the raw numbers to this file")
    parser.add_argument("--only", default=",".join(SECTIONS),
                        help=f"comma-separated sections to run (default: all of {','.join(SECTIONS)})")
    parser.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    options = parser.parse_args(argv)
    if options.child:
        _child_main(options.child[0], options.child[1:])
        return 0
    if rss_bytes() is None:
        print("note: RSS is not readable on this system; memory rows read n/a", file=sys.stderr)
    sections = [name.strip() for name in options.only.split(",") if name.strip()]
    unknown = set(sections) - set(SECTIONS)
    if unknown:
        parser.error(f"unknown section(s) {', '.join(sorted(unknown))}; choose from {', '.join(SECTIONS)}")
    results = run(options.quick, sections)
    if options.json:
        options.json.write_text(json.dumps(results, indent=1, default=str))
    print(report(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
