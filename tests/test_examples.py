"""The examples in examples/ run as written."""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def test_quickstart_runs():
    result = subprocess.run([sys.executable, str(EXAMPLES / "quickstart.py")], capture_output=True,
                            text=True, timeout=120, cwd=tempfile.gettempdir())
    assert result.returncode == 0, result.stderr
    assert "triangle(100) = 4950" in result.stdout
    assert "did you mean -unroll-max-count?" in result.stdout
