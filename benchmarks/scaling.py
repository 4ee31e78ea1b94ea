"""Throughput: one and two private instances, one instance on two threads, and the two Pools.

Each configuration runs for a fixed time: every lane (a thread with its compile
function) compiles the workload's modules in turn until the deadline;
throughput is modules finished per wall-clock second. Configurations take
turns in slices, so that a change in the machine's load hits them alike.
"""

from __future__ import annotations

from typing import Any, Callable

import llvmplug

from ._common import FLAGS, markdown_table, progress, throughput
from .corpus import load_corpus, loops

TARGET = 1.7  # two private instances against one, on two cores
# Where the compiles run in threads or processes the lanes do not own, the
# lanes' CPU time says nothing: those rows show n/a for it.
FOREIGN = {"llvmplug.Pool(2)", 'llvmplug.Pool(2, isolation="process")'}


def run(quick: bool) -> dict[str, Any]:
    seconds, slices = (1.0, 1) if quick else (10.0, 5)
    workloads = {"corpus modules": [m.text for m in load_corpus()], "loops-16": [loops(16).text]}
    privates = [llvmplug.Plugin(private=True), llvmplug.Plugin(private=True)]
    pools = [llvmplug.Pool(2), llvmplug.Pool(2, isolation="process")]

    def on(compiler: Any) -> Callable[[str], Any]:
        return lambda text: compiler.compile(text, flags=FLAGS)

    configurations = {
        "1 private instance": [on(privates[0])],
        "2 private instances": [on(p) for p in privates],
        "1 instance, 2 threads": [on(privates[0])] * 2,
        "llvmplug.Pool(2)": [on(pools[0])] * 2,
        'llvmplug.Pool(2, isolation="process")': [on(pools[1])] * 2,
    }
    result: dict[str, Any] = {}
    try:
        for name, workload in workloads.items():
            runs: dict[str, list[dict[str, Any]]] = {key: [] for key in configurations}
            for _ in range(slices):
                for key, lanes in configurations.items():
                    runs[key].append(throughput(lanes, workload, seconds / slices))
            rows = {}
            for key, parts in runs.items():
                modules, wall = sum(r["modules"] for r in parts), sum(r["seconds"] for r in parts)
                cpu = sum(r["cores_used"] * r["seconds"] for r in parts)
                rows[key] = {"lanes": len(configurations[key]), "modules": modules, "seconds": wall,
                             "per_second": modules / wall, "cores_used": cpu / wall,
                             "per_cpu_second": modules / cpu if cpu else None}
            progress(f"scaling {name}: " + ", ".join(f"{k} {v['per_second']:.1f}/s" for k, v in rows.items()))
            result[name] = rows
    finally:
        for plugin in privates:
            plugin.unload()
        for pool in pools:
            pool.close()
    return result


def targets(result: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for name, rows in result.items():
        one, two = rows["1 private instance"], rows["2 private instances"]
        factor = two["per_second"] / one["per_second"]
        out.append({
            "target": f"2 private instances >= {TARGET}x the throughput of 1 on 2 cores ({name})",
            "measured": f"{factor:.2f}x", "met": factor >= TARGET,
            "note": "" if factor >= TARGET else (
                f"the two lanes got {two['cores_used']:.2f} cores of CPU time (one lane: {one['cores_used']:.2f}); "
                f"per CPU-second two instances did {two['per_cpu_second'] / one['per_cpu_second']:.2f}x the work "
                "of one"),
        })
    return out


def markdown(result: dict[str, Any]) -> str:
    out = ["## Scaling (throughput, modules per second)", ""]
    for name, rows in result.items():
        one = rows["1 private instance"]["per_second"]
        table = [[key, f"{r['per_second']:.1f}", f"{r['per_second'] / one:.2f}x",
                  "n/a" if key in FOREIGN else f"{r['cores_used']:.2f}",
                  "n/a" if key in FOREIGN or not r["per_cpu_second"] else f"{r['per_cpu_second']:.1f}"]
                 for key, r in rows.items()]
        out += [f"Workload: {name}.", "", markdown_table(
            ["configuration", "modules/s", "vs 1 instance", "cores used", "modules per CPU-second"], table), ""]
    out += ["'cores used' = CPU time of the compiling threads per wall second: below 2 for two lanes means the "
            "machine did not give them two cores, so no ratio can reach 2. 'modules per CPU-second' does not "
            "depend on that: it would drop below the one-instance figure if two instances slowed each other "
            "down. One instance serialises its calls (LLVM's options are global to a loaded copy), so two "
            "threads on one instance do not scale; the Pools' lanes are two threads submitting.", ""]
    return "\n".join(out)
