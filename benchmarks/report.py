"""The readable report: Markdown tables with ratios, targets met or missed, and the chart."""

from __future__ import annotations

import math
import statistics
from pathlib import Path
from typing import Any

from ._common import markdown_table, mib, ms, ratio

BASE = "llvmplug"


def _fmt_ratio(value: float) -> str:
    return "n/a" if value is None or math.isnan(value) else f"{value:.2f}x"


def targets(results: dict[str, Any]) -> list[dict[str, Any]]:
    """Each target of the issue with the measured ratio and whether it was met."""
    rows: list[dict[str, Any]] = []
    lat = results.get("latency")
    if lat and all("llvmlite" in c["stats"] for c in lat.values()):
        ratios = {name: c["stats"]["llvmlite"]["median"] / c["stats"][BASE]["median"] for name, c in lat.items()}
        slower = [name for name, value in ratios.items() if value < 1.0]
        geo = math.exp(statistics.fmean(math.log(v) for v in ratios.values()))
        rows.append({
            "target": "in-process compile no slower than llvmlite (same IR, O2)",
            "measured": f"llvmlite/llvmplug median: {geo:.2f}x geometric mean, "
                        f"{min(ratios.values()):.2f}x..{max(ratios.values()):.2f}x over {len(ratios)} module sizes",
            "met": not slower,
            "why": "" if not slower else "slower on: " + ", ".join(f"{n} ({ratios[n]:.2f}x)" for n in slower),
        })
    over = results.get("overhead")
    if over:
        slow = [m for m in over["modules"] if m["python_call"]["median"] > 0.010]
        if slow:
            worst = max(slow, key=lambda m: m["overhead_fraction"])
            rows.append({
                "target": "ABI overhead under 1% of compile time for modules over 10 ms",
                "measured": f"at most {worst['overhead_fraction'] * 100:.2f}% ({ms(worst['overhead']['median'])} "
                            f"of {ms(worst['python_call']['median'])}, {worst['module']}) over {len(slow)} "
                            f"modules; {ms(over['empty']['overhead']['median'])} on an empty module",
                "met": worst["overhead_fraction"] < 0.01,
                "why": "" if worst["overhead_fraction"] < 0.01 else (
                    "the Python-side work per call (checks, encoding, the Plugin's bookkeeping, cffi, "
                    "copying out) runs with cold caches after the compile and then costs several times "
                    "its warm cost (section 2), which is over 1% of the smallest modules above 10 ms"),
            })
    res = results.get("reset")
    if res:
        stats = res["stats"]
        bare = stats["fresh worker process"]["median"] / stats["reload"]["median"]
        first = stats["fresh worker process + first compile"]["median"] / stats["reload + first compile"]["median"]
        rows.append({
            "target": "reload at least 30x faster than starting a fresh worker process",
            "measured": f"{bare:.1f}x (until ready: {ms(stats['reload']['median'])} vs "
                        f"{ms(stats['fresh worker process']['median'])}); {first:.1f}x including the first compile",
            "met": bare >= 30,
            "why": "" if bare >= 30 else (
                f"a reload is a dlclose + dlopen of a {_shim_size(results)} library (relocations, LLVM's "
                "static initialisers); a worker start is Python's start-up plus the same load"),
        })
    sca = results.get("scaling")
    if sca:
        for name, workload in sca.items():
            one = workload["rows"]["1 private instance"]["per_second"]
            two = workload["rows"]["2 private instances"]["per_second"]
            load = results["machine"].get("load_average")
            per_cpu = (workload["rows"]["2 private instances"]["per_cpu_second"]
                       / workload["rows"]["1 private instance"]["per_cpu_second"])
            rows.append({
                "target": f"2 private instances >= 1.7x the throughput of 1 on 2 cores ({name})",
                "measured": f"{two / one:.2f}x",
                "met": two / one >= 1.7,
                "why": "" if two / one >= 1.7 else (
                    f"the two lanes got {workload['rows']['2 private instances']['cores_used']:.2f} cores "
                    f"of CPU time (1 lane: {workload['rows']['1 private instance']['cores_used']:.2f})"
                    + (f"; the machine was shared, load average {load[0]:.1f} on {results['machine']['cores']} cores"
                       if load else "")
                    + f". Per CPU-second, two instances did {per_cpu:.2f}x the work of one: with two whole "
                    f"cores the ratio would be about {2 * per_cpu:.1f}x (an estimate, not a measurement)"),
            })
    return rows


