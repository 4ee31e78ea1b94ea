"""Bad input: a typed exception that says what was wrong, and nothing else changes."""

from __future__ import annotations

import os
import re
import subprocess
import sys
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
    # by the fuzzing work, tests/campaigns/fuzz_compile.py). The shim stops it at the error.
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


# -- errors that point at the fix -------------------------------------------------------------


@pytest.mark.parametrize(
    ("flag", "words"),
    [
        ("-S", 'output="asm"'),
        ("-c", 'output="obj"'),
        ("-g", "debug info comes from the module"),
        ("-O", "-O0, -O1, -O2 or -O3"),
        ("-03", "did you mean -O3"),
        ("--O3", "did you mean -O3"),
        ("-Ofast", "fast-math is in the IR"),
        ("-Os", "optsize"),
        ("-Oz", "minsize"),
        ("-fPIC", "-relocation-model=pic"),
        ("-fno-pic", "-relocation-model=static"),
        ("-mcmodel=large", "-code-model=large"),
        ("-ffast-math", "fast flags on floating-point instructions"),
        ("-target", "target=TRIPLE"),
        ("-mavx2", "-mattr=+avx2"),
        ("-ffunction-sections", "-function-sections"),
        ("-Wall", "LLVMPlugWarning"),
    ],
)
def test_compiler_driver_habits_point_at_llvmplugs_spelling(arith_ir, flag, words):
    with pytest.raises(llvmplug.OptionError) as caught:
        llvmplug.compile(arith_ir, flags=[flag])
    assert words in caught.value.message and "did you mean -W" not in caught.value.message


def test_march_given_a_cpu_points_at_mcpu(arith_ir):
    with pytest.raises(llvmplug.TargetError, match="-mcpu=skylake"):
        llvmplug.compile(arith_ir, flags="-march=skylake")


@pytest.mark.parametrize(
    ("pipeline", "words"),
    [
        ("instcombin", "unknown pass 'instcombin' in -passes; did you mean instcombine?"),
        ("function(instcombin)", "did you mean instcombine?"),
        ("require<domtre>", "did you mean require<domtree>?"),
        ("default<O3", "malformed -passes element 'default<O3'"),
        ("default<Oz>", "use default<O2> with the functions marked minsize"),
        ("default<Os>", "use default<O2> with the functions marked optsize"),
        ("loop-unroll<peelin>", "unknown parameter 'peelin' of pass 'loop-unroll' in -passes"),
    ],
)
def test_a_misspelt_pipeline_is_a_syntax_error_not_a_policy_matter(arith_ir, pipeline, words):
    with pytest.raises(llvmplug.OptionError) as caught:
        llvmplug.compile(arith_ir, flags=[f"-passes={pipeline}"])
    assert words in caught.value.message
    assert "policy" not in caught.value.message  # no advice to turn the safe policy off


def test_a_pass_name_with_no_near_match_says_where_names_come_from(arith_ir):
    with pytest.raises(llvmplug.OptionError, match=r"unknown pass 'xyzzy' in -passes: LLVM's pass registry"):
        llvmplug.compile(arith_ir, flags="-passes=xyzzy")


@pytest.mark.parametrize(
    ("module", "error", "words"),
    [
        ("add.ll", llvmplug.ParseError, "module is the text 'add.ll', which looks like a file's name"),
        ("/tmp/kernels/add", llvmplug.ParseError, "looks like a file's name"),
        ("#include <stdio.h>\nint main(void) { return 0; }\n", llvmplug.ParseError, "looks like C or C++ source"),
        ("// a comment\nint f(void);\n", llvmplug.ParseError, "LLVM IR's comments start with ';'"),
        ("\t.text\n\t.globl f\n", llvmplug.ParseError, "looks like assembly"),
        (bytes(4096), llvmplug.ParseError, "is 4096 zero bytes"),
        (b"\x7fELF\x02\x01\x01\0" + bytes(56), llvmplug.ParseError, "is an ELF file"),
        (b"!<arch>\nlibfoo.o/", llvmplug.ParseError, "is an ar archive"),
        (b"text with a \0 NUL", llvmplug.ParseError, "a NUL byte (line 1, column 13, offset 12)"),
    ],
    ids=["name", "path", "C", "comment", "assembly", "zeros", "ELF", "archive", "NUL"],
)
def test_the_wrong_kind_of_input_says_what_it_looks_like(module, error, words):
    with pytest.raises(error) as caught:
        llvmplug.compile(module)
    assert words in caught.value.message
    assert "\x7fELF" not in caught.value.message  # raw bytes are not printed back


