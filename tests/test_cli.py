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
    assert 'allowed only with the "all" policy' in refused and "Plugin(" not in refused
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


# -- parses like a Unix tool, fails in one line ------------------------------------------


def one_line(stderr: bytes) -> str:
    text = stderr.decode()
    assert text.endswith("\n") and text.count("\n") == 1, f"not one line: {text!r}"
    return text


@pytest.mark.parametrize(
    "args",
    [["--target"], ["-o"], ["--link"], ["--target", ""], ["--target="], ["-o", ""], ["--link", ""],
     ["--emit"]],
    ids=lambda args: " ".join(repr(arg) for arg in args),
)
def test_an_option_without_its_value_is_a_usage_error(args, tmp_path):
    source = tmp_path / "arith.ll"
    shutil.copy(DATA / "arith.ll", source)
    result = run("compile", str(source), *args)
    assert result.returncode == 2, result.stderr.decode()
    assert "needs a value" in one_line(result.stderr) or "expected one argument" in result.stderr.decode()
    assert sorted(path.name for path in tmp_path.iterdir()) == ["arith.ll"]  # nothing written


def test_clangs_target_spelling_points_at_ours(tmp_path):
    result = run("compile", str(DATA / "arith.ll"), "-o", str(tmp_path / "x.o"), "-target", "x86_64-linux-gnu")
    assert result.returncode == 2
    assert "-target is clang's spelling; llvmplug's is --target TRIPLE" in one_line(result.stderr)


@pytest.mark.parametrize(
    ("flag", "words"),
    [("-S", "--emit asm"), ("-fPIC", "-relocation-model=pic"), ("-Os", "optsize"), ("-03", "-O3"),
     ("-march=skylake", "-mcpu=skylake"), ("-mcmodel=large", "-code-model=large")],
)
def test_compiler_habits_get_the_command_lines_spelling(flag, words, tmp_path):
    result = run("compile", str(DATA / "arith.ll"), "-o", str(tmp_path / "x.o"), flag)
    assert result.returncode == 1
    message = one_line(result.stderr)
    assert words in message and "did you mean -W" not in message and 'output="' not in message


CRASHER = DATA / "crashers" / "mutated-bitcode-segv-1.bc"  # SIGSEGV while reading (crashers.json)


@pytest.mark.skipif(sys.platform == "win32", reason="a crash there is no signal")
def test_a_crash_of_llvm_ends_in_one_line_naming_the_input(tmp_path):
    out = tmp_path / "x.ll"
    result = run("compile", str(CRASHER), "--emit", "ll", "-passes=", "-o", str(out))
    assert result.returncode == 3, result.stderr.decode()
    message = one_line(result.stderr)
    assert message.startswith("llvmplug: LLVM crashed (SIGSEGV) compiling ") and CRASHER.name in message
    assert "--isolation process" in message and "nothing was written" in message
    assert not out.exists()


def test_a_crash_in_the_worker_is_told_for_a_one_shot_command(tmp_path):
    out = tmp_path / "x.ll"
    result = run("compile", str(CRASHER), "--emit", "ll", "-passes=", "-o", str(out), "--isolation", "process")
    assert result.returncode == 3, result.stderr.decode()
    message = one_line(result.stderr)
    assert "LLVM crashed (SIGSEGV) in its worker process compiling" in message and CRASHER.name in message
    assert "next call" not in message  # a one-shot command has none
    assert not out.exists()


def slow_module(functions: int = 2000) -> str:
    """A module whose -O3 compile takes seconds: long enough to be interrupted in the middle."""
    body = """define i64 @f{i}(ptr %p, i64 %n) {{
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
  %acc = phi i64 [ 0, %entry ], [ %acc2, %loop ]
  %q = getelementptr i64, ptr %p, i64 %i
  %v = load i64, ptr %q
  %m = mul i64 %v, {i}
  %acc2 = add i64 %acc, %m
  %next = add i64 %i, 1
  %c = icmp ult i64 %next, %n
  br i1 %c, label %loop, label %exit
exit:
  ret i64 %acc2
}}
"""
    return "".join(body.format(i=i + 3) for i in range(functions))


