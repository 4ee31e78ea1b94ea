"""Recovery: the call after a fatal error (in process: a reload) or a crash (process isolation: a new child).

Both against an ordinary in-process call of the same run. What process
isolation costs per call is in the latency section, starting a child in the
reset section, pools in the throughput section.
"""

from __future__ import annotations

import os
import signal
import warnings
from typing import Any

import llvmplug

from ._common import FLAGS, markdown_table, ms, once, ratio, summary
from .corpus import EMPTY, FATAL_IR


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
            after_fatal.append(once(lambda: local.compile(text, flags=FLAGS)))
            ordinary.append(once(lambda: local.compile(text, flags=FLAGS)))
    with llvmplug.Plugin(isolation="process") as isolated:
        isolated.compile(text, flags=FLAGS)
        for _ in range(count):
            os.kill(isolated.worker_pid, signal.SIGKILL)
            try:
                isolated.compile(text, flags=FLAGS)
            except llvmplug.WorkerCrashedError:
                pass
            after_crash.append(once(lambda: isolated.compile(text, flags=FLAGS)))
    return {"in process: ordinary call": summary(ordinary),
            "in process: call after a FatalError (reload)": summary(after_fatal),
            "process: call after a crash (new child)": summary(after_crash)}


def run(quick: bool) -> dict[str, Any]:
    if os.name != "posix":
        return {"unavailable": "the crash rows kill the child with POSIX signals"}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", llvmplug.LLVMPlugWarning)
        return _recovery(5 if quick else 20)


def markdown(result: dict[str, Any]) -> str:
    if "unavailable" in result:
        return f"## Recovery after a fatal error or a crash\n\nNot measured: {result['unavailable']}\n"
    base = result["in process: ordinary call"]["median"]
    return "\n".join([
        "## Recovery after a fatal error or a crash", "", "The next call, on an empty module:", "",
        markdown_table(["call", "median", "p95", "vs an ordinary in-process call"],
                       [[name, ms(s["median"]), ms(s["p95"]), ratio(s["median"], base)] for name, s in result.items()]),
        ""])
