"""The benchmark suite runs (quick mode) and writes a report that parses.

Speed is not checked here (targets live in the report, not in timed tests);
what is checked is that every section produced numbers, that a missing
optional peer is skipped with a reason rather than failing the run, and that
the suite measured the installed llvmplug, not the source tree.
"""

from __future__ import annotations

import importlib.util
import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

CHECKOUT = Path(__file__).resolve().parents[1]


def _run(*args: str, env: dict[str, str] | None = None, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    # cwd is the checkout on purpose: that is how `python -m benchmarks` is
    # run, and benchmarks/__init__.py must keep the source tree's llvmplug out.
    return subprocess.run([sys.executable, "-m", "benchmarks", *args], cwd=CHECKOUT, capture_output=True,
                          text=True, timeout=timeout, env=env)


def test_help() -> None:
    done = _run("--help")
    assert done.returncode == 0, done.stderr
    assert "--quick" in done.stdout and "--out" in done.stdout


def test_missing_toolchain_is_a_reason_not_a_failure(tmp_path: Path) -> None:
    code = (
        "import benchmarks.peers as peers\n"
        "try:\n"
        "    peers.Toolchain('23')\n"
        "except peers.Unavailable as reason:\n"
        "    print('UNAVAILABLE', reason)\n"
    )
    env = {**os.environ, "LLVMPLUG_BENCH_LLVM_BIN": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", code], cwd=CHECKOUT, capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("UNAVAILABLE no opt/llc in " + str(tmp_path))


@pytest.fixture(scope="module")
def quick_report(tmp_path_factory: pytest.TempPathFactory, corpus_files: list[Path]) -> Path:
    out = tmp_path_factory.mktemp("bench")
    env = {**os.environ, "LLVMPLUG_CORPUS": str(corpus_files[0].parent)}
    done = _run("--quick", "--out", str(out), env=env)
    assert done.returncode == 0, done.stderr[-4000:]
    return out


def _finite_positive(value: float) -> bool:
    return isinstance(value, (int, float)) and math.isfinite(value) and value > 0


def test_quick_report_has_every_section(quick_report: Path) -> None:
    results = json.loads((quick_report / "benchmarks.json").read_text())
    markdown = (quick_report / "benchmarks.md").read_text()
    assert results["mode"] == "quick"
    # The installed package, never the checkout's llvmplug/ (which has no shim);
    # CI's venv lives inside the checkout, so compare with that folder exactly.
    assert Path(results["llvmplug"]["path"]) != CHECKOUT / "llvmplug"
    for heading in ("## Targets", "## 1. Compile latency", "## 2. Per-call overhead", "## 3. Reset cost",
                    "## 4. Scaling", "## 5. Memory", "## 6. Artefact size", "## 7. TVM-style"):
        assert heading in markdown

    latency = results["latency"]
    assert {"empty", "corpus"} <= set(latency)
    for size_class in latency.values():
        for key in ("llvmplug", "llvmlite", "llvmplug-cli", "llvmplug-process"):
            assert _finite_positive(size_class["stats"][key]["median"]), key
    # opt|llc is optional (the bench extra): measured, or skipped with a reason.
    if "opt-llc" not in results["backends"]:
        assert results["skipped"]["latency: opt-llc"]

    assert _finite_positive(results["overhead"]["empty"]["python_call"]["median"])
    assert all(_finite_positive(row["median"]) for row in results["reset"]["stats"].values())
    for workload in results["scaling"].values():
        assert all(_finite_positive(row["per_second"]) for row in workload["rows"].values())
    assert _finite_positive(results["memory"]["per_instance"])
    assert _finite_positive(results["artefacts"]["llvmplug"]["installed"])
    assert results["options"]["unroll_threshold_demo"]["same_after_per_call_flag"] is True


def test_quick_report_chart(quick_report: Path) -> None:
    results = json.loads((quick_report / "benchmarks.json").read_text())
    if importlib.util.find_spec("matplotlib") is None:
        assert "chart" in results["skipped"]
        pytest.skip("matplotlib is not installed: the chart is skipped, as the report says")
    assert (quick_report / "benchmarks.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