def children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        found += [int(child) for child in (task / "children").read_text().split()]
    return found


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc; signals to a process group")
@pytest.mark.parametrize("isolation", ["none", "process"])
def test_ctrl_c_is_one_line_and_130(isolation, tmp_path):
    import os
    import signal
    import time

    source = tmp_path / "slow.ll"
    source.write_text(slow_module())
    out = tmp_path / "slow.o"
    # As from a terminal: SIGINT at its default even where this test was started with it ignored (a
    # shell without job control starts `cmd &` so, and Python then installs no KeyboardInterrupt).
    process = subprocess.Popen([sys.executable, "-m", "llvmplug", "compile", str(source), "-o", str(out), "-O3",
                                "--isolation", isolation], stderr=subprocess.PIPE, start_new_session=True,
                               cwd=tempfile.gettempdir(),
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        # Interrupt once the compile runs: in its forked or worker process.
        deadline = time.monotonic() + 60
        while not children(process.pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.5)  # the child loads the shim and starts compiling (the compile takes seconds)
        os.killpg(process.pid, signal.SIGINT)  # what a terminal's Ctrl-C does
        stderr = process.stderr.read()
        assert process.wait(timeout=120) == 130
    finally:
        process.kill()
        process.stderr.close()
    assert stderr == b"llvmplug: interrupted\n"
    assert not out.exists() and [path.name for path in tmp_path.iterdir()] == ["slow.ll"]  # not even partly


def test_warnings_print_once_cleanly(tmp_path):
    module = tmp_path / "big.ll"
    module.write_text('define void @f() #0 {\n  %a = alloca [100000 x i8]\n  call void @g(ptr %a)\n  ret void\n}\n'
                      'declare void @g(ptr)\nattributes #0 = { "warn-stack-size"="10" }\n')
    result = run("compile", str(module), "-o", str(tmp_path / "x.o"))
    assert result.returncode == 0, result.stderr.decode()
    assert one_line(result.stderr).startswith("llvmplug: warning: <unknown>:0:0: stack frame size (")
    inlined = tmp_path / "inline.ll"
    inlined.write_text("define internal i32 @g(i32 %x) {\n  ret i32 %x\n}\n"
                       "define i32 @f(i32 %x) {\n  %y = call i32 @g(i32 %x)\n  ret i32 %y\n}\n")
    result = run("compile", str(inlined), "-o", str(tmp_path / "y.o"), "-pass-remarks=inline")
    assert one_line(result.stderr).startswith("llvmplug: remark: ") and "'g' inlined into 'f'" in result.stderr.decode()


@pytest.mark.parametrize("command", ["options", "passes"])
def test_a_listing_that_matches_nothing_exits_1(command):
    result = run(command, "nonexistent*")
    assert result.returncode == 1 and result.stdout == b""
    assert one_line(result.stderr).startswith("llvmplug: no ")
    as_json = run(command, "nonexistent*", "--json")
    assert as_json.returncode == 1 and json.loads(as_json.stdout) == []
    assert run(command, "loop-unroll*" if command == "passes" else "x86-asm-syntax").returncode == 0


def test_check_tells_a_missing_module_from_a_failed_check(tmp_path):
    without = subprocess.run([sys.executable, "-c", "import sys; sys.modules['elftools'] = None\n"
                              "from llvmplug import cli; sys.exit(cli.main(['check']))"],
                             capture_output=True, timeout=120, cwd=tempfile.gettempdir())
    assert without.returncode == 2 and "needs pyelftools" in one_line(without.stderr)
    pytest.importorskip("elftools", reason="pyelftools is in the test extra")
    failed = run("check", sys.executable)  # an interpreter is no shim: it exports more than the C ABI
    assert failed.returncode == 1 and "FAIL" in failed.stdout.decode()


def test_the_help_documents_the_exit_statuses():
    for args in (["--help"], ["compile", "--help"]):
        text = run(*args).stdout.decode()
        assert "exit status:" in text
        for status in ("0 ", "1 ", "2 ", "3 ", "130 ", "141 "):
            assert f"\n  {status}" in text, (args, status)


def test_the_abi_version_is_shown_in_both_forms():
    info = json.loads(run("info", "--json").stdout)
    version = info["abi_version"]
    assert info["abi"] == f"{version >> 16}.{version & 0xFFFF}"
    both = f"ABI {version >> 16}.{version & 0xFFFF} (abi_version {version})"
    assert both in run("--version").stdout.decode() and both in run("info").stdout.decode()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="closes the child's stdin before exec")
