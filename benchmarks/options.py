"""TVM-style option save/apply/restore in one process, against llvmplug's per-call flags.

TVM keeps one LLVM per process and around each compile saves the cl::opt
values it changes, applies its own and restores the saved ones. Timed alone
(not the compile) three ways: llvmplug's per-call flags (in C++, inside the
call: empty-module compiles with and without them, in pairs); the same pattern
in Python over llvmplug's sticky options; llvmlite's ``set_option`` (no
getter, so "restore" sets values the caller knows; in a child process, since
it cannot be undone). And what restoring by value cannot undo: an option that
was never set (``unroll-threshold`` has no default; LLVM asks "was it given?").
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
from typing import Any

import llvmplug

from ._common import markdown_table, ms, once, summary
from .corpus import EMPTY, concatenate, load_corpus

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


def run(quick: bool) -> dict[str, Any]:
    """Cost of each save/apply/restore mechanism per compile, and what it leaves behind."""
    module, empty, count = concatenate(load_corpus(), 8), EMPTY, 200 if quick else 2000
    plugin = llvmplug.Plugin(private=True)
    # The module's compile time, for scale.
    compile_time = summary([once(lambda: plugin.compile(module.text, flags="-O2")) for _ in range(20)])

    # The smallest compile, with and without the flags, in pairs: the
    # difference is least buried in noise (the first pair warms up).
    plain, scoped = [], []
    for _ in range(count + 1):
        plain.append(once(lambda: plugin.compile(empty.text, flags="-O2")))
        scoped.append(once(lambda: plugin.compile(empty.text, flags=PER_CALL)))
    plain, scoped = plain[1:], scoped[1:]

    def save_apply_restore() -> None:
        saved = {name: plugin.options(name)[0]["value"] for name in OPTIONS}
        plugin.set_options([f"-{name}={value}" for name, value in OPTIONS.items()])
        # ... the compile would run here ...
        plugin.set_options([f"-{name}={value}" for name, value in saved.items()])

    python_scoped = [once(save_apply_restore) for _ in range(count)]

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


def markdown(result: dict[str, Any]) -> str:
    p, demo, lite = result["llvmplug"], result["unroll_threshold_demo"], result["llvmlite"]
    compile_time = result["compile"]["median"]
    flags = p["per_call_flags"]

    def row(label: str, stats: dict[str, float]) -> list[str]:
        return [label, ms(stats["median"]), ms(stats["p95"]), f"{stats['median'] / compile_time:.2%}"]

    rows = [[f"llvmplug per-call flags (in C++, inside the call; {flags['plain']['n']} pairs of empty-module "
             "compiles with and without them)", f"{ms(flags['median_difference'])} (difference of medians)",
             f"{ms(flags['min_difference'])} (difference of minimums)",
             f"{flags['median_difference'] / compile_time:.2%}"],
            row("TVM-style in Python over llvmplug: 3x options(), set_options(new), set_options(saved)",
                p["python_save_apply_restore"])]
    if "skipped" not in lite:
        rows.append(row("llvmlite: 3x set_option(new), 3x set_option(known default)", lite["apply_restore"]))
    restored = "left later compiles unchanged" if demo["same_after_value_restore"] else "**changed later compiles**"
    return "\n".join([
        "## TVM-style option save/apply/restore in one process", "",
        "The mechanism's cost per compile, without the compile; options "
        + ", ".join(f"`-{k}={v}`" for k, v in result["options"].items())
        + f". The last column divides by one O2 compile of {result['module']} ({ms(compile_time)}).", "",
        markdown_table(["approach", "median", "p95 (per-call flags: a second estimate)", "of a compile"], rows), "",
        "The per-call flags' cost is a difference between two distributions of ~1 ms compiles, of the order of "
        "the machine's noise: hence two estimates (one may come out negative).", "",
        f"What value-based save/restore cannot do: put back an option that was never set. `unroll-threshold` has "
        f"no default (LLVM checks whether it was given); saving its value (`{demo['saved_value']}`) and setting "
        f"it back {restored} (same code as before after a per-call flag: {demo['same_after_per_call_flag']}; "
        f"after the value restore: {demo['same_after_value_restore']}; after `reload()`: "
        f"{demo['same_after_reload']}).",
        f"llvmlite has no getter, and what it sets stays for every later compile (Intel syntax after one "
        f"`set_option`: {lite['intel_after_set_option']}); an unknown option accepted without an error: "
        f"{lite['unknown_option_accepted']}." if "skipped" not in lite else f"llvmlite part skipped: {lite['skipped']}",
        "",
    ])
