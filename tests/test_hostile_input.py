"""Hostile arguments (extends tests/test_errors.py): a typed error with a clear message, never a crash."""

from __future__ import annotations

import llvmplug
import pytest

MEGABYTE = 1 << 20


@pytest.fixture(params=["in-process", "process"])
def plugin(request):
    if request.param == "in-process":
        yield llvmplug.default_plugin()
    else:
        with llvmplug.Plugin(isolation="process") as isolated:
            yield isolated


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"module": "define void @f\udcff() {\n  ret void\n}\n"}, "module cannot be encoded as UTF-8"),
        ({"target": "x86_64\udcff"}, "target cannot be encoded as UTF-8"),
        ({"flags": "-O2 \udc80"}, "flags cannot be encoded as UTF-8"),
        ({"flags": ["-O2", "\ud800"]}, "each flag cannot be encoded as UTF-8"),
        ({"flags": 3}, "flags must be a str or a sequence of str, not int"),
        ({"flags": {"-O2": True}}, "flags must be a str or a sequence of str, not dict"),
        ({"output": None}, "output must be one of obj, asm, bc, ll, not None"),
        ({"module": memoryview(b"")}, "module is empty"),
        ({"module": ["define void @f() {", "}"]}, "module must be IR text (str) or IR/bitcode (bytes), not list"),
    ],
)
def test_bad_python_values_are_typed(plugin, arith_ir, kwargs, words):
    call = {"module": arith_ir, **kwargs}
    with pytest.raises(llvmplug.ArgumentError, match=words.replace("(", r"\(").replace(")", r"\)")):
        plugin.compile(**call)


@pytest.mark.parametrize(
    ("method", "args", "error", "words"),
    [
        ("set_options", (None,), llvmplug.ArgumentTypeError, "flags must be a str"),
        ("set_options", ("-x86-asm-syntax=intel\0",), llvmplug.ArgumentError, "NUL"),
        ("set_options", ("-O2",), llvmplug.OptionError, "unknown option '-O2'"),
        ("options", (5,), llvmplug.ArgumentTypeError, "pattern must be a str"),
        ("options", ("x86-*\0",), llvmplug.ArgumentError, "NUL"),
        ("passes", (5,), llvmplug.ArgumentTypeError, "pattern must be a str"),
        ("passes", ("loop-*\0",), llvmplug.ArgumentError, "NUL"),
    ],
)
def test_bad_arguments_to_other_methods(plugin, method, args, error, words):
    with pytest.raises(error, match=words):
        getattr(plugin, method)(*args)


def test_nul_inside_module_is_a_parse_error_not_a_truncation(plugin, arith_ir):
    # The IR lexer stops at a NUL; what follows must not be silently dropped.
    for module in (arith_ir + "\0this is not IR", (arith_ir + "\0garbage").encode()):
        with pytest.raises(llvmplug.ParseError, match="NUL byte \\(line 28, "):
            plugin.compile(module)


@pytest.mark.parametrize(
    ("flags", "words"),
    [
        ("-" + "a" * MEGABYTE, "unknown option '-aaaa"),
        ("-x86-asm-syntax=" + "i" * MEGABYTE, "bad value in '-x86-asm-syntax=iiii"),
        ("-O2 " + "-no-such-option " * (MEGABYTE // 16), "unknown option '-no-such-option'"),
    ],
    # Short ids: the default would put the megabyte into PYTEST_CURRENT_TEST.
    ids=["long-option-name", "long-option-value", "many-unknown-options"],
)
def test_megabyte_flags_give_a_short_clear_error(plugin, arith_ir, flags, words):
    with pytest.raises(llvmplug.OptionError, match=words) as caught:
        plugin.compile(arith_ir, flags=flags)
    assert len(caught.value.message) < 2000
    if len(flags.split()) == 1:
        assert "characters left out" in caught.value.message
    assert plugin.compile(arith_ir) == llvmplug.compile(arith_ir)  # nothing stuck


def test_megabyte_of_valid_flags_compiles(plugin, arith_ir):
    flags = "-O2 " + "-x86-asm-syntax=intel " * (MEGABYTE // 22 + 1)
    assert len(flags) >= MEGABYTE
    assert plugin.compile(arith_ir, flags=flags, output="asm") == plugin.compile(
        arith_ir, flags="-O2 -x86-asm-syntax=intel", output="asm"
    )


@pytest.mark.parametrize(
    ("flags", "words"),
    [
        ("-enable-misched=maybe", "'maybe' is invalid value for boolean argument"),
        ("-x86-asm-syntax=fancy", "Cannot find option named 'fancy'"),
        ("-unroll-max-count=99999999999999999999", "value invalid for uint argument"),
        ("-unroll-max-count=-1", "'-1' value invalid for uint argument"),
        ("-unroll-threshold=1.5", "value invalid for uint argument"),
    ],
)
def test_option_values_of_the_wrong_type(plugin, arith_ir, flags, words):
    with pytest.raises(llvmplug.OptionError, match=words):
        plugin.compile(arith_ir, flags=flags)


@pytest.mark.parametrize(
    ("target", "words"),
    [
        ("ü-ü-ü", "unknown target triple 'ü-ü-ü'"),
        ("m68k-unknown-linux-gnu", "unable to get target"),  # an experimental backend: never linked
        ("x86_64-" + "a" * 100 + "-" * 100, None),  # a vendor LLVM does not know is still x86_64
    ],
)
def test_unknown_triples(plugin, arith_ir, target, words):
    if words is None:
        with pytest.warns(llvmplug.LLVMPlugWarning, match="LLVM does not know its vendor 'aaaa"):
            assert plugin.compile(arith_ir, target=target)
        return
    with pytest.raises(llvmplug.TargetError, match=words):
        plugin.compile(arith_ir, target=target)


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [({"private": "yes"}, "private must be a bool"), ({"reload_after_fatal": 1}, "reload_after_fatal must be a bool")],
)
@pytest.mark.parametrize("isolation", ["none", "process"])
def test_plugin_constructor_types(kwargs, words, isolation):
    with pytest.raises(llvmplug.ArgumentTypeError, match=words):
        llvmplug.Plugin(isolation=isolation, **kwargs)
