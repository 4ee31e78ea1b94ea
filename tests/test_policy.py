"""The option policy: safe by default, every LLVM option classified.

Without the policy a caller's flags could load a library
(-x86-lvi-load-opt-plugin), write files (-stack-usage-file), print onto the
host's streams, exit the process or change later compiles (-debug-counter).
"""

from __future__ import annotations

import os

import llvmplug
import pytest
from llvmplug import _abi

CLASSES = {"value", "code", "file", "print", "exit", "state", "unsafe"}

IR = "define i32 @f(i32 %x) {\n  %y = add i32 %x, 1\n  ret i32 %y\n}\n"


@pytest.fixture(scope="module")
def trusted():
    with llvmplug.Plugin(private=True, policy="all") as p:
        yield p


def test_every_registered_option_is_classified(plugin):
    # A new LLVM brings new options: one that no rule or reviewed entry
    # covers has class None and fails here until someone reviews it.
    options = plugin.options()
    assert len(options) > 1500
    unreviewed = [o["name"] for o in options if o["class"] is None]
    assert unreviewed == [], f"options no rule classifies (review them in csrc/option_policy.cpp): {unreviewed}"
    assert {o["class"] for o in options} <= CLASSES
    assert all(o["reason"] for o in options)
    by_class = {c: sum(o["class"] == c for o in options) for c in CLASSES}
    # Every class but "value" is refused; most options are plain values.
    assert by_class["value"] > 0.8 * len(options)
    assert all(by_class[c] for c in ("code", "file", "print", "exit", "state"))


@pytest.mark.parametrize(
    ("flag", "kind"),
    [
        ("-x86-lvi-load-opt-plugin=libc.so.6", "code"),
        ("-view-edge-bundles", "code"),
        ("-view-block-freq-propagation-dags=text", "code"),
        ("-print-changed-diff-path=/bin/sh", "code"),
        ("-stack-usage-file=/tmp/llvmplug-must-not-exist", "file"),
        ("-info-output-file=/tmp/llvmplug-must-not-exist", "file"),
        ("-crash-diagnostics-dir=/tmp", "file"),
        ("-time-passes", "print"),
        ("-stats", "print"),
        ("-print-after-all", "print"),
        ("-x86-lvi-load-dot-verify", "print"),
        ("-debug-pass=Structure", "print"),
        ("-debug-counter=foo", "state"),
        ("-opt-bisect-limit=0", "state"),
        ("-opt-bisect=x", "state"),
        ("-misched=gcn-max-ilp", "unsafe"),  # an AMDGPU scheduler on the host: SIGSEGV
        ("-aarch64prelegalizercombiner-disable-rule=x", "state"),
        ("-amdgpu-verify-hsa-metadata", "print"),
    ],
)
def test_safe_default_refuses_with_the_option_and_why(plugin, flag, kind):
    name = flag.split("=", 1)[0]
    for call in (lambda: plugin.compile(IR, flags=[flag]), lambda: plugin.set_options([flag])):
        with pytest.raises(llvmplug.OptionError) as caught:
            call()
        message = str(caught.value)
        assert f"'{name}'" in message
        assert kind in message and 'Plugin(policy="all")' in message
    assert not os.path.exists("/tmp/llvmplug-must-not-exist")
    assert plugin.options_policy == "safe"


def test_exiting_options_are_refused_even_for_trusted_callers(trusted):
    assert {o["name"]: o["class"] for o in trusted.options("help*")}["help"] == "exit"
    for flag in ("-help", "-version", "-help-hidden"):
        with pytest.raises(llvmplug.OptionError, match="not available"):
            trusted.compile(IR, flags=[flag])


def test_classes_listed_match_what_is_refused(plugin):
    listed = {o["name"]: o for o in plugin.options("stack-usage-file")}
    assert listed["stack-usage-file"]["class"] == "file"
    assert "path" in listed["stack-usage-file"]["reason"]
    assert plugin.options("x86-asm-syntax")[0]["class"] == "value"


def test_values_of_the_compile_are_accepted(plugin):
    asm = plugin.compile(IR, flags=["-x86-asm-syntax=intel", "-O3", "-mcpu=x86-64-v2"], output="asm").decode()
    assert "lea\teax, [rdi + 1]" in asm  # Intel syntax


def test_printing_and_viewing_passes_are_refused(plugin, trusted):
    for pipeline in ("function(view-cfg)", "print<domtree>", "dot-cfg", "function(instcombine,print)"):
        with pytest.raises(llvmplug.OptionError, match="in -passes is refused"):
            plugin.compile(IR, flags=[f"-passes={pipeline}"])
    plugin.compile(IR, flags=["-passes=function(instcombine,simplifycfg)"])
    trusted.compile(IR, flags=["-passes=print<domtree>"])


