"""TVM-style option save/apply/restore in one process, against llvmplug's per-call flags.

TVM keeps one LLVM per process and, around each compile, saves the cl::opt
values it is about to change, applies its own, and restores the saved ones.
This suite times that mechanism alone (not the compile), three ways:

- llvmplug's per-call flags (the shim saves, applies and restores in C++):
  compiles of an empty module with and without the flags, in pairs;
- the same pattern written in Python over llvmplug's sticky options: read the
  values with ``options()``, ``set_options()`` the new ones, then the saved
  ones again;
- llvmlite's ``set_option``: there is no way to read an option, so "restore"
  can only set values the caller already knows (run in a child process,
  since what it changes cannot be undone in this one).

It also shows what value-based save/restore cannot do: an option that was
never set (``unroll-threshold`` has no default; LLVM reads "was it given?")
cannot be put back by setting its old value, and later compiles change.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any

import llvmplug

from ._common import summary
from .corpus import Module

OPTIONS = {"inline-threshold": "500", "enable-loop-distribute": "1", "x86-asm-syntax": "intel"}
PER_CALL = "-O2 " + " ".join(f"-{name}={value}" for name, value in OPTIONS.items())

# A loop with a constant trip count: fully unrolled at O2 unless an explicit
# -unroll-threshold is in force.
UNROLL_PROBE = """\
define i32 @sum6(ptr %a) {
entry:
  br label %body
body:
  %i = phi i64 [ 0, %entry ], [ %next, %body ]
  %s = phi i32 [ 0, %entry ], [ %s2, %body ]
  %p = getelementptr inbounds i32, ptr %a, i64 %i
  %v = load volatile i32, ptr %p, align 4
  %m = mul i32 %v, %s
  %s2 = add i32 %m, %v
  %next = add nuw i64 %i, 1
  %more = icmp ult i64 %next, 6
  br i1 %more, label %body, label %exit
exit:
  ret i32 %s2
}
"""

LLVMLITE_CHILD = r"""
import json, sys, time
import llvmlite.binding as llvm
llvm.initialize_native_target(); llvm.initialize_native_asmprinter()
count = int(sys.argv[1])
def asm():
    machine = llvm.Target.from_default_triple().create_target_machine(opt=2)
    return machine.emit_assembly(llvm.parse_assembly("define i32 @f(i32 %x) {\n %y = add i32 %x, 1\n ret i32 %y\n}"))
att_before = "leal" in asm()
samples = []
for _ in range(count + 1):
    start = time.perf_counter()
    llvm.set_option("", "-inline-threshold=500"); llvm.set_option("", "-enable-loop-distribute=1")
    llvm.set_option("", "-x86-asm-syntax=intel")
    # No getter: "restore" can only set values the caller already knows.
    llvm.set_option("", "-inline-threshold=225"); llvm.set_option("", "-enable-loop-distribute=0")
    llvm.set_option("", "-x86-asm-syntax=att")
    samples.append(time.perf_counter() - start)
llvm.set_option("", "-x86-asm-syntax=intel")
intel_after = "lea\teax" in asm()
try:
    llvm.set_option("", "-no-such-option=1")
    accepted = True
except Exception:
    accepted = False
print(json.dumps({"apply_restore": samples[1:], "att_before": att_before,
                  "intel_after_set_option": intel_after, "unknown_option_accepted": accepted}))
"""


def _once(action: Any) -> float:
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def _interleaved(first: Any, second: Any, count: int) -> tuple[list[float], list[float]]:
    a, b = [], []
    first()
    second()
    for _ in range(count):
        start = time.perf_counter()
        first()
        a.append(time.perf_counter() - start)
        start = time.perf_counter()
        second()
        b.append(time.perf_counter() - start)
    return a, b


def run(module: Module, empty: Module, count: int) -> dict[str, Any]:
    """Cost of each save/apply/restore mechanism per compile, and what it leaves behind."""
    plugin = llvmplug.Plugin(private=True)
    # The module's compile time, for scale.
    compile_time = summary([_once(lambda: plugin.compile(module.text, flags="-O2")) for _ in range(20)])

    # Per-call flags are applied and restored inside the C call: time compiles
    # of an empty module with and without them (the smallest compile, so the
    # difference is least buried in noise).
    plain, scoped = _interleaved(lambda: plugin.compile(empty.text, flags="-O2"),
                                 lambda: plugin.compile(empty.text, flags=PER_CALL), count)

    def save_apply_restore() -> None:
        saved = {name: plugin.options(name)[0]["value"] for name in OPTIONS}
        plugin.set_options([f"-{name}={value}" for name, value in OPTIONS.items()])
        # ... the compile would run here ...
        plugin.set_options([f"-{name}={value}" for name, value in saved.items()])

    python_scoped = [_once(save_apply_restore) for _ in range(count)]

    # What restoring by value cannot undo.
    before = plugin.compile(UNROLL_PROBE, output="asm")
    plugin.compile(UNROLL_PROBE, flags="-unroll-threshold=500")
    after_per_call = plugin.compile(UNROLL_PROBE, output="asm")
    saved = plugin.options("unroll-threshold")[0]["value"]
    plugin.set_options("-unroll-threshold=500")
    plugin.compile(UNROLL_PROBE)
    plugin.set_options(f"-unroll-threshold={saved}")
    after_restore = plugin.compile(UNROLL_PROBE, output="asm")
    plugin.reload()
    after_reload = plugin.compile(UNROLL_PROBE, output="asm")
    plugin.unload()

    result: dict[str, Any] = {
        "module": module.name,
        "compile": compile_time,
        "options": OPTIONS,
        "llvmplug": {
            # Two distributions of ~1 ms compiles differing by microseconds:
            # their medians and their minimums are compared (the minimum is
            # the least disturbed by other load, as timeit uses it).
            "per_call_flags": {"plain": summary(plain), "with_flags": summary(scoped),
                               "median_difference": statistics.median(scoped) - statistics.median(plain),
                               "min_difference": min(scoped) - min(plain)},
            "python_save_apply_restore": summary(python_scoped),
        },
        "unroll_threshold_demo": {
            "saved_value": saved,
            "same_after_per_call_flag": after_per_call == before,
            "same_after_value_restore": after_restore == before,
            "same_after_reload": after_reload == before,
        },
    }
    try:
        done = subprocess.run([sys.executable, "-c", LLVMLITE_CHILD, str(count)],
                              capture_output=True, text=True, cwd=tempfile.gettempdir(), timeout=600)
        if done.returncode:
            raise RuntimeError(done.stderr.strip()[-500:])
        lite = json.loads(done.stdout)
        result["llvmlite"] = {**lite, "apply_restore": summary(lite["apply_restore"])}
    except (RuntimeError, ValueError, subprocess.TimeoutExpired) as error:
        result["llvmlite"] = {"skipped": f"llvmlite child failed: {error}"}
    return result