def _shim_size(results: dict[str, Any]) -> str:
    art = results.get("artefacts", {}).get("llvmplug")
    return mib(art["installed"]) if art else "large"


def _latency(results: dict[str, Any]) -> list[str]:
    lat = results["latency"]
    backends = results["backends"]
    out = ["## 1. Compile latency (parse + verify + O2 + object)", ""]
    out.append("Median per module, and the ratio to llvmplug in process (higher = slower than llvmplug).")
    out.append("")
    headers = ["backend"] + [
        f"{name} ({c['modules']} modules)" if c["modules"] > 1 else f"{name} ({c['functions']} fn)"
        for name, c in lat.items()]
    rows = []
    for key, backend in backends.items():
        cells = [backend["label"]]
        for c in lat.values():
            mine, base = c["stats"][key]["median"], c["stats"][BASE]["median"]
            cells.append(ms(mine) if key == BASE else f"{ms(mine)} ({ratio(mine, base)})")
        rows.append(cells)
    out += [markdown_table(headers, rows), ""]
    out.append("p95 per module:")
    out.append("")
    rows = [[b["label"]] + [ms(c["stats"][k]["p95"]) for c in lat.values()] for k, b in backends.items()]
    out += [markdown_table(headers, rows), ""]
    out.append("Versions: " + "; ".join(f"{b['label']}: {b['version']}" for b in backends.values()) + ".")
    out.append("")
    sizes = ", ".join(f"{name}: {c['modules']} module(s), {c['ir_bytes'] / 1024:.0f} KiB of IR" for name, c in lat.items())
    out += [f"Module sizes: {sizes}. Samples per backend: see benchmarks.json.", ""]
    out += [
        "How each backend does the work (all: IR text in, verify, LLVM's default O2 pipeline with the "
        "host's target machine, O2 codegen, an ELF object for the host triple, default CPU):", "",
        "- llvmplug in process: `Plugin.compile(text, flags=\"-O2\")`; a new target machine per call.",
        "- llvmlite in process: `parse_assembly`, `verify`, `create_pass_builder(tm, "
        "PipelineTuningOptions(speed_level=2))` module pipeline, `tm.emit_object`; one target machine "
        "made once and reused (as a llvmlite user would). Its pipeline tuning defaults match LLVM's "
        "(loop vectorisation on, SLP off), but its LLVM is one release older, so the pass pipelines "
        "differ by what changed between those releases, and llvmlite's wheel builds LLVM with "
        "assertions enabled (see Versions above), which costs time (how much of the gap it explains "
        "was not measured: no llvmlite without assertions was at hand). The ratio compares what a "
        "user gets from PyPI, not the two LLVM releases.",
        "- llvmplug compile: one `llvmplug compile IN -o OUT -O2` process per module (Python start, "
        "import, shim load, compile, write).",
        "- opt | llc: `opt -O2 -mtriple=HOST IN -o - | llc -O2 -mtriple=HOST -filetype=obj -o OUT`, "
        "LLVM's own tools of the same major version, each a process per module.",
        "- process isolation: one long-lived child; each compile is a pickled request over a pipe.",
        "- Files are written before timing; the output is checked to be an object file. Backends take "
        "turns round by round, so changes in machine load hit them alike.", "",
    ]
    return out


