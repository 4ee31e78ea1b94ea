"""benchmarks/soak.py runs end to end (the RSS slope itself is a benchmark result, not a test)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

CHECKOUT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("isolation", ["none", "process"])
def test_soak_runs_and_reports_a_slope(tmp_path, isolation, corpus_files):
    out = tmp_path / "soak.json"
    # benchmarks/__init__.py drops the checkout from sys.path, so this runs
    # against the installed llvmplug although it starts in the checkout.
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks.soak", "--compiles", "600", "--sample-every", "100",
         "--fatal-rate", "0.03", "--reload-rate", "0.01", "--isolation", isolation, "--json", str(out)],
        cwd=CHECKOUT, capture_output=True, text=True, timeout=600,
        env={**os.environ, "LLVMPLUG_CORPUS": str(corpus_files[0].parent)},
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "| RSS slope, 2nd half |" in done.stdout
    result = json.loads(out.read_text())
    counts = result["counts"]
    assert counts["compiles"] == 600
    assert counts["fatal"] > 0 and counts["reloads"] > 0 and counts["errors"] > 0
    assert len(result["samples"]) == 7 and all(s["rss"] for s in result["samples"])
    if isolation == "process":
        assert all(s["child_rss"] for s in result["samples"])
