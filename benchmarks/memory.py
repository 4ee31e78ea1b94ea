"""Memory: RSS per loaded instance, RSS over reload cycles, and a worker process's RSS."""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from ._common import rss_bytes
from .corpus import Module
from .peers import Worker

PROBE = Path(__file__).with_name("_memory_probe.py")


def _probe(request: dict[str, Any]) -> dict[str, Any]:
    done = subprocess.run([sys.executable, str(PROBE), json.dumps(request)], capture_output=True,
                          text=True, cwd=tempfile.gettempdir())
    if done.returncode:
        raise RuntimeError(f"memory probe failed: {done.stderr.strip()[-2000:]}")
    return json.loads(done.stdout)


def run(module: Module, instances: int, cycles: int) -> dict[str, Any]:
    if rss_bytes() is None:
        return {"skipped": "RSS is not readable here (install psutil)"}
    plugin = _probe({"what": "llvmplug", "module": module.text, "instances": instances, "cycles": cycles})
    after = plugin["after_each_instance"]
    result: dict[str, Any] = {
        "module": module.name,
        "llvmplug": plugin,
        "first_instance": after[0] - plugin["base"],
        "per_instance": (after[-1] - plugin["base"]) / len(after),
        "reload_growth_per_cycle": {
            name: (curve[-1] - curve[len(curve) // 5]) / max(1, len(curve) - 1 - len(curve) // 5)
            for name, curve in plugin["reload_curves"].items()
        },
    }
    try:
        lite = _probe({"what": "llvmlite", "module": module.text})
        result["llvmlite_loaded"] = lite["loaded"] - lite["base"]
    except RuntimeError as error:
        result["llvmlite_loaded"] = None
        result["llvmlite_error"] = str(error)
    worker = Worker()
    worker.compile(module.text)
    result["worker_process_rss"] = rss_bytes(worker.pid)
    worker.close()
    return result