def _overhead(results: dict[str, Any]) -> list[str]:
    o = results["overhead"]
    rows = []
    for c in [o["empty"], *o["modules"]]:
        rows.append([c["module"], str(c["python_call"]["n"]), ms(c["python_call"]["median"]),
                     ms(c["c_call"]["median"]),
                     f"{ms(c['overhead']['median'])} (p95 {ms(c['overhead']['p95'])})",
                     f"{c['overhead_fraction'] * 100:.3f}%"])
    out = [
        "## 2. Per-call overhead of the ABI", "",
        markdown_table(["module", "calls", "Plugin.compile()", "inside the C call", "Python-side overhead",
                        "overhead / call"], rows), "",
        "- Method: the Plugin's cffi library is wrapped, for the measurement only, in a proxy that "
        "times the C function `llvmplug_compile` inside each `Plugin.compile()` call; the difference "
        "within the same call is all the work llvmplug adds in Python (checks, encoding, cffi, "
        "copying the object out, freeing the result). The proxy's own cost is included, so this "
        "overstates the overhead slightly.",
        f"- Crossing into the library (cffi call of `llvmplug_abi_version()`): {ms(o['crossing'])}.",
        "- The shim's own boundary code inside the C call (lock, flag splitting, option look-up, "
        "result copy) cannot be separated without instrumenting the shim. An upper bound for "
        "everything fixed per call, LLVM's own per-compile set-up included (context, parser, target "
        f"machine, pass pipeline): the C call on an empty module, {ms(o['empty']['c_call']['median'])} "
        "(llvmlite's cost for an empty module is in the latency table).",
    ]
    cold = o.get("cold_python")
    if cold:
        out.append(
            f"- Why the overhead grows after a long compile: the wrapper's Python work before the C call "
            f"takes {ms(cold['warm'])} warm, {ms(cold['after_compile'])} right after a {cold['module']} "
            f"compile and {ms(cold['after_sleep'])} right after sleeping as long: the interpreter runs "
            "with cold caches whenever the thread has been away, whatever it was doing.")
    return out + [""]


def _reset(results: dict[str, Any]) -> list[str]:
    stats = results["reset"]["stats"]
    fresh = stats["fresh worker process"]["median"]
    fresh_compiled = stats["fresh worker process + first compile"]["median"]
    rows = [[name, ms(s["median"]), ms(s["p95"]),
             ratio(fresh_compiled if "compile" in name else fresh, s["median"])] for name, s in stats.items()]
    return [
        "## 3. Reset cost", "",
        "'fresh worker process' = start a Python process that imports llvmplug and loads the shim, "
        "until it reports ready (its exit is not timed); '+ first compile' adds compiling a small "
        f"corpus module ({results['reset']['module']}) in the reset LLVM. The last column compares "
        "like with like: ready with ready, first compile with first compile.", "",
        markdown_table(["reset", "median", "p95", "fresh worker / this"], rows), "",
        "A private reload copies the shim file to a new path before loading it (that is what makes it "
        "an independent LLVM), which is why it costs more than reloading the shared copy.", "",
    ]


def _scaling(results: dict[str, Any]) -> list[str]:
    out = ["## 4. Scaling (throughput, modules per second)", ""]
    for name, workload in results["scaling"].items():
        rows_in = workload["rows"]
        one = rows_in["1 private instance"]["per_second"]
        rows = [[label, f"{r['per_second']:.1f}", _fmt_ratio(r["per_second"] / one),
                 f"{r['cores_used']:.2f}" if "how" not in r else "n/a",
                 f"{r['per_cpu_second']:.1f}" if "how" not in r and r["per_cpu_second"] else "n/a",
                 r.get("how", "")]
                for label, r in rows_in.items()]
        out += [f"Workload: {name}.", "", markdown_table(
            ["configuration", "modules/s", "vs 1 instance", "cores used", "modules per CPU-second", "how"],
            rows), ""]
    out += ["'cores used' = CPU time of the compiling threads / wall time: the cores the lanes actually "
            "got (n/a where the compiles run in the Pool's own threads or in child processes). Below 2 for two lanes means the machine did not give them two cores (other load), "
            "so the ratio cannot reach 2 whatever llvmplug does. 'modules per CPU-second' is "
            "independent of how many cores the machine gave: if two instances slowed each other down "
            "(a shared lock, allocator contention) it would drop below the one-instance figure.", "",
            "One instance serialises its calls (LLVM's options are global to a loaded copy), so two threads "
            "on one instance do not scale; two private copies are independent LLVMs.", ""]
    return out


