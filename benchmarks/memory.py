"""Memory (RSS): per loaded instance, over load/unload and reload cycles, against llvmlite and a worker.

Every figure but the worker's comes from a fresh interpreter (benchmarks/_probe.py).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

import llvmplug

from ._common import FLAGS, markdown_table, mib, probe, rss_bytes
from .corpus import load_corpus, loops

KINDS = {"shared": "Plugin(): load, compile, unload", "private": "Plugin(private=True): load, compile, unload",
         "reload-shared": "Plugin(): compile, reload()", "reload-private": "Plugin(private=True): compile, reload()",
         "empty": "peer: an empty C library: dlopen, call, dlclose"}


def _empty_library(directory: str) -> str | None:
    compiler = shutil.which(os.environ.get("CC", "cc"))
    if compiler is None:
        return None
    source = Path(directory) / "empty.c"
    source.write_text("int empty_function(void) { return 0; }\n")
    library = Path(directory) / "libempty.so"
    subprocess.run([compiler, "-shared", "-fPIC", "-o", str(library), str(source)], check=True)
    return str(library)


def run(quick: bool) -> dict[str, Any]:
    if rss_bytes() is None:
        return {"unavailable": "RSS is not readable here (install psutil)"}
    module, small = loops(16).text, load_corpus(1)[0]
    checkpoints = [10, 50] if quick else [10, 100, 500]
    request = {"what": "instances", "module": module, "count": 2 if quick else 4}
    result: dict[str, Any] = {
        "module": "loops-16", "cycle_module": small.name, "instances": probe(request),
        # Loading as before issue 27 (benchmarks/reset.py), for the row beside this one.
        "instances_previous": probe(request, {"LLVMPLUG_PREVIOUS_LOAD": "1"}),
        "cycles": {}, "skipped": {}}
    with tempfile.TemporaryDirectory(prefix="llvmplug-bench-") as scratch:
        empty = _empty_library(scratch)
        for kind in KINDS:
            if kind == "empty" and empty is None:
                result["skipped"]["empty"] = "no C compiler to build the empty library with"
                continue
            request = {"what": "cycles", "kind": f"empty:{empty}" if kind == "empty" else kind,
                       "module": small.text, "checkpoints": checkpoints}
            rss = probe(request)
            at = {int(k): v for k, v in rss["at"].items()}
            first, last = checkpoints[0], checkpoints[-1]
            result["cycles"][kind] = {"before": rss["before"], "at": at,
                                      "growth_per_cycle": (at[last] - at[first]) / (last - first)}
    try:
        lite = probe({"what": "llvmlite", "module": module})
        result["llvmlite_loaded"] = lite["loaded"] - lite["base"]
    except RuntimeError as error:
        result["skipped"]["llvmlite"] = str(error)
    with llvmplug.Plugin(isolation="process") as isolated:
        isolated.compile(module, flags=FLAGS)
        result["worker_process"] = rss_bytes(isolated.worker_pid)
    return result


def markdown(result: dict[str, Any]) -> str:
    if "unavailable" in result:
        return f"## Memory\n\nNot measured: {result['unavailable']}\n"
    inst, before = result["instances"], result["instances_previous"]
    after = inst["after_each"]

    def per_instance(probed: dict[str, Any]) -> str:
        each = probed["after_each"]
        return "+" + mib((each[-1] - probed["base"]) / len(each)) + (
            f" resident, with {mib(probed['memfd_after_each'][-1] / len(each))} of memfds" if
            probed.get("memfd_after_each") else "")

    rows = [["Python + llvmplug imported, nothing loaded", mib(inst["base"])],
            [f"first private instance, after compiling {result['module']}", "+" + mib(after[0] - inst["base"])],
            [f"per instance, {len(after)} instances", per_instance(inst)],
            [f"per instance, {len(after)} instances, previous design (issue 27: tables and warm-up at load, a "
             "memfd template beside the copies)", per_instance(before)],
            ["after unloading them all", mib(inst["after_unload"])],
            ["llvmlite loaded, after compiling the same", "+" + mib(result["llvmlite_loaded"])
             if "llvmlite_loaded" in result else "n/a"],
            ['the child of Plugin(isolation="process"), after compiling the same', mib(result["worker_process"])]]
    checkpoints = sorted(next(iter(result["cycles"].values()))["at"])
    cycles = [[KINDS[kind], mib(c["before"]), *(mib(c["at"][n]) for n in checkpoints),
               f"{c['growth_per_cycle'] / 1024:+,.1f} KiB"] for kind, c in result["cycles"].items()]
    return "\n".join([
        "## Memory (RSS, each measured in a fresh interpreter)", "",
        markdown_table(["what", "RSS"], rows), "",
        f"RSS over cycles (each compiling the small corpus module {result['cycle_module']}):", "",
        markdown_table(["cycle", "before", *(f"after {n}" for n in checkpoints),
                        f"growth per cycle ({checkpoints[0]}..{checkpoints[-1]})"], cycles), "",
        *(f"Skipped: {key}: {reason}" for key, reason in result["skipped"].items()), "",
    ])
