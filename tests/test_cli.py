"""The llvmplug command, run as a user runs it."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parent / "data"


def run(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    # Run outside the checkout so that -m finds the installed package, not the source tree.
    return subprocess.run([sys.executable, "-m", "llvmplug", *args], input=stdin, capture_output=True,
                          timeout=120, cwd=tempfile.gettempdir())


def test_console_script_is_installed():
    script = shutil.which("llvmplug", path=str(Path(sys.executable).parent))
    assert script
    result = subprocess.run([script, "info"], capture_output=True, timeout=120)
    assert result.returncode == 0 and b"LLVM 23." in result.stdout


def test_compile_file_to_object(tmp_path):
    out = tmp_path / "arith.o"
    result = run("compile", str(DATA / "arith.ll"), "-o", str(out), "-O3", "-relocation-model=pic")
    assert result.returncode == 0, result.stderr.decode()
    assert out.read_bytes()[:4] == b"\x7fELF"


def test_default_output_name(tmp_path):
    source = tmp_path / "arith.ll"
    shutil.copy(DATA / "arith.ll", source)
    result = run("compile", str(source), "--emit", "bc")
    assert result.returncode == 0, result.stderr.decode()
    assert (tmp_path / "arith.bc").read_bytes()[:2] == b"BC"


def test_stdin_to_stdout_with_llvm_flags():
    result = run("compile", "-", "--emit", "asm", "-x86-asm-syntax=intel", "-optimize-regalloc",
                 stdin=(DATA / "arith.ll").read_bytes())
    assert result.returncode == 0, result.stderr.decode()
    assert result.stdout.startswith(b"\t.intel_syntax")


def test_target_option(tmp_path):
    out = tmp_path / "arith.obj"
    result = run("compile", str(DATA / "arith.ll"), "--target", "x86_64-pc-windows-msvc", "-o", str(out))
    assert result.returncode == 0, result.stderr.decode()
    assert out.read_bytes()[:2] == b"\x64\x86"


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["-mcpu=nosuchcpu"], "TargetError: unknown CPU 'nosuchcpu'"),
        (["-nosuchflag"], "OptionError: unknown option '-nosuchflag'"),
        (["--target", "mips-linux-gnu"], "TargetError"),
    ],
)
def test_errors_exit_nonzero_with_message(args, words, tmp_path):
    result = run("compile", str(DATA / "arith.ll"), "-o", str(tmp_path / "x.o"), *args)
    assert result.returncode == 1
    assert words in result.stderr.decode()
    assert not (tmp_path / "x.o").exists()


def test_parse_error_and_missing_file(tmp_path):
    bad = tmp_path / "bad.ll"
    bad.write_text("define i32 @f() {\n  ret i64 0\n}\n")
    result = run("compile", str(bad))
    assert result.returncode == 1 and "ParseError" in result.stderr.decode() and ":2:" in result.stderr.decode()
    result = run("compile", str(tmp_path / "missing.ll"))
    assert result.returncode == 1 and "missing.ll" in result.stderr.decode()


def test_usage_errors_and_help():
    assert run().returncode == 2
    assert run("compile").returncode == 2
    assert run("compile", str(DATA / "arith.ll"), "--emit", "exe").returncode == 2
    help_text = run("compile", "--help").stdout.decode()
    assert "LLVM flags" in help_text and "-passes=" in help_text


def test_info_and_options():
    result = run("info")
    assert result.returncode == 0 and "LLVM 23." in result.stdout.decode()
    info = json.loads(run("info", "--json").stdout)
    assert info["llvm_version"].startswith("23.")
    options = run("options", "x86-asm-syntax").stdout.decode()
    assert options.startswith("value  -x86-asm-syntax <enum> = att")  # class column first