def test_reading_a_closed_stdin_is_one_line():
    import os

    result = subprocess.run([sys.executable, "-m", "llvmplug", "compile", "-", "-o", "-"], capture_output=True,
                            timeout=120, cwd=tempfile.gettempdir(), preexec_fn=lambda: os.close(0))
    assert result.returncode == 2
    assert "standard input is closed" in one_line(result.stderr)


def test_libdevice_is_never_written_over(tmp_path):
    """--libdevice reads a file as much as IN does: -o naming it (or a hard link to it) is refused."""
    import os

    # A stand-in nvidia package first on the path, so the test can never damage the real libdevice.
    stand_in = tmp_path / "site" / "nvidia"
    libdevice = stand_in / "cu13" / "nvvm" / "libdevice" / "libdevice.10.bc"
    libdevice.parent.mkdir(parents=True)
    (stand_in / "__init__.py").write_text("")
    libdevice.write_bytes(b"BC\xc0\xde stand-in")
    os.link(libdevice, tmp_path / "linked.bc")
    path = os.pathsep.join([str(tmp_path / "site"), *filter(None, [os.environ.get("PYTHONPATH")])])
    for output in (libdevice, tmp_path / "linked.bc"):
        result = subprocess.run([sys.executable, "-m", "llvmplug", "compile", str(DATA / "libdevice-kernel.ll"),
                                 "--libdevice", "--emit", "bc", "-o", str(output)], capture_output=True,
                                timeout=120, cwd=tempfile.gettempdir(), env={**os.environ, "PYTHONPATH": path})
        assert result.returncode == 2, result.stderr.decode()
        assert "never writes over an input" in one_line(result.stderr) and str(libdevice) in result.stderr.decode()
    assert libdevice.read_bytes() == b"BC\xc0\xde stand-in"


def test_wrong_kinds_of_input_say_what_they_look_like(tmp_path):
    source = tmp_path / "hello.c"
    source.write_text("#include <stdio.h>\nint main(void) { return 0; }\n")
    zeros = tmp_path / "zeros.ll"
    zeros.write_bytes(bytes(4096))
    obj = tmp_path / "arith.o"
    assert run("compile", str(DATA / "arith.ll"), "-o", str(obj)).returncode == 0
    for path, words in ((source, "looks like C or C++ source"), (zeros, "4096 zero bytes"), (obj, "an ELF file")):
        result = run("compile", str(path), "-o", str(tmp_path / "out.o"))
        assert result.returncode == 1
        message = one_line(result.stderr)
        assert message.startswith(f"llvmplug: ParseError: {path} is not LLVM IR or bitcode") and words in message
    assert not (tmp_path / "out.o").exists()


def test_outputs_that_are_not_files_are_written_in_place():
    result = run("compile", str(DATA / "arith.ll"), "-o", "/dev/null")
    assert result.returncode == 0, result.stderr.decode()
    assert Path("/dev/null").is_char_device()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_sigterm_to_the_command_stops_the_compile_too(tmp_path):
    """A build system's or timeout's SIGTERM reaches the command only: the forked compile must not outlive it."""
    import os
    import signal
    import time

    source = tmp_path / "slow.ll"
    source.write_text(slow_module())
    process = subprocess.Popen([sys.executable, "-m", "llvmplug", "compile", str(source), "-o", str(tmp_path / "x.o"),
                                "-O3"], stderr=subprocess.PIPE, cwd=tempfile.gettempdir())
    try:
        deadline = time.monotonic() + 60
        while not children(process.pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        (compiling,) = children(process.pid)
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=120) == -signal.SIGTERM  # as an unguarded command would end
    finally:
        process.kill()
        process.stderr.close()
    deadline = time.monotonic() + 60
    while os.path.exists(f"/proc/{compiling}") and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not os.path.exists(f"/proc/{compiling}")
    assert not (tmp_path / "x.o").exists()
