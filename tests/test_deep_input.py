"""Deep input does not kill the host: a stated nesting limit, checked in process.

LLVM recurses on nested input. The shim runs LLVM on a thread with a 32 MB
stack (csrc/runtime/threads.h) and refuses input nested deeper than
info()["limits"]["max_nesting_depth"] (csrc/compile/nesting.h) with LimitError before
LLVM recurses on it. Input just below the limit compiles through parse,
verify, optimise and codegen at -O0 and -O2 on that stack.

tests/data/deep-metadata-12000.bc: a chain of 12,000 metadata nodes
(!0 = !{!1}, ..., named by !llvm.n), written as bitcode by llvmlite 0.50 (its LLVM parses the chain without recursing).
"""

from __future__ import annotations

import subprocess
import tempfile
import sys
from pathlib import Path

import llvmplug
import pytest

DATA = Path(__file__).resolve().parent / "data"


def nested_geps(depth: int) -> str:
    """A global initialised by `depth` nested constant getelementptr expressions."""
    expr = "getelementptr (i8, ptr " * depth + "@g" + ", i64 1)" * depth
    return f"@g = global i8 0\n@p = global ptr {expr}\n"


def nested_geps_in_code(depth: int) -> str:
    expr = "getelementptr (i8, ptr " * depth + "@g" + ", i64 1)" * depth
    return f"@g = global i8 0\ndefine ptr @f() {{\n  ret ptr {expr}\n}}\n"


def nested_structs(depth: int) -> str:
    return "@p = global " + "{" * depth + " i8 " + "}" * depth + " zeroinitializer\n"


def metadata_chain(depth: int) -> str:
    lines = [f"!{i} = !{{!{i + 1}}}" for i in range(depth)]
    return "\n".join([*lines, f"!{depth} = !{{}}", "!llvm.n = !{!0}"]) + "\n"


def named_type_chain(depth: int) -> str:
    lines = ["%t0 = type { i8 }"] + [f"%t{i} = type {{ %t{i - 1} }}" for i in range(1, depth)]
    return "\n".join(lines) + f"\n@p = global %t{depth - 1} zeroinitializer\n"


def metadata_in_a_debug_record(depth: int) -> str:
    """A chain of pointer types reached only through a #dbg_value record's variable.

    `depth` levels: the variable, depth - 3 pointer types, the basic type and
    its name. Old llvmplug: no limit (its walk skipped debug records), and
    200,000 levels crashed the code generator (DwarfUnit recursing over the
    types: SIGSEGV). The chain is written leaf first: LLVM's IR parser
    itself recurses resolving a long chain of forward references.
    """
    lines = [
        "define i32 @f(i32 %x) !dbg !3 {",
        "  #dbg_value(i32 %x, !5, !DIExpression(), !6)",
        "  ret i32 %x, !dbg !6",
        "}",
        "!llvm.dbg.cu = !{!0}",
        "!llvm.module.flags = !{!2}",
        '!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "t", isOptimized: false, '
        "runtimeVersion: 0, emissionKind: FullDebug)",
        '!1 = !DIFile(filename: "a.c", directory: "/tmp")',
        '!2 = !{i32 2, !"Debug Info Version", i32 3}',
        '!3 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 1, type: !4, unit: !0, '
        "spFlags: DISPFlagDefinition)",
        "!4 = !DISubroutineType(types: !{null})",
        '!5 = !DILocalVariable(name: "x", scope: !3, file: !1, line: 1, type: !10)',
        "!6 = !DILocation(line: 1, scope: !3)",
    ]
    pointers = depth - 3
    lines.append(f'!{10 + pointers} = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)')
    lines += [f"!{10 + i} = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !{11 + i}, size: 64)"
              for i in reversed(range(pointers))]
    return "\n".join(lines) + "\n"


SHAPES = [nested_geps, nested_geps_in_code, nested_structs, metadata_chain, named_type_chain,
          metadata_in_a_debug_record]


@pytest.fixture(scope="module")
def limit(plugin) -> int:
    return int(plugin.info()["limits"]["max_nesting_depth"])


def test_the_limit_is_stated(limit):
    assert limit == 10_000


@pytest.mark.parametrize("shape", SHAPES, ids=lambda f: f.__name__)
@pytest.mark.parametrize("level", ["-O0", "-O2"])
def test_just_below_the_limit_compiles(plugin, limit, shape, level):
    # Each shape reaches `limit - 1` levels (a GEP chain's leaf @g is a level).
    obj = plugin.compile(shape(limit - 1), flags=[level])
    assert obj.startswith(b"\x7fELF")


@pytest.mark.parametrize("shape", SHAPES, ids=lambda f: f.__name__)
def test_just_above_the_limit_is_refused(plugin, limit, shape):
    with pytest.raises(llvmplug.LimitError, match=f"more than {limit} levels"):
        plugin.compile(shape(limit + 1))


def test_far_above_the_limit_leaves_the_host_alive(plugin, arith_ir):
    deep = nested_geps(20_000)
    assert len(deep) > 600_000
    with pytest.raises(llvmplug.LimitError, match="brackets"):
        plugin.compile(deep)
    assert not plugin.poisoned  # refused before LLVM ran: nothing to recover
    assert plugin.compile(arith_ir).startswith(b"\x7fELF")


def test_metadata_far_above_the_limit_in_a_debug_record_leaves_the_host_alive(tmp_path):
    # Old: the nesting limit never saw it, and the code generator crashed (SIGSEGV).
    module = tmp_path / "deep.ll"
    module.write_text(metadata_in_a_debug_record(200_000))
    code = f"""
import llvmplug
try:
    llvmplug.compile(open({str(module)!r}).read())
except llvmplug.LimitError as error:
    print(error)
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, cwd=tempfile.gettempdir(), text=True, timeout=300)
    assert done.returncode == 0, f"the child died ({done.returncode})"
    assert "nests metadata more than" in done.stdout


def test_deep_bitcode_is_checked_after_parsing(plugin, arith_ir):
    with pytest.raises(llvmplug.LimitError, match="metadata"):
        plugin.compile((DATA / "deep-metadata-12000.bc").read_bytes())
    assert plugin.compile(arith_ir).startswith(b"\x7fELF")


def test_strings_and_comments_do_not_count(plugin):
    noise = "(" * 30_000
    module = f'@s = constant [30000 x i8] c"{noise}"\n; {noise}\n'
    assert plugin.compile(module).startswith(b"\x7fELF")


def test_a_caller_with_a_small_stack_gets_the_big_one(plugin, limit):
    # LLVM runs on the shim's stack, not the caller's (csrc/runtime/threads.h): a thread
    # with a 256 KiB stack compiles input at the limit as the main thread does.
    import threading

    outcome = {}

    def work():
        try:
            outcome["obj"] = plugin.compile(nested_geps(limit - 1), flags="-O2")
        except BaseException as error:  # noqa: BLE001 - reported by the assertion below
            outcome["error"] = error

    previous = threading.stack_size(256 << 10)
    try:
        thread = threading.Thread(target=work)
        thread.start()
    finally:
        threading.stack_size(previous)
    thread.join()
    assert "error" not in outcome, outcome.get("error")
    assert outcome["obj"].startswith(b"\x7fELF")
