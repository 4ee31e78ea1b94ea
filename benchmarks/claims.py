"""The measured figures quoted in README.md and docs/*.md, generated from one benchmark report.

A figure in the prose is written between markers::

    Reset then takes <!-- bench:standby_reset -->1.35 ms<!-- /bench -->.

and ``python -m benchmarks --out docs --update-docs`` (or, from an existing
report, ``python -m benchmarks.claims docs/benchmarks.json``) rewrites the
text between them from the report, so the README, the docs and
docs/benchmarks.md always quote the same run. ``tests/test_docs_numbers.py``
fails when a marked figure disagrees with the committed report, and when a
figure with a unit of measurement appears outside the markers.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ._common import mib, ms

ROOT = Path(__file__).resolve().parent.parent
# The files whose figures are generated (docs/benchmarks.md is the report itself).
DOCUMENTS = [ROOT / "README.md", *sorted(p for p in (ROOT / "docs").glob("*.md") if p.name != "benchmarks.md")]
MARKER = re.compile(r"<!-- bench:([a-z0-9_]+) -->(.*?)<!-- /bench -->", re.S)


def _section(report: dict[str, Any], name: str) -> dict[str, Any]:
    entry = report["sections"].get(name, {})
    if "result" not in entry:
        raise KeyError(f"the report has no result for section {name!r}")
    return entry["result"]


def _median(rows: dict[str, Any], name: str) -> float:
    return rows[name]["median"]


def _reset(report: dict[str, Any], name: str) -> float:
    return _median(_section(report, "reset")["first_result"], name)


def _gpu(report: dict[str, Any], name: str) -> float:
    return _median(_section(report, "gpu")["rows"], name)


def _instances(report: dict[str, Any], name: str) -> dict[str, Any]:
    return _section(report, "throughput")["instances"]["corpus modules"][name]


CLAIMS: dict[str, Callable[[dict[str, Any]], str]] = {
    "standby_reset": lambda r: ms(_reset(r, "Plugin(private=True, standby=True).reload()")),
    "plain_reset": lambda r: ms(_reset(r, "Plugin(private=True).reload()")),
    "process_standby_reset": lambda r: ms(_reset(r, 'Plugin(isolation="process", standby=True).reload()')),
    "fresh_worker": lambda r: ms(_reset(r, "fresh worker process (start Python, import llvmplug, load)")),
    "standby_memory": lambda r: mib(_section(r, "reset")["rss"]["standby"] - _section(r, "reset")["rss"]["plain"]),
    "cache_hit": lambda r: ms(_median(_section(r, "cache")["rows"], "hit in memory")),
    "copy_memory": lambda r: mib((_section(r, "memory")["instances"]["after_each"][1]
                                  - _section(r, "memory")["instances"]["after_each"][0])),
    "worker_memory": lambda r: mib(_section(r, "memory")["worker_process"]),
    "shim_size": lambda r: mib(_section(r, "artefacts")["llvmplug"]["stripped"]),
    "llvmlite_size": lambda r: mib(_section(r, "artefacts")["llvmlite"]["stripped"]),
    "gpu_latency": lambda r: ms(_gpu(r, "llvmplug")),
    "gpu_libnvvm": lambda r: ms(_gpu(r, "libNVVM (nvvmCompileProgram)")),
    "floor_obj": lambda r: ms(_section(r, "throughput")["floor"]["now"]["-O2"]),
    "llc_floor": lambda r: ms(_section(r, "throughput")["floor"]["llvm"]["-O2 -passes="]),
    "two_threads": lambda r: f"{_section(r, 'throughput')['threads']['ratio']:.2f}x",
    "two_instances": lambda r: f"{_instances(r, '2 private instances')['per_second'] / _instances(r, '1 private instance')['per_second']:.2f}x",
}


def render(text: str, report: dict[str, Any]) -> str:
    """``text`` with every marked figure rewritten from ``report``; unknown keys raise KeyError."""
    def replace(match: re.Match[str]) -> str:
        key = match.group(1)
        if key not in CLAIMS:
            raise KeyError(f"unknown figure <!-- bench:{key} --> (benchmarks/claims.py lists them)")
        return f"<!-- bench:{key} -->{CLAIMS[key](report)}<!-- /bench -->"

    return MARKER.sub(replace, text)


def update(report: dict[str, Any]) -> list[Path]:
    """Rewrite the marked figures of README.md and docs/*.md; returns the files that changed."""
    changed = []
    for path in DOCUMENTS:
        text = path.read_text()
        new = render(text, report)
        if new != text:
            path.write_text(new)
            changed.append(path)
    return changed


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m benchmarks.claims REPORT.json  (rewrites the figures of README.md and docs/*.md)",
              file=sys.stderr)
        return 2
    for path in update(json.loads(Path(argv[0]).read_text())):
        print(f"updated {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
