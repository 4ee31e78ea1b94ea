"""Bad input: a typed exception that says what was wrong, and nothing else changes."""

from __future__ import annotations

import os
from pathlib import Path

import llvmplug
import pytest


@pytest.mark.parametrize(
    ("module", "error", "words"),
    [
        ("this is not IR", llvmplug.ParseError, ["1:1", "expected top-level entity"]),
        ("define i32 @f() {\n  ret i64 0\n}\n", llvmplug.ParseError, ["2:7", "i32"]),
        (b"BC\xc0\xde\x01\x02\x03\x04garbage", llvmplug.ParseError, ["invalid bitcode"]),
        (b"\x00\xff\xfe\x80" * 8, llvmplug.ParseError, []),
        (
            "define i32 @f(i32 %a) {\nentry:\n  %x = add i32 %y, 1\n  %y = add i32 %a, 1\n  ret i32 %x\n}\n",
            llvmplug.VerifyError,
            ["dominate"],
        ),
    ],
)
def test_bad_modules(module, error, words):
    with pytest.raises(error) as caught:
        llvmplug.compile(module)
    for word in words:
        assert word in caught.value.message


def test_parse_error_has_line_and_column(arith_ir):
    broken = arith_ir.replace("%s = add i32 %a, %b", "%s = add i32 %a, %nope")
    with pytest.raises(llvmplug.ParseError, match=r":5:\d+: use of undefined value '%nope'"):
        llvmplug.compile(broken)


def test_unknown_option_suggests_close_names(arith_ir):
    with pytest.raises(llvmplug.OptionError) as caught:
        llvmplug.compile(arith_ir, flags="-x86-asm-syntx=intel")
    assert "unknown option '-x86-asm-syntx'" in caught.value.message
    assert "-x86-asm-syntax" in caught.value.message


def test_bad_option_value_names_flag_and_value(arith_ir):
    with pytest.raises(llvmplug.OptionError) as caught:
        llvmplug.compile(arith_ir, flags="-unroll-max-count=lots")
    assert "-unroll-max-count=lots" in caught.value.message
    assert "'lots' value invalid" in caught.value.message


@pytest.mark.parametrize(
    ("flags", "words"),
    [
        ("-O7", "optimisation level"),
        ("-passes=no-such-pass", "no-such-pass"),
        ("-filetype=exe", "-filetype"),
        ("-help", "not available"),
        ("-version", "not available"),
        ("positional", "expected an option"),
        ("-unroll-max-count", "needs a value"),
    ],
)
def test_bad_flags(arith_ir, flags, words):
    with pytest.raises(llvmplug.OptionError, match=words):
        llvmplug.compile(arith_ir, flags=flags)


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"target": "m68k-unknown-linux-gnu"}, "unable to get target"),  # an experimental backend: never linked
        ({"target": "not-a-triple"}, "unknown target triple"),
        ({"flags": "-mcpu=pentium9000"}, "unknown CPU 'pentium9000'"),
        ({"flags": "-mattr=+warp-drive"}, "unknown CPU feature '\\+warp-drive'"),
        ({"flags": "-mcpu=help"}, "unknown CPU 'help'"),
        ({"flags": "-mtune=pentium9000"}, "unknown tuning CPU 'pentium9000'"),
        ({"flags": "-mattr=+avx,+warp-drive"}, "unknown CPU feature '\\+warp-drive'"),
    ],
)
def test_bad_targets(arith_ir, kwargs, words):
    with pytest.raises(llvmplug.TargetError, match=words):
        llvmplug.compile(arith_ir, **kwargs)


def test_codegen_error_from_inline_asm_diagnostic():
    # A bad constraint is not fatal to LLVM: without a diagnostic handler it
    # prints an error and returns a broken object. It must fail the call.
    ir = """
define void @f() {
  call void asm sideeffect "movl $0, %eax", "=&{nosuchreg}"()
  ret void
}
"""
    with pytest.raises(llvmplug.CodegenError, match="error"):
        llvmplug.compile(ir)


def test_error_diagnostic_stops_llvm_before_it_crashes(arith_ir):
    # LLVM reports "SSE2 register return with SSE2 disabled" as an error
    # diagnostic and, left to carry on, segfaults in the x87 stackifier (found
    # by the fuzzing work, tests/fuzz_compile.py). The shim stops it at the error.
    ir = (Path(__file__).resolve().parent / "data" / "no-sse2-double-return.ll").read_text()
    with llvmplug.Plugin(private=True) as plugin:
        clean = plugin.compile(arith_ir)
        with pytest.raises(llvmplug.CodegenError, match="SSE2"):
            plugin.compile(ir, flags="-O0 -mattr=-sse2")
        assert plugin.poisoned  # the error unwound through LLVM: reload before the next call
        assert plugin.compile(arith_ir) == clean
        assert not plugin.poisoned


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"module": None}, llvmplug.ArgumentTypeError),
        ({"module": 42}, llvmplug.ArgumentTypeError),
        ({"module": ""}, llvmplug.ArgumentError),
        ({"module": b""}, llvmplug.ArgumentError),
        ({"module": "x", "target": 5}, llvmplug.ArgumentTypeError),
        ({"module": "x", "target": "x86_64\0"}, llvmplug.ArgumentError),
        ({"module": "x", "flags": b"-O2"}, llvmplug.ArgumentTypeError),
        ({"module": "x", "flags": ["-O2", None]}, llvmplug.ArgumentTypeError),
        ({"module": "x", "flags": "-O2\0-O3"}, llvmplug.ArgumentError),
        ({"module": "x", "output": "exe"}, llvmplug.ArgumentError),
    ],
)
def test_bad_python_arguments(kwargs, error):
    with pytest.raises(error):
        llvmplug.compile(**kwargs)


def test_argument_errors_are_also_builtin_errors():
    with pytest.raises(TypeError):
        llvmplug.compile(None)
    with pytest.raises(ValueError):
        llvmplug.compile("")


def test_failures_leave_no_trace(arith_ir):
    clean = llvmplug.compile(arith_ir, output="asm")
    for flags in ["-x86-asm-syntax=intel -unroll-max-count=lots", "-x86-asm-syntax=intel -nope"]:
        with pytest.raises(llvmplug.OptionError):
            llvmplug.compile(arith_ir, flags=flags, output="asm")
    with pytest.raises(llvmplug.ParseError):
        llvmplug.compile("garbage", flags="-x86-asm-syntax=intel")
    assert llvmplug.compile(arith_ir, output="asm") == clean


def test_a_source_tree_without_a_built_shim_says_it_shadows_the_installed_package(tmp_path):
    # The README's snippet pasted in a checkout's root imports the checkout's
    # llvmplug (the current directory comes first on sys.path), not the installed one.
    import shutil
    import subprocess
    import sys

    checkout = tmp_path / "checkout"
    package = Path(llvmplug.__file__).resolve().parent
    shutil.copytree(package, checkout / "llvmplug", ignore=shutil.ignore_patterns("_lib", "__pycache__"))
    (checkout / "pyproject.toml").write_text("[project]\nname = 'llvmplug'\n")
    snippet = "import llvmplug\nllvmplug.compile('define i32 @f() { ret i32 1 }')\n"
    result = subprocess.run([sys.executable, "-c", snippet], cwd=checkout, capture_output=True, text=True,
                            timeout=120, env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"})
    assert result.returncode == 1
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("llvmplug.errors.LibraryLoadError: llvmplug was imported from the source tree")
    assert str(checkout / "llvmplug") in last and "shadows the installed package" in last