def test_all_gives_full_access(trusted, tmp_path):
    usage = tmp_path / "usage.su"
    trusted.compile(IR, flags=[f"-stack-usage-file={usage}"])
    assert usage.exists() and "f" in usage.read_text()
    assert trusted.options_policy == "all"


def test_policy_survives_reload_and_automatic_reload(tmp_path):
    with llvmplug.Plugin(private=True, policy="all") as p:
        p.reload()
        p.compile(IR, flags=["-stats"])
        p._backend._poisoned = True  # as after a FatalError: the next call reloads the copy
        p.compile(IR, flags=["-stats"])
        assert not p.poisoned
    with llvmplug.Plugin(private=True) as p:
        p.reload()
        with pytest.raises(llvmplug.OptionError):
            p.compile(IR, flags=["-stats"])


def test_set_policy_refuses_while_a_refused_option_is_sticky(trusted):
    def set_policy(policy: int) -> None:
        with trusted._backend._calling() as lib:
            _abi.call(lib, "llvmplug_set_policy", policy)

    trusted.set_options("-stats")
    try:
        with pytest.raises(llvmplug.OptionError, match="'-stats'"):
            set_policy(0)
    finally:
        trusted.clear_options()
    set_policy(0)  # allowed once clear
    try:
        with pytest.raises(llvmplug.OptionError):
            trusted.compile(IR, flags=["-stats"])
    finally:
        set_policy(1)
    with pytest.raises(llvmplug.ArgumentError):
        set_policy(7)


@pytest.mark.parametrize(("value", "error"), [("bogus", llvmplug.ArgumentError), (1, llvmplug.ArgumentTypeError)])
def test_bad_policy_arguments(value, error):
    with pytest.raises(error):
        llvmplug.Plugin(private=True, policy=value)


def test_policy_under_process_isolation(tmp_path):
    usage = tmp_path / "usage.su"
    with llvmplug.Plugin(isolation="process") as p:
        assert p.options_policy == "safe"
        with pytest.raises(llvmplug.OptionError, match="stack-usage-file"):
            p.compile(IR, flags=[f"-stack-usage-file={usage}"])
    assert not usage.exists()
    with llvmplug.Plugin(isolation="process", policy="all") as p:
        p.compile(IR, flags=[f"-stack-usage-file={usage}"])
    assert usage.exists()


@pytest.mark.parametrize(
    ("flag", "ok"),
    [
        ("-align-all-functions=4", True),
        ("-align-all-functions=4294967295", False),  # hangs codegen (found by the sweep)
        ("-force-vector-interleave=4", True),
        ("-force-vector-interleave=1000000", False),  # never finishes
        ("-lsr-complexity-limit=1000", True),
        ("-lsr-complexity-limit=0", False),  # loop strength reduction loops for ever
        # Found by the per-backend sweep (tests/sweep_options.py), each option
        # compiled for its own backend.
        ("-aarch64-bcc-offset-bits=8", True),
        ("-aarch64-bcc-offset-bits=2", False),  # branch relaxation never ends
        ("-sparc-bpr-offset-bits=0", False),  # exhausts memory
        ("-amdgpu-s-branch-bits=1", False),
        ("-aarch64-sve-vector-bits-min=512", True),
        ("-aarch64-sve-vector-bits-min=1000000", False),  # never finishes
        ("-amdgpu-snop-padding=1000000", False),  # never finishes
        ("-amdgpu-promote-alloca-to-vector-vgpr-ratio=0", False),  # SIGFPE
    ],
)
def test_values_that_hang_llvm_are_refused(plugin, flag, ok):
    if ok:
        plugin.compile(IR, flags=[flag])
    else:
        with pytest.raises(llvmplug.OptionError, match="safe range"):
            plugin.compile(IR, flags=[flag])


def test_backend_options_reviewed_for_every_linked_backend(plugin):
    classes = {o["name"]: o["class"] for o in plugin.options()}
    # TableGen's GlobalISel combiner rule toggles, one rule for every backend:
    # a callback appends to a global list that resetting does not clear.
    toggles = [n for n in classes if n.endswith(("-disable-rule", "-only-enable-rule"))]
    assert len(toggles) >= 20 and {classes[n] for n in toggles} == {"state"}
    assert {n.split("-")[0][:5] for n in toggles} >= {"aarch", "amdgp", "riscv", "mipsp", "x86pr", "spirv", "webas"}
    for name in ("amdgpu-sched-strategy", "cphoistfn", "nvvm-reflect-add", "spirv-ext",
                 "reserve-regs-for-regalloc", "emscripten-cxx-exceptions-allowed"):
        assert classes[name] == "value", name
    assert classes["sve-tail-folding"] == "state"
    # Prints "AMDGPU HSA Metadata Parser Test: PASS" onto stderr.
    assert classes["amdgpu-verify-hsa-metadata"] == "print"
