"""Reused TargetMachines and codegen pipelines (csrc/machine_cache.h).

A copy keeps its TargetMachines, with their object-file codegen pipelines,
between compiles. Reuse must never change an output, and must never outlive
an option change: the tests compare a copy that reuses against one that
does not (LLVMPLUG_NO_MACHINE_CACHE=1, read by each copy at its first
compile) after every kind of option change.
"""

from __future__ import annotations

import random

import llvmplug
import pytest

# Code whose object depends on options read when a TargetMachine is created
# (CPU, features, code model) and on one read by codegen passes.
SENSITIVE = """
@counter = global i64 0

define i64 @bits(i64 %x) {
  %n = call i64 @llvm.ctpop.i64(i64 %x)
  %c = load i64, ptr @counter
  %s = add i64 %n, %c
  ret i64 %s
}

define void @loop(ptr %p, i64 %n) {
entry:
  br label %body
body:
  %i = phi i64 [ 0, %entry ], [ %next, %body ]
  %q = getelementptr i64, ptr %p, i64 %i
  store i64 %i, ptr %q
  %next = add i64 %i, 1
  %done = icmp eq i64 %next, %n
  br i1 %done, label %exit, label %body
exit:
  ret void
}

declare i64 @llvm.ctpop.i64(i64)
"""

# Options that change SENSITIVE's object, each in a different place.
CHANGES = ("-mcpu=haswell", "-mattr=+popcnt", "-code-model=large", "-align-loops=64")


@pytest.fixture
def plugins(monkeypatch):
    """(reusing copy, fresh-machine copy): private copies of the shim."""
    with llvmplug.Plugin(private=True) as reusing:
        reusing.compile(SENSITIVE)  # reads the environment: reuse on
        monkeypatch.setenv("LLVMPLUG_NO_MACHINE_CACHE", "1")
        with llvmplug.Plugin(private=True) as fresh:
            fresh.compile(SENSITIVE)  # reads the environment: reuse off
            monkeypatch.delenv("LLVMPLUG_NO_MACHINE_CACHE")
            yield reusing, fresh


def test_the_options_do_change_the_object(plugins):
    """Control: otherwise the tests below could not fail."""
    _, fresh = plugins
    plain = fresh.compile(SENSITIVE)
    assert all(fresh.compile(SENSITIVE, flags=change) != plain for change in CHANGES)


def test_reuse_gives_byte_identical_outputs(plugins, corpus_files, arith_ir):
    reusing, fresh = plugins
    modules = [arith_ir, SENSITIVE] + [path.read_text() for path in corpus_files]
    requests = [
        (index, output, flags)
        for index in range(len(modules))
        for output in ("obj", "asm")
        for flags in ("", "-O0", "-O3", "-passes=")
    ]
    random.Random(13).shuffle(requests)  # machines meet modules in a mixed order
    for index, output, flags in requests:
        got = reusing.compile(modules[index], flags=flags, output=output)
        assert got == fresh.compile(modules[index], flags=flags, output=output), (index, output, flags)


@pytest.mark.parametrize("change", CHANGES)
def test_a_per_call_option_after_cached_compiles_is_honoured(plugins, change):
    reusing, fresh = plugins
    plain = fresh.compile(SENSITIVE)
    assert reusing.compile(SENSITIVE) == plain  # a machine is now cached
    assert reusing.compile(SENSITIVE, flags=change) == fresh.compile(SENSITIVE, flags=change)
    assert reusing.compile(SENSITIVE) == plain  # and the option is gone again


@pytest.mark.parametrize("change", CHANGES)
def test_a_sticky_option_after_cached_compiles_is_honoured(plugins, change):
    reusing, fresh = plugins
    plain = fresh.compile(SENSITIVE)
    assert reusing.compile(SENSITIVE) == plain
    reusing.set_options(change)
    fresh.set_options(change)
    changed = fresh.compile(SENSITIVE)
    assert changed != plain
    assert reusing.compile(SENSITIVE) == changed
    assert reusing.compile(SENSITIVE) == changed  # from the machine cached under the option
    reusing.clear_options()
    assert reusing.compile(SENSITIVE) == plain


def test_machines_are_kept_per_level_and_triple(plugins):
    reusing, fresh = plugins
    for triple in (None, "x86_64-unknown-linux-gnu", "i686-unknown-linux-gnu"):
        for flags in ("-O0", "-O1", "-O2", "-O3"):
            for _ in range(2):
                assert reusing.compile(SENSITIVE, triple, flags) == fresh.compile(SENSITIVE, triple, flags)


def test_a_failed_compile_leaves_later_outputs_intact(plugins):
    reusing, fresh = plugins
    plain = fresh.compile(SENSITIVE)
    with pytest.raises(llvmplug.ParseError):
        reusing.compile("define void @f( {")
    with pytest.raises(llvmplug.TargetError):
        reusing.compile(SENSITIVE, flags="-mcpu=no-such-cpu")
    assert reusing.compile(SENSITIVE) == plain

