"""Sticky options (Plugin.set_options), per-call overrides, and reload to reset.

Each test uses a private Plugin of its own, so nothing it sets reaches the
default Plugin the other tests share.
"""

from __future__ import annotations

import sys

import llvmplug
import pytest

from lifecycle_support import generated_module, run_python


def syntax(asm: bytes) -> str:
    return asm.split()[0].decode()


def option(plugin: llvmplug.Plugin, name: str) -> dict:
    [found] = [o for o in plugin.options(name) if o["name"] == name]
    return found


def test_per_call_flag_overrides_a_sticky_option_for_that_call_only(fresh_plugin, arith_ir):
    fresh_plugin.set_options("-x86-asm-syntax=intel")
    assert syntax(fresh_plugin.compile(arith_ir, output="asm")) == ".intel_syntax"
    assert syntax(fresh_plugin.compile(arith_ir, flags="-x86-asm-syntax=att", output="asm")) == ".att_syntax"
    assert syntax(fresh_plugin.compile(arith_ir, output="asm")) == ".intel_syntax"
    # also after a call that failed with the override in force
    with pytest.raises(llvmplug.ParseError):
        fresh_plugin.compile("not IR", flags="-x86-asm-syntax=att", output="asm")
    assert syntax(fresh_plugin.compile(arith_ir, output="asm")) == ".intel_syntax"
    assert option(fresh_plugin, "x86-asm-syntax")["value"] == "intel"


def test_options_reports_sticky_values(fresh_plugin):
    before = option(fresh_plugin, "align-loops")
    assert before["sticky"] is False and before["value"] == "0"
    fresh_plugin.set_options(["-align-loops=32", "-x86-asm-syntax=intel"])
    aligned = option(fresh_plugin, "align-loops")
    assert aligned["sticky"] is True and aligned["value"] == "32"
    asm = option(fresh_plugin, "x86-asm-syntax")
    assert asm == {**asm, "sticky": True, "value": "intel", "default": "att"}
    assert option(fresh_plugin, "unroll-max-count")["sticky"] is False
    fresh_plugin.set_options("-align-loops=16")  # set again: the new value replaces the old
    assert option(fresh_plugin, "align-loops")["value"] == "16"
    assert option(fresh_plugin, "x86-asm-syntax")["value"] == "intel"  # others stay


@pytest.mark.parametrize(
    "bad",
    [
        "-x86-asm-syntax=att -align-loops=8 -no-such-option=1",  # unknown name, found first
        "-x86-asm-syntax=att -align-loops=8 -unroll-max-count=lots",  # bad value, found while applying
        "-x86-asm-syntax=att -align-loops=8 -x86-asm-syntax=nonsense",  # bad value for an option just set
    ],
)
def test_set_options_is_all_or_nothing(fresh_plugin, arith_ir, bad):
    fresh_plugin.set_options("-x86-asm-syntax=intel -unroll-max-count=3")
    listed = fresh_plugin.options()
    asm = fresh_plugin.compile(arith_ir, output="asm")
    obj = fresh_plugin.compile(generated_module(4), flags="-O3")
    with pytest.raises(llvmplug.OptionError):
        fresh_plugin.set_options(bad)
    assert fresh_plugin.options() == listed
    assert fresh_plugin.compile(arith_ir, output="asm") == asm
    assert fresh_plugin.compile(generated_module(4), flags="-O3") == obj


def test_set_options_rejects_bad_arguments(fresh_plugin):
    with pytest.raises(llvmplug.ArgumentTypeError):
        fresh_plugin.set_options(42)
    with pytest.raises(llvmplug.ArgumentError):
        fresh_plugin.set_options("-x86-asm-syntax=intel\0")
    assert option(fresh_plugin, "x86-asm-syntax")["sticky"] is False


# The options below change what LLVM emits: the assembly syntax, the
# alignment of loops in object code, and the loop vectoriser's width (IR).
STICKY = "-x86-asm-syntax=intel -align-loops=64 -force-vector-width=2"

OUTPUTS = r"""
import hashlib, json, sys, warnings
import llvmplug
from lifecycle_support import generated_module
warnings.simplefilter("ignore")
ir = generated_module(6)

def outputs(plugin):
    return {
        "asm": hashlib.sha256(plugin.compile(ir, flags="-O2", output="asm")).hexdigest(),
        "obj": hashlib.sha256(plugin.compile(ir, flags="-O3")).hexdigest(),
        "ll": hashlib.sha256(plugin.compile(ir, flags="-O3", output="ll")).hexdigest(),
        "options": hashlib.sha256(json.dumps(plugin.options(), sort_keys=True).encode()).hexdigest(),
    }
"""


@pytest.mark.parametrize("kind", ["shared", "private"])
def test_reload_returns_output_to_a_fresh_process_byte_for_byte(kind):
    fresh = run_python(OUTPUTS + "print(json.dumps(outputs(llvmplug.Plugin())))")
    result = run_python(
        OUTPUTS
        + r"""
plugin = llvmplug.Plugin(private=sys.argv[1] == "private")
plugin.set_options(sys.argv[2])
sticky = outputs(plugin)
plugin.reload()
print(json.dumps({"sticky": sticky, "reloaded": outputs(plugin)}))
""",
        kind,
        STICKY,
    )
    for key in fresh:  # control: the sticky options did change every output
        assert result["sticky"][key] != fresh[key], key
    assert result["reloaded"] == fresh


@pytest.mark.parametrize("isolation", ["none", "process"])
def test_clear_options_returns_output_to_a_fresh_process_without_a_reload(isolation):
    fresh = run_python(OUTPUTS + "print(json.dumps(outputs(llvmplug.Plugin())))")
    result = run_python(
        OUTPUTS
        + r"""
isolation = sys.argv[1]
plugin = llvmplug.Plugin(private=isolation == "none", isolation=isolation)
plugin.set_options(sys.argv[2])
sticky = outputs(plugin)
copy = plugin.loaded_path
plugin.clear_options()
assert plugin.loaded_path == copy  # no reload happened
print(json.dumps({"sticky": sticky, "cleared": outputs(plugin)}))
""",
        str(isolation),
        STICKY,
    )
    for key in fresh:  # control: the sticky options did change every output
        assert result["sticky"][key] != fresh[key], key
    assert result["cleared"] == fresh
