"""What the reliability features cost per call: process isolation, and recovery after a fatal error or a crash.

Every row is measured against its in-process peer in the same run: a
process-isolated compile against the same compile in process; the call after a
fatal error (which reloads) and the call after a crash (which starts a child)
against an ordinary call. Starting a child is in the reset section; pools are
in the scaling section.
"""

from __future__ import annotations

import os
import signal
import time
import warnings
from typing import Any

import llvmplug

from ._common import FLAGS, markdown_table, ms, ratio, summary, timed
from .corpus import EMPTY, FATAL_IR, concatenate, load_corpus, median_module


def _per_call(quick: bool) -> list[dict[str, Any]]:
    corpus = load_corpus()
    modules = [EMPTY, median_module(corpus), concatenate(corpus, len(corpus))]
    rows = []
    with llvmplug.Plugin(private=True) as local, llvmplug.Plugin(isolation="process") as isolated:
        for module in modules:
            count = (20 if quick else 200) // (1 if module.functions < 10 else 10)
            text = module.text
            rows.append({"module": module.name, "bytes": len(text),
                         "in_process": summary(timed(lambda: local.compile(text, flags=FLAGS), count)),
                         "process": summary(timed(lambda: isolated.compile(text, flags=FLAGS), count)),
                         "process_with_timeout": summary(
                             timed(lambda: isolated.compile(text, flags=FLAGS, timeout=60), count))})
    return rows


def _recovery(count: int) -> dict[str, dict[str, float]]:
    text = EMPTY.text
    ordinary, after_fatal, after_crash = [], [], []
    with llvmplug.Plugin(private=True) as local:
        local.compile(text, flags=FLAGS)
        for _ in range(count):
            try:
                local.compile(FATAL_IR, "x86_64-unknown-linux-gnu")
            except llvmplug.FatalError:
                pass
            start = time.perf_counter()
            local.compile(text, flags=FLAGS)
            after_fatal.append(time.perf_counter() - start)
            start = time.perf_counter()
            local.compile(text, flags=FLAGS)
            ordinary.append(time.perf_counter() - start)
    with llvmplug.Plugin(isolation="process") as isolated:
        isolated.compile(text, flags=FLAGS)
        for _ in range(count):
            os.kill(isolated.worker_pid, signal.SIGKILL)
            try:
                isolated.compile(text, flags=FLAGS)
            except llvmplug.WorkerCrashedError:
                pass
            start = time.perf_counter()
            isolated.compile(text, flags=FLAGS)
            after_crash.append(time.perf_counter() - start)
    return {"in process: ordinary call": summary(ordinary),
            "in process: call after a FatalError (reload)": summary(after_fatal),
            "process: call after a crash (new child)": summary(after_crash)}


def run(quick: bool) -> dict[str, Any]:
    if os.name != "posix":
        return {"unavailable": "the crash rows kill the child with POSIX signals"}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", llvmplug.LLVMPlugWarning)
        return {"per_call": _per_call(quick), "recovery": _recovery(5 if quick else 20)}


def markdown(result: dict[str, Any]) -> str:
    if "unavailable" in result:
        return f"## Reliability features: costs per call\n\nNot measured: {result['unavailable']}\n"
    per_call = [[r["module"], f"{r['bytes']:,} B", ms(r["in_process"]["median"]), ms(r["process"]["median"]),
                 ms(r["process"]["median"] - r["in_process"]["median"]),
                 ratio(r["process"]["median"], r["in_process"]["median"]),
                 ms(r["process_with_timeout"]["median"])] for r in result["per_call"]]
    base = result["recovery"]["in process: ordinary call"]["median"]
    recovery = [[name, ms(s["median"]), ratio(s["median"], base)] for name, s in result["recovery"].items()]
    return "\n".join([
        "## Reliability features: costs per call", "",
        "Process isolation against in process (same module, -O2, medians):", "",
        markdown_table(["module", "size", "in process", "process", "overhead", "ratio", "process + timeout"],
                       per_call), "",
        "Recovery (empty module):", "",
        markdown_table(["call", "median", "vs an ordinary in-process call"], recovery), "",
    ])