def test_a_path_object_is_not_a_module(tmp_path):
    path = tmp_path / "add.ll"
    path.write_text("define void @f() {\n  ret void\n}\n")
    with pytest.raises(llvmplug.ArgumentTypeError, match=r"module is a path \(.*\), not a module: give the file's"):
        llvmplug.compile(path)
    with pytest.raises(llvmplug.ArgumentTypeError, match=r"link\[0\] is a path"):
        llvmplug.compile(path.read_text(), link=[path])
    assert llvmplug.compile(path.read_bytes())  # its contents are


def test_a_link_module_is_named_once(arith_ir):
    with pytest.raises(llvmplug.LinkError) as caught:
        llvmplug.compile(arith_ir, link=["define i32 @x(\n"])
    assert caught.value.message.startswith("link module 1:2:1: ")
    assert caught.value.message.count("link module 1") == 1
    with pytest.raises(llvmplug.LinkError, match=r"^link\[0\] is the text 'add.ll', which looks like a file's name"):
        llvmplug.compile(arith_ir, link=["add.ll"])


def test_an_empty_target_is_an_error_not_no_target(arith_ir):
    with pytest.raises(llvmplug.ArgumentError, match="target is an empty string"):
        llvmplug.compile(arith_ir, "")
    with pytest.raises(llvmplug.ArgumentError, match="target is an empty string"):
        llvmplug.target_info("")
    with pytest.raises(llvmplug.ArgumentError, match="target is an empty string"):
        llvmplug.compile_modules([arith_ir], "")


def test_messages_use_the_callers_parameter_names(arith_ir):
    with pytest.raises(llvmplug.ArgumentError, match="^threads must be between 1 and"):
        llvmplug.compile_modules([arith_ir], threads=0)
    with pytest.raises(llvmplug.ArgumentTypeError, match="^threads must be an int or None"):
        llvmplug.compile_modules([arith_ir], threads="2")


STACK_WARNING = ('define void @f() #0 {\n  %a = alloca [100000 x i8]\n  call void @g(ptr %a)\n  ret void\n}\n'
                 'declare void @g(ptr)\nattributes #0 = { "warn-stack-size"="10" }\n')


def test_warnings_point_at_the_callers_line():
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        llvmplug.compile(STACK_WARNING)  # through the default Plugin, created here or before
        llvmplug.compile(STACK_WARNING, cache=None)
        with llvmplug.Plugin(private=True) as plugin:
            plugin.compile(STACK_WARNING)
            plugin.compile_parts(STACK_WARNING, parts=1)
            plugin.compile_modules([STACK_WARNING])
            plugin.compile(STACK_WARNING, "x86_64-linux-gnuu")  # and the triple's warning
    assert len(caught) == 7
    for warning in caught:
        assert warning.filename == __file__, (warning.filename, str(warning.message))
        assert not str(warning.message).endswith("\n")  # no blank line after it


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="memory_limit is Linux-only")
def test_a_memory_limit_too_small_for_the_child_says_the_minimum(arith_ir):
    with pytest.raises(llvmplug.ArgumentError) as caught:
        llvmplug.Plugin(isolation="process", memory_limit=150 << 20).compile(arith_ir)
    message = caught.value.message
    assert message.startswith(f"memory_limit={150 << 20} (150 MiB) is too small for the child process")
    minimum = int(re.search(r"give at least (\d+) MiB", message).group(1))
    with llvmplug.Plugin(isolation="process", memory_limit=minimum << 20) as plugin:  # and that is enough
        assert plugin.compile(arith_ir) == llvmplug.compile(arith_ir)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="memory_limit is Linux-only")
def test_running_out_of_memory_outside_a_call_prints_no_traceback(tmp_path):
    """A request too big for the child's memory_limit: a typed error, and the child's stderr stays quiet."""
    script = tmp_path / "oom.py"
    script.write_text(
        "import re, llvmplug\n"
        "try:\n"
        "    llvmplug.Plugin(isolation='process', memory_limit=1).info()\n"
        "except llvmplug.ArgumentError as error:\n"
        "    minimum = int(re.search(r'at least (\\d+) MiB', error.message).group(1))\n"
        "module = ('; ' + 'x' * 1000 + '\\n') * 100_000 + 'define void @f() {\\n  ret void\\n}\\n'\n"
        "plugin = llvmplug.Plugin(isolation='process', memory_limit=(minimum + 100) << 20)\n"
        "try:\n"
        "    plugin.compile(module)\n"
        "except llvmplug.WorkerCrashedError as error:\n"
        "    print(error)\n"
        "plugin.close()\n")
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "ran out of memory (its memory_limit)" in done.stdout
    assert done.stderr == ""