def _memory(results: dict[str, Any]) -> list[str]:
    m = results["memory"]
    if "skipped" in m:
        return ["## 5. Memory", "", f"Skipped: {m['skipped']}", ""]
    curves = m["llvmplug"]["reload_curves"]
    rows = [
        ["Python + llvmplug imported, nothing loaded", mib(m["llvmplug"]["base"])],
        ["first loaded instance (after one compile)", "+" + mib(m["first_instance"])],
        [f"per instance, {len(m['llvmplug']['after_each_instance'])} private instances", "+" + mib(m["per_instance"])],
        ["after unloading them all", mib(m["llvmplug"]["after_unload"])],
        ["llvmlite loaded (after one compile)", "+" + mib(m["llvmlite_loaded"]) if m["llvmlite_loaded"] else "n/a"],
        ["a worker process (Python + llvmplug, after one compile)", mib(m["worker_process_rss"])],
    ]
    for name, curve in curves.items():
        rows.append([f"{name} reload cycles: RSS after first / last of {len(curve)}",
                     f"{mib(curve[0])} / {mib(curve[-1])} ({m['reload_growth_per_cycle'][name] / 1024:+.1f} KiB per cycle)"])
    return ["## 5. Memory (RSS, each measured in a fresh interpreter)", "", markdown_table(["what", "RSS"], rows), ""]


def _artefacts(results: dict[str, Any]) -> list[str]:
    rows = []
    for name, a in results["artefacts"].items():
        if "skipped" in a:
            rows.append([name, a["skipped"], ""])
        else:
            rows.append([f"{name} (`{Path(a['path']).name}`)", mib(a["installed"]), mib(a["stripped"])])
    return ["## 6. Artefact size", "", markdown_table(["library", "installed", "stripped"], rows), "",
            "Stripped with `strip --strip-all` on a copy; llvmplug's shim is installed stripped already. "
            "llvmlite's library carries many targets and LLVM's JITs (see the README's Size section); "
            "the shim carries the native target only.", ""]


def _options(results: dict[str, Any]) -> list[str]:
    o = results["options"]
    p = o["llvmplug"]
    demo = o["unroll_threshold_demo"]
    compile_time = o["compile"]["median"]

    def row(label: str, stats: dict[str, float]) -> list[str]:
        return [label, ms(stats["median"]), ms(stats["p95"]), f"{stats['median'] / compile_time * 100:.2f}%"]

    flags = p["per_call_flags"]
    rows = [
        [f"llvmplug per-call flags (save/apply/restore in C++, inside the call; {flags['plain']['n']} pairs "
         "of empty-module compiles with and without them)",
         f"{ms(flags['median_difference'])} (difference of medians)",
         f"{ms(flags['min_difference'])} (difference of minimums)",
         f"{flags['median_difference'] / compile_time * 100:.2f}%"],
        row("TVM-style in Python over llvmplug: 3x options(), set_options(new), set_options(saved)",
            p["python_save_apply_restore"]),
    ]
    lite = o["llvmlite"]
    if "skipped" not in lite:
        rows.append(row("llvmlite: 3x set_option(new), 3x set_option(known default)", lite["apply_restore"]))
    out = [
        "## 7. TVM-style option save/apply/restore in one process", "",
        "Cost of the mechanism per compile, without the compile itself; options: "
        + ", ".join(f"`-{k}={v}`" for k, v in o["options"].items())
        + f". For scale, the last column divides by one O2 compile of {o['module']} "
        f"({ms(compile_time)}).", "",
        markdown_table(["approach", "median", "p95 (per-call flags: a second estimate)", "of a compile"], rows), "",
        "The per-call flags' cost is the difference between two distributions of ~1 ms compiles; it "
        "is of the order of this shared machine's noise, hence two estimates (one may come out "
        "negative).", "",
        "What value-based save/restore cannot do:", "",
        f"- Put back an option that was never set. `unroll-threshold` has no default (LLVM checks whether "
        f"it was given); saving its value (`{demo['saved_value']}`) and setting it back afterwards "
        f"{'left later compiles unchanged' if demo['same_after_value_restore'] else '**changed every later compile**'} "
        f"(same code as before: after a per-call flag: {demo['same_after_per_call_flag']}; after the value "
        f"restore: {demo['same_after_value_restore']}; after `reload()`: {demo['same_after_reload']}).",
    ]
    if "skipped" not in lite:
        out.append(
            f"- llvmlite has no getter, so the caller must know every previous value, and an option it "
            f"sets stays for every later compile (`-x86-asm-syntax=intel` set once, later assembly in "
            f"Intel syntax: {lite['intel_after_set_option']}); an unknown option was accepted without "
            f"an error: {lite['unknown_option_accepted']}.")
    else:
        out.append(f"- llvmlite part skipped: {lite['skipped']}")
    out += [
        "- Run two configurations at once: the options are process-wide, so concurrent compiles with "
        "different options must be serialised (llvmplug: a private instance per configuration).",
        "- Reset state that is not an option (statistics, static caches, a poisoned state after a fatal "
        "error), or live beside another LLVM in the process: only unloading the library or a separate "
        "process does that.", "",
    ]
    return out


