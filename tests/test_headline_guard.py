"""tests/conftest.py's guard: under CI=true a skipped headline test fails the run."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent

SKIPPING = """
import pytest

def test_needs_what_is_missing():
    pytest.skip("prerequisite missing")

@pytest.mark.xfail(strict=True, reason="known")
def test_expected_failure():
    assert False
"""


def _run(tmp_path: Path, name: str, ci: str | None) -> subprocess.CompletedProcess[str]:
    shutil.copy(HERE / "conftest.py", tmp_path / "conftest.py")
    (tmp_path / name).write_text(SKIPPING)
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    if ci is not None:
        env["CI"] = ci
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rs", str(tmp_path)],
                          cwd=tmp_path, capture_output=True, text=True, env=env, timeout=300)


@pytest.mark.parametrize("ci", ["true", "1"])
def test_a_headline_skip_fails_under_ci(tmp_path, ci):
    done = _run(tmp_path, "test_soak.py", ci)
    assert done.returncode == 1, done.stdout
    assert "1 failed, 1 xfailed" in done.stdout, done.stdout
    assert "headline test skipped under CI=true" in done.stdout and "prerequisite missing" in done.stdout


def test_a_headline_skip_is_listed_outside_ci(tmp_path):
    done = _run(tmp_path, "test_soak.py", None)
    assert done.returncode == 0, done.stdout
    assert "1 skipped, 1 xfailed" in done.stdout
    assert "HEADLINE TESTS SKIPPED (1;" in done.stdout


def test_other_skips_stay_skips_under_ci(tmp_path):
    done = _run(tmp_path, "test_something_else.py", "true")
    assert done.returncode == 0, done.stdout
    assert "1 skipped, 1 xfailed" in done.stdout
