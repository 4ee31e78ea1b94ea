"""The benchmark runner runs (quick mode) and writes a report in which every section has numbers.

Speed is not checked here (targets live in the report, not in timed tests);
what is checked is that every registered section produced numbers and its
part of the report, that a missing optional peer is a reason rather than a
failure, that a peer that is not like for like is labelled so, and that the
suite measured the installed llvmplug, not the source tree.
"""

from __future__ import annotations

import importlib.util
import json
import math
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import llvmplug
import pytest

CHECKOUT = Path(__file__).resolve().parents[1]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "benchmarks", *args], cwd=CHECKOUT, capture_output=True, text=True)


def _sections() -> list[str]:
    code = "import benchmarks.__main__ as m, json; print(json.dumps(m.SECTIONS))"
    done = subprocess.run([sys.executable, "-c", code], cwd=CHECKOUT, capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def test_help() -> None:
    done = _run("--help")
    assert done.returncode == 0, done.stderr
    assert "--quick" in done.stdout and "--out" in done.stdout and "--only" in done.stdout


def test_every_registered_section_keeps_the_contract() -> None:
    code = (
        "import importlib, json, inspect, benchmarks.__main__ as m\n"
        "out = {}\n"
        "for name in m.SECTIONS:\n"
        "    module = importlib.import_module('benchmarks.' + name)\n"
        "    out[name] = [list(inspect.signature(module.run).parameters), callable(module.markdown),\n"
        "                 all(callable(getattr(module, hook, callable)) for hook in ('targets', 'chart'))]\n"
        "print(json.dumps(out))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=CHECKOUT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert all(value == [["quick"], True, True] for value in json.loads(done.stdout).values()), done.stdout


def test_missing_toolchain_is_a_reason_not_a_failure(tmp_path: Path) -> None:
    code = (
        "import pathlib, benchmarks.peers as peers\n"
        "try:\n"
        "    peers.OptLLC(pathlib.Path('.'), '23', 'x86_64-unknown-linux-gnu')\n"
        "except peers.Unavailable as reason:\n"
        "    print('UNAVAILABLE', reason)\n"
    )
    env = {**os.environ, "LLVMPLUG_BENCH_LLVM_BIN": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", code], cwd=CHECKOUT, capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("UNAVAILABLE no opt/llc in " + str(tmp_path))


def _numbers(value: Any) -> list[float]:
    """Every number in a nested result."""
    if isinstance(value, bool):
        return []
    if isinstance(value, (int, float)):
        return [value]
    if isinstance(value, dict):
        return [n for item in value.values() for n in _numbers(item)]
    if isinstance(value, list):
        return [n for item in value for n in _numbers(item)]
    return []


def _positive(value: float) -> bool:
    return isinstance(value, (int, float)) and math.isfinite(value) and value > 0


def test_quick_report_has_every_section(benchmark_quick_report: Path) -> None:
    report = json.loads((benchmark_quick_report / "benchmarks.json").read_text())
    markdown = (benchmark_quick_report / "benchmarks.md").read_text()
    assert report["mode"] == "quick"
    # The llvmplug these tests import (the installed package; or, under
    # PYTHONPATH=checkout, the source tree with its shim built in place), not
    # whatever `python -m` run in the checkout would find first.
    assert Path(report["llvmplug"]["path"]) == Path(llvmplug.__file__).parent
    assert list(report["sections"]) == _sections()
    for name, section in report["sections"].items():
        assert "error" not in section, (name, section.get("error"))
        # Numbers, or the reason this machine cannot give them.
        assert any(_positive(n) for n in _numbers(section["result"])) or section["result"]["unavailable"], name
        assert all(math.isfinite(n) for n in _numbers(section["result"])), name
    assert "## Targets" in markdown and "nan" not in markdown
    assert markdown.count("\n## ") >= len(report["sections"]) + 1

    results = {name: section["result"] for name, section in report["sections"].items()}
    for size_class in results["latency"]["classes"].values():
        for key in ("llvmplug", "llvmlite", "llvmplug-cli", "llvmplug-process"):
            assert _positive(size_class["stats"][key]["median"]), key
    # opt | llc is optional (the bench extra): measured, or skipped with a reason.
    assert "opt-llc" in results["latency"]["backends"] or results["latency"]["skipped"]["opt-llc"]
    # PyPI's llvmlite is LLVM 22 with assertions: labelled, in the tables and the verdict.
    assert results["latency"]["backends"]["llvmlite"]["not_comparable"]
    assert "**not comparable**" in markdown
    # The reset verdict scores the first result, as the reset section defines it.
    assert "until the first result" in markdown.split("## Targets")[1].split("\n## ")[0]
    # Issue 13: every target is a row of the one table, beside its peer or the previous design.
    table = markdown.split("## Targets")[1].split("\n## ")[0]
    for row in ("| 2 threads on llvmplug.compile >= 1.8x of 1 thread |", "| compile_parts(parts=2) >= 1.6x",
                "| cache hit in memory <= 50 µs", "| standby reset at least 50x faster",
                "| empty module to object at -O2 <= 0.5 ms |", "| empty module to bitcode at -O2 <= 30 us |",
                "| 2 threads on one copy >= 1.8x of 1 thread (NVPTX module) |"):
        assert row in table, row
    assert "previous design (llvmplug.reset()" in table
    floor = results["throughput"]["floor"]
    for design in ("now", "thread"):
        assert floor[design]["-O2"] > 0 and floor[design]["-O2 -passes="] > 0 and floor[design]["-O2 bc"] > 0
    parallel = results["parallel"]
    assert parallel["outputs_independent_of_threads"]
    assert all(row["seconds"] > 0 for row in parallel["rows"].values())
    # libNVVM reads another IR dialect: labelled, when the GPU section could run at all.
    if "unavailable" not in results["gpu"]:
        assert "libNVVM is not comparable" in table and "libNVVM (nvvmCompileProgram) (**not comparable**" in markdown


def test_quick_report_chart(benchmark_quick_report: Path) -> None:
    if importlib.util.find_spec("matplotlib") is None:
        pytest.skip("matplotlib is not installed: no chart")
    assert (benchmark_quick_report / "latency.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "![latency](latency.png)" in (benchmark_quick_report / "benchmarks.md").read_text()
