"""Nothing LLVM prints reaches the caller's stdout (fd 1) in process.

Some LLVM options print to outs() in the middle of a compile
(-x86-lvi-load-dot-verify prints a dot graph). The shim's own write()
(csrc/options/capture.cpp, Linux) sends every write of its LLVM to fd 1 to the active
capture or else to fd 2. Elsewhere the safe policy refuses every printing
option, which test_policy.py checks.
"""

from __future__ import annotations

import subprocess
import tempfile
import sys
from pathlib import Path

import llvmplug
import pytest

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="the fd 1 redirect is Linux-only (capture.cpp)")

IR = (Path(__file__).resolve().parent / "data" / "lvi-loop.ll").read_text()
PRINTING = ["-mattr=+lvi-load-hardening", "-x86-lvi-load-dot-verify"]

SCRIPT = f"""
import llvmplug
with llvmplug.Plugin(private=True, policy="all") as plugin:
    plugin.compile({IR!r}, flags={PRINTING!r})
"""


def test_printing_option_in_process_leaves_stdout_empty(tmp_path):
    out = tmp_path / "stdout"
    with out.open("wb") as stdout:
        result = subprocess.run(
            [sys.executable, "-c", SCRIPT], stdout=stdout, stderr=subprocess.PIPE, cwd=tempfile.gettempdir(), timeout=120
        )
    assert result.returncode == 0, result.stderr.decode()
    assert out.read_bytes() == b""
    assert b"digraph" in result.stderr  # the option did print: to stderr, not stdout


def test_cli_writes_a_valid_object_to_stdout_with_a_printing_flag():
    result = subprocess.run(
        [sys.executable, "-m", "llvmplug", "compile", "-", "-o", "-", "--options", "all", *PRINTING],
        input=IR.encode(), capture_output=True, cwd=tempfile.gettempdir(), timeout=120,
    )
    assert result.returncode == 0, result.stderr.decode()
    with llvmplug.Plugin(private=True, policy="all") as plugin:
        expected = plugin.compile(IR, flags=PRINTING)
    assert result.stdout == expected and expected.startswith(b"\x7fELF")


def test_cli_refuses_a_printing_flag_by_default():
    result = subprocess.run(
        [sys.executable, "-m", "llvmplug", "compile", "-", "-o", "-", *PRINTING],
        input=IR.encode(), capture_output=True, cwd=tempfile.gettempdir(), timeout=120,
    )
    assert result.returncode == 1 and result.stdout == b""
    assert b"OptionError" in result.stderr and b"x86-lvi-load-dot-verify" in result.stderr
