"""compile(): real IR in, real objects out, linked with cc and called."""

from __future__ import annotations

import ctypes

import llvmplug
import pytest

PIC = "-relocation-model=pic"


def test_text_ir_to_object_runs(arith_ir, load_object):
    obj = llvmplug.compile(arith_ir, flags=PIC)
    assert obj[:4] == b"\x7fELF"
    lib = load_object(obj)
    lib.add.restype = ctypes.c_int32
    lib.add.argtypes = [ctypes.c_int32, ctypes.c_int32]
    assert lib.add(40, 2) == 42
    assert lib.add(-5, 3) == -2
    lib.triangle.restype = ctypes.c_int64
    lib.triangle.argtypes = [ctypes.c_int64]
    assert lib.triangle(10) == 45
    assert lib.triangle(100000) == 4999950000
    lib.scale.restype = ctypes.c_double
    lib.scale.argtypes = [ctypes.c_double]
    assert lib.scale(4.0) == 10.0


def test_bitcode_to_object_runs(arith_ir, load_object):
    bitcode = llvmplug.compile(arith_ir, flags="-O0", output="bc")
    assert bitcode[:4] == b"BC\xc0\xde"
    lib = load_object(llvmplug.compile(bitcode, flags=[PIC, "-O3"]))
    lib.add.restype = ctypes.c_int32
    assert lib.add(20, 22) == 42


def test_wrapped_bitcode_is_detected(arith_ir):
    bitcode = llvmplug.compile(arith_ir, output="bc")
    # The bitcode wrapper header (used by Darwin toolchains): magic, version,
    # offset, size, cputype, each a little-endian uint32.
    header = b"".join(v.to_bytes(4, "little") for v in (0x0B17C0DE, 0, 20, len(bitcode), 7))
    asm = llvmplug.compile(header + bitcode, output="asm").decode()
    assert "add:" in asm


def test_sequence_flags_equal_string_flags(arith_ir):
    assert llvmplug.compile(arith_ir, flags=["-O1", PIC]) == llvmplug.compile(arith_ir, flags=f"-O1 {PIC}")


def test_asm_output(arith_ir):
    asm = llvmplug.compile(arith_ir, output="asm").decode()
    assert "add:" in asm and "triangle:" in asm
    assert ".att_syntax" in asm


def test_filetype_flag_takes_precedence_over_output(arith_ir):
    asm = llvmplug.compile(arith_ir, flags="-filetype=asm")
    assert b"add:" in asm


def test_ll_output_is_optimised_ir(arith_ir):
    o0 = llvmplug.compile(arith_ir, flags="-O0", output="ll").decode()
    o2 = llvmplug.compile(arith_ir, flags="-O2", output="ll").decode()
    assert "phi i64" in o0
    # -O2 replaces the loop with a closed form.
    assert "phi i64" not in o2
    assert "define i64 @triangle" in o2


def test_o0_and_o3_differ(arith_ir):
    o0 = llvmplug.compile(arith_ir, flags="-O0", output="asm")
    o3 = llvmplug.compile(arith_ir, flags="-O3", output="asm")
    assert o0 != o3
    assert len(o3) < len(o0)


def test_default_level_is_o2(arith_ir):
    assert llvmplug.compile(arith_ir) == llvmplug.compile(arith_ir, flags="-O2")


def test_empty_passes_skips_ir_optimisation(arith_ir):
    # The IR that reaches codegen is the input IR: the loop is still there...
    ll = llvmplug.compile(arith_ir, flags="-passes=", output="ll").decode()
    assert "phi i64" in ll and "%acc.next = add i64 %acc, %i" in ll
    # ...and codegen of that unoptimised IR is exactly what -passes= produced.
    bitcode = llvmplug.compile(arith_ir, flags="-passes=", output="bc")
    assert llvmplug.compile(bitcode, flags="-passes=") == llvmplug.compile(arith_ir, flags="-passes=")
    assert llvmplug.compile(arith_ir, flags="-passes=") != llvmplug.compile(arith_ir)


def test_custom_pipeline(arith_ir):
    ir = arith_ir + "define internal void @unused() {\n  ret void\n}\n"
    assert "@unused" in llvmplug.compile(ir, flags="-passes=", output="ll").decode()
    assert "@unused" not in llvmplug.compile(ir, flags="-passes=globaldce", output="ll").decode()
    # The textual form of the default pipeline is the default pipeline.
    assert llvmplug.compile(ir, flags="-passes=default<O2>") == llvmplug.compile(ir, flags="-O2")


def test_explicit_target_triple(arith_ir):
    obj = llvmplug.compile(arith_ir, target="x86_64-pc-windows-msvc")
    assert obj[:2] == b"\x64\x86"  # COFF, machine AMD64
    obj = llvmplug.compile(arith_ir, flags="-mtriple=i686-unknown-linux-gnu")
    assert obj[:4] == b"\x7fELF" and obj[4] == 1  # ELFCLASS32


def test_module_triple_is_used(arith_ir):
    ir = 'target triple = "x86_64-apple-macosx14.0.0"\n' + arith_ir
    obj = llvmplug.compile(ir)
    assert obj[:4] == b"\xcf\xfa\xed\xfe"  # Mach-O 64


def test_mcpu_and_mattr_change_code():
    ir = """
define <8 x float> @vadd(<8 x float> %a, <8 x float> %b) {
  %s = fadd <8 x float> %a, %b
  ret <8 x float> %s
}
"""
    sse = llvmplug.compile(ir, flags="-mcpu=x86-64", output="asm").decode()
    avx = llvmplug.compile(ir, flags="-mcpu=x86-64 -mattr=+avx", output="asm").decode()
    assert "ymm" not in sse and "ymm" in avx
    # A comma-separated list is split as llc splits it.
    assert llvmplug.compile(ir, flags="-mcpu=x86-64 -mattr=+sse4.2,+avx", output="asm").decode() == avx


def test_info():
    info = llvmplug.info()
    assert info["llvm_version"].startswith("23.")
    assert info["abi_version"] >> 16 == 2
    assert info["host_triple"]
    assert info["host_cpu"]
    assert any(f.startswith("+") for f in info["host_features"])
    assert {"x86-64", "x86"} <= {t["name"] for t in info["targets"]}


def test_warnings_become_python_warnings():
    ir = """
define void @f() "frame-pointer"="none" {
  ret void
}
"""
    with pytest.warns(llvmplug.LLVMPlugWarning, match="remark"):
        llvmplug.compile(ir, flags="-pass-remarks-analysis=asm-printer")
