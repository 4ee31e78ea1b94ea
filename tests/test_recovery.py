"""Recovery after an error that unwound through LLVM cannot hang, and its memory is bounded.

The suspect copy is never shut down on the caller's thread: a background
thread shuts it down and unmaps it; a copy whose shutdown never finishes is
abandoned (left mapped), and at most ``_loader.MAX_RETIRING`` may be stuck
before loads are refused with a clear error.
"""

from __future__ import annotations

import sys

import pytest

from fake_shims import HELD_LOCK, build
from lifecycle_support import run_python

linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="memfd copies and /proc/self/maps")

# An AVX2 intrinsic for baseline x86-64 (no AVX2): instruction selection
# reports it through report_fatal_error, the path that poisons a copy.
# (Another target's intrinsic, the old example, is refused before code
# generation since issue 28: tests/test_target_checks.py.)
FOREIGN_INTRINSIC = """
declare <8 x i32> @llvm.x86.avx2.pmadd.wd(<16 x i16>, <16 x i16>)

define <8 x i32> @pmadd(<16 x i16> %a, <16 x i16> %b) {
  %r = call <8 x i32> @llvm.x86.avx2.pmadd.wd(<16 x i16> %a, <16 x i16> %b)
  ret <8 x i32> %r
}
"""


@linux_only
def test_a_copy_whose_shutdown_blocks_never_blocks_the_caller(tmp_path, cc):
    shim = build(cc, tmp_path, "heldlock", HELD_LOCK)
    result = run_python(
        r"""
import json, sys
import llvmplug
from llvmplug import _loader
_loader.RETIRE_WAIT = 1.0  # how long a load waits for a stuck copy before refusing
outcomes = []
plugin = llvmplug.Plugin(private=True, path=sys.argv[1])
for _ in range(_loader.MAX_RETIRING + 2):
    try:
        plugin.compile("define void @f() { ret void }")
        outcomes.append("ok")
    except llvmplug.LLVMPlugError as error:
        outcomes.append(type(error).__name__ + (": refused" if "have not finished" in str(error) else ""))
print(json.dumps({"outcomes": outcomes, "stuck": _loader.retiring(), "cap": _loader.MAX_RETIRING}))
""",
        str(shim),
        timeout=120,  # the old synchronous shutdown hangs here for ever
    )
    cap = result["cap"]
    # Each FatalError left one more copy stuck shutting down; with the cap
    # reached, the next load is refused (after a bounded wait), never hangs.
    assert result["outcomes"] == ["FatalError"] * cap + ["LibraryLoadError: refused"] * 2
    assert result["stuck"] == cap


@linux_only
def test_unloading_a_poisoned_plugin_does_not_shut_it_down_on_the_callers_thread(tmp_path, cc):
    shim = build(cc, tmp_path, "heldlock", HELD_LOCK)
    result = run_python(
        r"""
import json, sys
import llvmplug
plugin = llvmplug.Plugin(private=True, path=sys.argv[1], reload_after_fatal=False)
try:
    plugin.compile("define void @f() { ret void }")
except llvmplug.FatalError:
    pass
plugin.unload()
collected = llvmplug.Plugin(private=True, path=sys.argv[1])
try:
    collected.compile("define void @f() { ret void }")
except llvmplug.FatalError:
    pass
del collected  # the finalizer must not shut a suspect copy down either
print(json.dumps({"unloaded": not plugin.loaded}))
""",
        str(shim),
        timeout=120,
    )
    assert result == {"unloaded": True}


@linux_only
def test_recovered_copies_are_unmapped_so_memory_stays_bounded():
    result = run_python(
        r"""
import json, sys, time
import llvmplug
from llvmplug import _loader
from lifecycle_support import loaded_files

def mapped_copies():
    return sum(name.startswith("/memfd:llvmplug-") for name in loaded_files())

plugin = llvmplug.Plugin(private=True)
for _ in range(12):
    try:
        plugin.compile(sys.argv[1], "x86_64-unknown-linux-gnu")
    except llvmplug.FatalError:
        pass
deadline = time.monotonic() + 60
while _loader.retiring() and time.monotonic() < deadline:
    time.sleep(0.05)
print(json.dumps({"retiring": _loader.retiring(), "mapped": mapped_copies(),
                  "works": len(plugin.compile("define i32 @f() { ret i32 1 }")) > 0}))
""",
        FOREIGN_INTRINSIC,
    )
    # The Plugin's copy and at most the one retired last: 12 suspect copies did not pile up.
    assert result["retiring"] == 0 and result["works"]
    assert result["mapped"] <= 2, result


@linux_only
def test_the_default_plugin_maps_its_file_again_after_a_fatal_error():
    # Its suspect copy shuts down in a few ms; recovery waits that long (bounded)
    # rather than copying 50 MB.
    result = run_python(
        r"""
import json, sys
import llvmplug
plugin = llvmplug.default_plugin()
paths = [str(plugin.loaded_path)]
for _ in range(3):
    try:
        llvmplug.compile(sys.argv[1], "x86_64-unknown-linux-gnu")
    except llvmplug.FatalError:
        pass
    llvmplug.compile("define i32 @f() { ret i32 1 }")
    paths.append(str(plugin.loaded_path))
print(json.dumps({"paths": paths, "package": str(plugin.path)}))
""",
        FOREIGN_INTRINSIC,
    )
    assert result["paths"] == [result["package"]] * 4
