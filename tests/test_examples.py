"""The examples in examples/ run as written."""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def test_quickstart_runs():
    result = subprocess.run([sys.executable, str(EXAMPLES / "quickstart.py")], capture_output=True,
                            text=True, timeout=120, cwd=tempfile.gettempdir())
    assert result.returncode == 0, result.stderr
    assert "triangle(100) = 4950" in result.stdout
    assert "did you mean -unroll-max-count?" in result.stdout


def test_run_with_orcjit_runs():
    """IR to running code with llvmplug and tvm-ffi-orcjit, no system toolchain (the `run` extra)."""
    pytest.importorskip("tvm_ffi_orcjit", reason="apache-tvm-ffi-orcjit is in the test and run extras")
    result = subprocess.run([sys.executable, str(EXAMPLES / "run_with_orcjit.py")], capture_output=True,
                            text=True, timeout=120, cwd=tempfile.gettempdir())
    assert result.returncode == 0, result.stderr
    assert "add_one(41) = 42" in result.stdout
    assert "scale(arange(8), 0.5) = [0.  0.5 1.  1.5 2.  2.5 3.  3.5]" in result.stdout
    assert "raised TypeError: scale(x, factor) takes a contiguous 1-D float32 tensor" in result.stdout


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the demonstration runs on Linux only")
def test_why_hidden_symbols_checks_it_can_build_before_it_says_so():
    result = subprocess.run([sys.executable, str(EXAMPLES / "why_hidden_symbols.py"), "--sdk", "/nonexistent"],
                            capture_output=True, text=True, timeout=120, cwd=tempfile.gettempdir())
    assert result.returncode == 1
    assert "building" not in result.stdout
    assert "/nonexistent is no LLVM SDK" in result.stderr


def test_gpu_and_host_uses_llvmplugs_libdevice():
    """The example shows the API (llvmplug.libdevice()), not a finder of its own to keep in step with it."""
    source = (EXAMPLES / "gpu_and_host.py").read_text()
    assert "llvmplug.libdevice()" in source and "libdevice.10.bc" not in source
