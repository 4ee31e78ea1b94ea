"""Per-call LLVM options apply to that call only."""

from __future__ import annotations

import llvmplug
import pytest


def syntax(asm: bytes) -> str:
    return asm.split()[0].decode()


def test_per_call_option_affects_only_that_call(arith_ir):
    before = llvmplug.compile(arith_ir, output="asm")
    intel = llvmplug.compile(arith_ir, flags="-x86-asm-syntax=intel", output="asm")
    after = llvmplug.compile(arith_ir, output="asm")
    assert syntax(before) == ".att_syntax"
    assert syntax(intel) == ".intel_syntax"
    assert after == before


def test_last_occurrence_wins(arith_ir):
    asm = llvmplug.compile(arith_ir, flags="-x86-asm-syntax=intel -x86-asm-syntax=att", output="asm")
    assert syntax(asm) == ".att_syntax"
    asm = llvmplug.compile(arith_ir, flags="-O3 -O0", output="ll").decode()
    assert "phi i64" in asm


def test_option_is_restored_after_a_failed_call(arith_ir):
    with pytest.raises(llvmplug.ParseError):
        llvmplug.compile("not IR", flags="-x86-asm-syntax=intel", output="asm")
    assert syntax(llvmplug.compile(arith_ir, output="asm")) == ".att_syntax"


def test_separate_value_and_double_dash_forms(arith_ir):
    asm = llvmplug.compile(arith_ir, flags="--x86-asm-syntax intel", output="asm")
    assert syntax(asm) == ".intel_syntax"


def test_quoted_values_use_llvm_tokenizer(arith_ir):
    # Quoting as in a shell: one token, the value without quotes.
    asm = llvmplug.compile(arith_ir, flags="'-x86-asm-syntax=intel'", output="asm")
    assert syntax(asm) == ".intel_syntax"


def test_option_listing_reports_values():
    [option] = llvmplug.default_plugin().options("x86-asm-syntax")
    assert option["name"] == "x86-asm-syntax"
    assert option["type"] == "enum"
    assert option["values"] == ["att", "intel"]
    assert option["value"] == option["default"] == "att"
    unroll = llvmplug.default_plugin().options("unroll-max-count")[0]
    assert unroll["type"] == "uint"
    assert len(llvmplug.default_plugin().options()) > 500
