"""Throughput with one and two private instances (threads) and with a pool of two processes.

Each configuration runs for a fixed time: every lane (a thread with its own
compiler) compiles modules from the workload in turn until the deadline;
throughput is modules finished per second of wall time.
"""

from __future__ import annotations

from typing import Any, Callable

import llvmplug

from ._common import throughput
from .corpus import Module
from .peers import FLAGS, Worker

Compile = Callable[[str], Any]


def _pool_lanes() -> tuple[list[Compile], Callable[[], None], str]:
    """Two process lanes: llvmplug.Pool(2, isolation="process"), else the benchmark's own workers."""
    pool_class = getattr(llvmplug, "Pool", None)
    if pool_class is not None:
        pool = pool_class(2, isolation="process")
        return ([lambda text: pool.compile(text, flags=FLAGS)] * 2, pool.close,
                'llvmplug.Pool(2, isolation="process"), 2 threads submitting')
    workers = [Worker(), Worker()]
    return ([w.compile for w in workers], lambda: [w.close() for w in workers] and None,
            "two benchmark workers (this llvmplug has no Pool)")


def _combined(slices: list[dict[str, Any]]) -> dict[str, Any]:
    modules = sum(r["modules"] for r in slices)
    seconds = sum(r["seconds"] for r in slices)
    cpu = sum(r["cores_used"] * r["seconds"] for r in slices)
    return {"lanes": slices[0]["lanes"], "modules": modules, "seconds": seconds, "per_second": modules / seconds,
            "cores_used": cpu / seconds, "per_cpu_second": modules / cpu if cpu else None,
            "slices": [r["per_second"] for r in slices]}


def run(workloads: dict[str, list[Module]], seconds: float, slices: int, progress: Any) -> dict[str, Any]:
    """Every configuration runs ``slices`` times for ``seconds / slices``, the
    configurations taking turns, so that a change in the machine's load
    (other processes) hits them all alike."""
    result: dict[str, Any] = {}
    privates = [llvmplug.Plugin(private=True), llvmplug.Plugin(private=True)]

    def on(plugin: llvmplug.Plugin) -> Compile:
        return lambda text: plugin.compile(text, flags=FLAGS)

    configurations: dict[str, tuple[list[Compile], str | None]] = {
        "1 private instance": ([on(privates[0])], None),
        "2 private instances": ([on(p) for p in privates], None),
        "1 instance, 2 threads": ([on(privates[0])] * 2, None),
    }
    closers: list[Callable[[], None]] = [lambda: [p.unload() for p in privates] and None]
    try:
        pool_class = getattr(llvmplug, "Pool", None)
        if pool_class is not None:
            pool = pool_class(2)
            closers.append(pool.close)
            configurations["llvmplug.Pool(2), threads"] = (
                [lambda text: pool.compile(text, flags=FLAGS)] * 2, "2 private instances behind the Pool API")
        lanes, close, label = _pool_lanes()
        closers.append(close)
        configurations["process pool of 2"] = (lanes, label)
        for name, workload in workloads.items():
            measured: dict[str, list[dict[str, Any]]] = {key: [] for key in configurations}
            for _ in range(slices):
                for key, (lanes, _how) in configurations.items():
                    measured[key].append(throughput(lanes, [m.text for m in workload], seconds / slices))
            rows = {}
            for key, (_lanes, how) in configurations.items():
                rows[key] = _combined(measured[key])
                if how:
                    rows[key]["how"] = how
            progress(f"scaling {name}: " + ", ".join(f"{k} {v['per_second']:.1f}/s" for k, v in rows.items()))
            result[name] = {"modules": [m.name for m in workload], "rows": rows}
    finally:
        for close in closers:
            close()
    return result
