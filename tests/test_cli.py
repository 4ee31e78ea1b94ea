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
        (["--target", "m68k-linux-gnu"], "TargetError"),  # an experimental backend: never linked
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
    assert result.stderr.decode().startswith("llvmplug: FileNotFoundError: ")  # like every other error


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
    assert options.startswith("-x86-asm-syntax <enum> = att")


@pytest.mark.parametrize(("typo", "meant"), [("--emmit", "--emit"), ("--targt", "--target"), ("--isolaton", "--isolation")])
def test_a_mistyped_long_option_names_the_mistake_and_the_closest_option(typo, meant):
    result = run("compile", str(DATA / "arith.ll"), typo, "asm")
    assert result.returncode == 2
    assert f"unknown option {typo} (did you mean {meant}?)" in result.stderr.decode()
    assert "OptionError" not in result.stderr.decode()  # not handed to LLVM as one of its flags


@pytest.mark.skipif(sys.platform == "win32", reason="a pseudo-terminal")
def test_binary_output_is_not_written_to_a_terminal(tmp_path):
    import os
    import pty

    master, slave = pty.openpty()
    try:
        result = subprocess.run([sys.executable, "-m", "llvmplug", "compile", "-"], stdin=open(DATA / "arith.ll", "rb"),
                                stdout=slave, stderr=subprocess.PIPE, timeout=120, cwd=tempfile.gettempdir())
        os.set_blocking(master, False)
        try:
            written = os.read(master, 1 << 16)
        except BlockingIOError:
            written = b""
    finally:
        os.close(master)
        os.close(slave)
    assert result.returncode == 1
    assert b"ELF" not in written
    assert "not writing obj output (binary) to the terminal" in result.stderr.decode()
    # Text output, or an explicit -o -, still goes to the terminal.
    with_o = run("compile", "-", "-o", "-", stdin=(DATA / "arith.ll").read_bytes())
    assert with_o.returncode == 0 and with_o.stdout[:4] == b"\x7fELF"


