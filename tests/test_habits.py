"""The project's habits as tests: ruff (lint and format) and mypy over llvmplug/.

Configured in pyproject.toml ([tool.ruff], [tool.mypy]); .pre-commit-config.yaml
runs the same checks on commit. Here they are part of the README's test command,
so a violation fails CI without a second command to forget. tests/conftest.py
runs this file first and, under CI=true, stops the session when it fails: a
violation fails CI in seconds, not after the whole suite.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

CHECKS = {
    "ruff check": ("ruff", ["check", "llvmplug"]),
    "ruff format": ("ruff", ["format", "--check", "--diff", "llvmplug"]),
    "mypy": ("mypy", ["llvmplug"]),
}


@pytest.mark.parametrize("name", list(CHECKS))
def test_habit(name: str) -> None:
    tool, args = CHECKS[name]
    if not (ROOT / "pyproject.toml").is_file():
        pytest.skip("no source checkout next to the tests (an installed wheel's test run)")
    if importlib.util.find_spec(tool) is None:
        pytest.skip(f"{tool} is not installed (the test extra has it: pip install '.[test]')")
    done = subprocess.run([sys.executable, "-m", tool, *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=600)
    if done.returncode != 0:
        pytest.fail(f"`{tool} {' '.join(args)}` failed:\n{done.stdout[-8000:]}{done.stderr[-4000:]}", pytrace=False)
