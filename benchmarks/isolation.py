"""What the reliability features cost: process isolation, recovery after a fatal error or a crash, pools.

    python -m benchmarks.isolation [--repeat 200] [--json out.json]

Every row is measured in this run, against its in-process peer in the same
run: a process-isolated compile against the same compile in process, the
call that follows a fatal error (and reloads) against an ordinary call, the
call that follows a crash (and starts a child) against an ordinary call.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import time
import warnings
from pathlib import Path
from typing import Any

import llvmplug

from ._common import machine_info, markdown_table, ms, ratio, summary, timed
from .corpus import FATAL_IR as FATAL, corpus_dir

EMPTY = "; an empty module\n"
FLAGS = "-O2"


def _modules() -> dict[str, str]:
    files = sorted(corpus_dir().glob("*.ll"))
    if not files:
        raise SystemExit(f"no IR corpus at {corpus_dir()} (set LLVMPLUG_CORPUS)")
    texts = [path.read_text() for path in files]
    median = sorted(texts, key=len)[len(texts) // 2]
    return {"empty": EMPTY, "corpus median": median, "whole corpus (96 modules)": "\n".join(
        text.replace("@func", f"@m{i}_func") for i, text in enumerate(texts))}


def _median(samples: list[float]) -> float:
    return summary(samples)["median"]


def startup(repeat: int) -> dict[str, list[float]]:
    """A new child: Plugin(isolation="process") until ready, and until its first compile."""
    ready, first = [], []
    for _ in range(repeat):
        start = time.perf_counter()
        plugin = llvmplug.Plugin(isolation="process")
        ready.append(time.perf_counter() - start)
        plugin.compile(EMPTY, flags=FLAGS)
        first.append(time.perf_counter() - start)
        plugin.unload()
    # For comparison: loading a private in-process copy (what thread pools use).
    private = []
    for _ in range(repeat):
        start = time.perf_counter()
        local = llvmplug.Plugin(private=True)
        local.compile(EMPTY, flags=FLAGS)
        private.append(time.perf_counter() - start)
        local.unload()
    return {"process: start to ready": ready, "process: start to first compile": first,
            "private in-process copy: load to first compile": private}


def per_call(modules: dict[str, str], repeat: int) -> list[dict[str, Any]]:
    rows = []
    with llvmplug.Plugin(private=True) as local, llvmplug.Plugin(isolation="process") as isolated:
        for name, text in modules.items():
            count = repeat if len(text) < 100_000 else max(5, repeat // 20)
            inside = timed(lambda text=text: local.compile(text, flags=FLAGS), count)
            child = timed(lambda text=text: isolated.compile(text, flags=FLAGS), count)
            with_timeout = timed(lambda text=text: isolated.compile(text, flags=FLAGS, timeout=60), count)
            rows.append({"module": name, "bytes": len(text), "in_process": inside, "process": child,
                         "process_with_timeout": with_timeout})
    return rows


def recovery(repeat: int) -> dict[str, list[float]]:
    """The call after a fatal error (in process: reload) or after a crash (process: new child)."""
    text = EMPTY
    after_fatal, ordinary = [], []
    with llvmplug.Plugin(private=True) as local:
        local.compile(text, flags=FLAGS)
        for _ in range(repeat):
            try:
                local.compile(FATAL, "x86_64-unknown-linux-gnu")
            except llvmplug.FatalError:
                pass
            start = time.perf_counter()
            local.compile(text, flags=FLAGS)
            after_fatal.append(time.perf_counter() - start)
            start = time.perf_counter()
            local.compile(text, flags=FLAGS)
            ordinary.append(time.perf_counter() - start)
    after_crash: list[float] = []
    if os.name == "posix":
        with llvmplug.Plugin(isolation="process") as isolated:
            for _ in range(repeat):
                pid = isolated.worker_pid
                os.kill(pid, signal.SIGKILL)
                try:
                    isolated.compile(text, flags=FLAGS)
                except llvmplug.WorkerCrashedError:
                    pass
                start = time.perf_counter()
                isolated.compile(text, flags=FLAGS)
                after_crash.append(time.perf_counter() - start)
    return {"in process: ordinary call": ordinary, "in process: call after a FatalError (reload)": after_fatal,
            "process: call after a crash (new child)": after_crash}


def pools() -> dict[str, float]:
    """Wall time to compile the corpus 4 times: one Plugin serially, then 2-worker pools."""
    texts = [path.read_text() for path in sorted(corpus_dir().glob("*.ll"))] * 4
    results: dict[str, float] = {}
    with llvmplug.Plugin(private=True) as local:
        start = time.perf_counter()
        for text in texts:
            local.compile(text, flags=FLAGS)
        results["one in-process Plugin, serial"] = time.perf_counter() - start
    for isolation in ("none", "process"):
        with llvmplug.Pool(2, isolation=isolation) as pool:
            start = time.perf_counter()
            list(pool.map(texts, flags=FLAGS))
            results[f"Pool(2, isolation={isolation!r})"] = time.perf_counter() - start
    return results


def report(result: dict[str, Any]) -> str:
    lines = ["## Reliability features: costs", ""]
    lines += ["### Starting a worker", "",
              markdown_table(["what", "median", "p95"],
                             [[k, ms(summary(v)["median"]), ms(summary(v)["p95"])] for k, v in result["startup"].items()])]
    lines += ["", "### Per call: process isolation vs in process (same module, -O2, medians)", "",
              markdown_table(
                  ["module", "size", "in process", "process", "overhead", "ratio", "process + timeout"],
                  [[r["module"], f"{r['bytes']:,} B", ms(_median(r["in_process"])), ms(_median(r["process"])),
                    ms(_median(r["process"]) - _median(r["in_process"])),
                    ratio(_median(r["process"]), _median(r["in_process"])), ms(_median(r["process_with_timeout"]))]
                   for r in result["per_call"]])]
    base = _median(result["recovery"]["in process: ordinary call"])
    lines += ["", "### Recovery (empty module)", "",
              markdown_table(["call", "median", "vs ordinary in-process call"],
                             [[k, ms(_median(v)) if v else "n/a", ratio(_median(v), base) if v else "n/a"]
                              for k, v in result["recovery"].items()])]
    serial = result["pools"]["one in-process Plugin, serial"]
    lines += ["", f"### Pools: the corpus 4 times ({os.cpu_count()} cores)", "",
              markdown_table(["how", "wall time", "speed-up"],
                             [[k, ms(v), ratio(serial, v)] for k, v in result["pools"].items()])]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.isolation", description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=100)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    warnings.simplefilter("ignore", llvmplug.LLVMPlugWarning)
    modules = _modules()
    result = {
        "startup": startup(max(5, args.repeat // 5)),
        "per_call": per_call(modules, args.repeat),
        "recovery": recovery(max(5, args.repeat // 5)),
        "pools": pools(),
        "machine": machine_info(),
    }
    print(report(result))
    if args.json:
        args.json.write_text(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