@pytest.mark.skipif(sys.platform == "win32", reason="SIGPIPE")
def test_a_closed_pipe_ends_quietly():
    process = subprocess.Popen([sys.executable, "-m", "llvmplug", "options"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, cwd=tempfile.gettempdir())
    assert process.stdout.readline().startswith(b"-")
    process.stdout.close()  # as | head does once it has its lines
    stderr = process.stderr.read()
    process.stderr.close()
    assert process.wait(timeout=120) == 141
    assert stderr == b""  # no traceback, no "Exception ignored" message


def test_isolation_and_options_choices(tmp_path):
    in_process = run("compile", str(DATA / "arith.ll"), "--emit", "asm", "-o", "-")
    isolated = run("compile", str(DATA / "arith.ll"), "--emit", "asm", "-o", "-", "--isolation", "process")
    assert isolated.returncode == 0 and isolated.stdout == in_process.stdout
    trusted = run("compile", str(DATA / "arith.ll"), "--emit", "asm", "-o", "-", "--options", "all")
    assert trusted.returncode == 0 and trusted.stdout == in_process.stdout
    for bad in (["--isolation", "thread"], ["--options", "none"]):
        result = run("compile", str(DATA / "arith.ll"), *bad)
        assert result.returncode == 2 and "invalid choice" in result.stderr.decode()


def test_link_files_are_read_and_errors_named(tmp_path):
    missing = run("compile", str(DATA / "arith.ll"), "--link", str(tmp_path / "nolib.bc"), "-o", str(tmp_path / "x.o"))
    assert missing.returncode == 1 and "FileNotFoundError" in missing.stderr.decode()
    main = tmp_path / "main.ll"
    main.write_text("declare i64 @helper(i64)\ndefine i64 @entry(i64 %x) {\n  %y = call i64 @helper(i64 %x)\n  ret i64 %y\n}\n")
    helper = tmp_path / "helper.ll"
    helper.write_text("define i64 @helper(i64 %x) {\n  %y = add i64 %x, 41\n  ret i64 %y\n}\n")
    unused = tmp_path / "unused.ll"
    unused.write_text("define i64 @unused(i64 %x) {\n  ret i64 %x\n}\n")
    result = run("compile", str(main), "--link", str(helper), "--link", str(unused), "--emit", "ll", "-o", "-",
                 "-passes=")
    assert result.returncode == 0, result.stderr.decode()
    assert b"add i64 %x, 41" in result.stdout and b"@unused" not in result.stdout  # only what is referenced
    twice = run("compile", str(main), "--link", str(helper), "--link", str(helper), "-o", str(tmp_path / "y.o"))
    assert twice.returncode == 1 and "LinkError" in twice.stderr.decode() and "helper" in twice.stderr.decode()


def test_info_target():
    result = run("info", "--target", "x86_64-unknown-linux-gnu")
    assert result.returncode == 0, result.stderr.decode()
    assert "x86-64" in result.stdout.decode() and "skylake" in result.stdout.decode()


def test_options_show_what_the_safe_policy_refuses():
    result = run("options", "stack-usage-file", "--json")
    (option,) = json.loads(result.stdout)
    assert option["class"] == "file"
    listed = run("options", "stack-usage-file").stdout.decode()
    assert f"[refused by default: {option['class']}, {option['reason']}]" in listed
    plain = run("options", "x86-asm-syntax").stdout.decode()
    assert "refused by default" not in plain


# -- never destroys input, speaks its own language ---------------------------------


def test_an_input_is_never_written_over(tmp_path):
    source = tmp_path / "X.ll"
    shutil.copy(DATA / "arith.ll", source)
    helper = tmp_path / "helper.ll"
    helper.write_text("define i64 @helper(i64 %x) {\n  ret i64 %x\n}\n")
    original = source.read_bytes(), helper.read_bytes()
    (tmp_path / "alias.ll").symlink_to(source)
    if hasattr(__import__("os"), "link"):
        __import__("os").link(source, tmp_path / "hard.ll")
    cases = [
        ([str(source), "--emit", "ll"], source),  # the default output name is the input's own
        ([str(source), "-o", str(source)], source),
        ([str(source), "-o", str(tmp_path / "." / "X.ll"), "--emit", "bc"], source),
        ([str(source), "-o", str(tmp_path / "alias.ll")], source),  # a symlink to the input
        ([str(source), "-o", str(tmp_path / "hard.ll")], source),  # a hard link: the same inode
        ([str(source), "--link", str(helper), "-o", str(helper)], helper),
    ]
    for args, victim in cases:
        result = run("compile", *args)
        assert result.returncode == 2, (args, result.stderr.decode())
        message = result.stderr.decode()
        assert "never writes over an input" in message and victim.name in message, message
    assert (source.read_bytes(), helper.read_bytes()) == original


def test_version():
    result = run("--version")
    assert result.returncode == 0, result.stderr.decode()
    first, second = result.stdout.decode().splitlines()[:2]
    assert first.startswith("llvmplug ") and second.startswith("LLVM 23.")


def test_messages_speak_the_command_lines_language(tmp_path):
    out = str(tmp_path / "x.o")
    refused = run("compile", str(DATA / "arith.ll"), "-o", out, "-stack-usage-file=x").stderr.decode()
    assert "allowed only with --options all" in refused and "Plugin(" not in refused
    triple = run("compile", str(DATA / "arith.ll"), "-o", out, "--target", "m68k-linux-gnu").stderr.decode()
    assert "unable to get target for 'm68k-unknown-linux-gnu'" in triple and "--version" not in triple
    cpu = run("compile", str(DATA / "arith.ll"), "-o", out, "-mcpu=skylakee").stderr.decode()
    assert "did you mean skylake?" in cpu


def test_a_parse_error_names_the_file(tmp_path):
    bad = tmp_path / "bad.ll"
    bad.write_text("define i32 @f() {\n  ret i64 0\n}\n")
    result = run("compile", str(bad), "-o", str(tmp_path / "x.o"))
    assert result.returncode == 1
    assert f"ParseError: {bad}:2:" in result.stderr.decode()
    piped = run("compile", "-", "-o", str(tmp_path / "x.o"), stdin=b"garbage\n")
    assert "ParseError: <stdin>:1:1:" in piped.stderr.decode()
    bitcode = tmp_path / "bad.bc"
    bitcode.write_bytes(b"BC\xc0\xde" + b"\0" * 12)
    assert f"ParseError: {bitcode}: " in run("compile", str(bitcode), "-o", str(tmp_path / "x.o")).stderr.decode()


def test_a_typo_in_the_triple_is_a_warning(tmp_path):
    result = run("compile", str(DATA / "arith.ll"), "-o", str(tmp_path / "x.o"), "--target", "x86_64-linux-gnuu")
    assert result.returncode == 0, result.stderr.decode()
    assert "llvmplug: warning: target triple 'x86_64-linux-gnuu'" in result.stderr.decode()
    assert "environment 'gnuu'" in result.stderr.decode()
    described = run("info", "--target", "x86_64-linux-gnuu")
    assert described.returncode == 0 and "environment 'gnuu'" in described.stderr.decode()


def test_options_says_when_nothing_matched_and_shows_every_class():
    result = run("options", "nosuch*")
    assert result.returncode == 1 and result.stdout == b""
    assert "no LLVM option matches 'nosuch*'" in result.stderr.decode()
    listed = [line for line in run("options", "x86-*").stdout.decode().splitlines() if line.startswith("-x86-")]
    assert len(listed) > 20
    assert all("  [allowed: value]  " in line or "  [refused by default: " in line for line in listed)


def test_libdevice_is_linked_for_the_user(tmp_path):
    """--libdevice finds nvidia-nvvm's libdevice: the kernel's calls are resolved (nothing left to ptxas)."""
    pytest.importorskip("nvidia", reason="nvidia-nvvm is in the test extra")
    out = tmp_path / "kernel.ptx"
    result = run("compile", str(DATA / "libdevice-kernel.ll"), "--libdevice", "--emit", "asm", "-o", str(out),
                 "-mcpu=sm_80")
    assert result.returncode == 0, result.stderr
    assert b".entry kernel" in out.read_bytes() and b"__nv_expf" not in out.read_bytes()