def markdown(results: dict[str, Any], chart: Path | None) -> str:
    machine = results["machine"]
    load = machine.get("load_average")
    after = machine.get("load_average_after")
    out = [
        "# llvmplug benchmarks", "",
        f"Made by `{results['command']}` ({results['mode']} mode, {results['seconds']:.0f} s) on "
        f"{machine['time_utc']}: {machine['cpu']}, {machine['cores']} cores, "
        f"{mib(machine['memory_bytes'])} RAM, {machine['platform']}, Python {machine['python']}; "
        f"llvmplug {results['llvmplug']['version']} with LLVM {results['llvmplug']['llvm_version']}.",
    ]
    if load:
        out.append(f"Load average (1/5/15 min) at the start {', '.join(f'{v:.2f}' for v in load)}"
                   + (f", at the end {', '.join(f'{v:.2f}' for v in after)}" if after else "")
                   + ": other work was running on this machine, which affects the throughput rows most.")
    out.append("")
    rows = targets(results)
    if rows:
        out += ["## Targets", "", markdown_table(
            ["target", "measured", "met?", "why not"],
            [[r["target"], r["measured"], "yes" if r["met"] else "**no**", r["why"]] for r in rows]), ""]
    if chart is not None:
        out += [f"![compile latency by backend and module size]({chart.name})", ""]
    for section, render in (("latency", _latency), ("overhead", _overhead), ("reset", _reset),
                            ("scaling", _scaling), ("memory", _memory), ("artefacts", _artefacts),
                            ("options", _options)):
        if section in results:
            out += render(results)
    if results["skipped"]:
        out += ["## Skipped", "", *[f"- {name}: {reason}" for name, reason in results["skipped"].items()], ""]
    return "\n".join(out)


def chart(results: dict[str, Any], path: Path) -> Path | None:
    """Grouped bars of median latency (log scale) with p95 whiskers; None without matplotlib."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    lat = results["latency"]
    backends = results["backends"]
    names = list(lat)
    width = 0.8 / len(backends)
    figure, axes = plt.subplots(figsize=(11, 5.5), dpi=110)
    for index, (key, backend) in enumerate(backends.items()):
        medians = [lat[n]["stats"][key]["median"] * 1e3 for n in names]
        p95 = [lat[n]["stats"][key]["p95"] * 1e3 for n in names]
        positions = [i + (index - (len(backends) - 1) / 2) * width for i in range(len(names))]
        axes.bar(positions, medians, width, label=backend["label"],
                 yerr=[[0] * len(names), [max(0.0, q - m) for q, m in zip(p95, medians)]], capsize=2)
    axes.set_yscale("log")
    axes.set_xticks(range(len(names)))
    axes.set_xticklabels([
        f"{n}\n{lat[n]['modules']} real modules, one by one" if lat[n]["modules"] > 1
        else f"{n}\n{lat[n]['functions']} fn, {lat[n]['ir_bytes'] / 1024:.0f} KiB" for n in names], fontsize=8)
    axes.set_ylabel("compile latency per module, ms (log scale; bar = median, whisker = p95)")
    axes.set_title(f"Compile latency by backend and module size ({results['mode']} run, "
                   f"{results['machine']['time_utc']})")
    axes.grid(axis="y", which="both", alpha=0.3)
    axes.legend(fontsize=8, loc="upper left")
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)
    return path
