"""``python -m benchmarks [--quick] [--out DIR] [--only SECTION ...]``: llvmplug against the alternatives.

Writes ``benchmarks.md`` (a targets table, then one part per section),
``benchmarks.json`` (every section's raw result, the machine, the load
average before and after each section) and ``benchmarks.png`` (a section's
chart). The IR comes from the vendored corpus, or ``$LLVMPLUG_CORPUS``.

Sections: the contract
----------------------
A section is a module ``benchmarks/<name>.py`` listed in ``SECTIONS`` below;
the runner imports each one by name (a missing module is an error: add a name
when its module is merged, not before). It provides:

- ``run(quick: bool) -> dict``: measure, print progress to stderr if it likes
  (``_common.progress``), return JSON-serialisable numbers (finite ones), or
  ``{"unavailable": reason}`` when it cannot run on this machine. ``quick``
  must keep the whole suite to a few minutes on 2 cores (the tests run it);
- ``markdown(result: dict) -> str``: its part of the report, from its own
  result only, starting with a ``## `` heading;
- optionally ``targets(result: dict) -> list[dict]``: one row per target with
  keys ``target``, ``measured``, ``met`` (bool; None for a row reported with
  no numeric target) and ``note`` (why not, or why
  the peer is not comparable), scored on the metric the section itself defines;
- optionally ``chart(result: dict, path: Path) -> bool``: write a PNG, False
  when it cannot (no matplotlib).

Timing, RSS, fresh worker processes and table helpers are in ``_common``; the
inputs (corpus, concatenations, generated loops) in ``corpus``.
"""

from __future__ import annotations

import argparse
import importlib
import json
import shlex
import sys
import time
from pathlib import Path
from typing import Any

import llvmplug

from ._common import load_average, machine_info, markdown_table, mib, progress
from .corpus import corpus_dir

# Run in this order (latency first, on a quiet process).
SECTIONS = ["latency", "overhead", "reset", "throughput", "cache", "recovery", "memory", "artefacts", "soak", "gpu",
            "run_code", "parallel", "bigmodule", "cxx"]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks",
        description="Benchmark llvmplug against llvmlite, opt | llc, a process per compile and process "
        f"isolation, on the IR corpus ({corpus_dir()}; $LLVMPLUG_CORPUS overrides). Sections: "
        f"{', '.join(SECTIONS)}. A missing optional peer is reported with the reason.")
    parser.add_argument("--quick", action="store_true", help="a small run, a few minutes (what the tests run)")
    parser.add_argument("--out", type=Path, default=Path("benchmark-results"),
                        help="directory for benchmarks.md/.json/.png (default: ./benchmark-results)")
    parser.add_argument("--only", nargs="+", choices=SECTIONS, metavar="SECTION", help="run only these sections")
    parser.add_argument("--update-docs", action="store_true",
                        help="rewrite the figures quoted in README.md and docs/*.md from this run "
                        "(benchmarks/claims.py); use with a full run and --out docs")
    return parser


def _header(report: dict[str, Any]) -> list[str]:
    machine = report["machine"]
    llvm = report["llvmplug"]
    return [
        "# llvmplug benchmarks", "",
        f"Made by `{report['command']}` ({report['mode']} run, {report['seconds']:.0f} s) on {machine['cpu']}, "
        f"{machine['cores']} cores, {mib(machine['memory_bytes'])} RAM, {machine['platform']}, Python "
        f"{machine['python']}; llvmplug {llvm['version']} with LLVM {llvm['llvm_version']}. Load average "
        f"(1 min) before each section: " + ", ".join(f"{name} {s['load_before'][0]:.2f}" for name, s in
                                                      report["sections"].items() if s["load_before"])
        + ": other work on the machine shows most in the throughput rows.", "",
    ]


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    started = time.perf_counter()
    report: dict[str, Any] = {
        "command": "python -m benchmarks " + shlex.join(sys.argv[1:] if argv is None else argv),
        "mode": "quick" if args.quick else "full", "machine": machine_info(),
        "llvmplug": {"version": llvmplug.__version__, "path": str(Path(llvmplug.__file__).parent),
                     "llvm_version": llvmplug.info()["llvm_version"]},
        "corpus": str(corpus_dir()), "sections": {}}
    parts, targets, failed = [], [], []
    args.out.mkdir(parents=True, exist_ok=True)
    for name in args.only or SECTIONS:
        module = importlib.import_module(f"{__package__}.{name}")
        progress(f"section {name}")
        entry: dict[str, Any] = {"load_before": load_average()}
        section_start = time.perf_counter()
        try:
            result = module.run(args.quick)
        except Exception as error:  # noqa: BLE001 - one broken section must not lose the others
            entry["error"] = f"{type(error).__name__}: {error}"
            progress(f"section {name} failed: {entry['error']}")
            failed.append(name)
            parts.append(f"## {name}\n\nFailed: {entry['error']}\n")
        else:
            entry["result"] = result
            parts.append(module.markdown(result))
            targets += getattr(module, "targets", lambda _: [])(result)
            chart = getattr(module, "chart", None)
            if chart is not None and chart(result, args.out / f"{name}.png"):
                parts[-1] += f"\n![{name}]({name}.png)\n"
        entry["seconds"] = time.perf_counter() - section_start
        report["sections"][name] = entry
    report["seconds"] = time.perf_counter() - started
    out = _header(report)
    if targets:
        out += ["## Targets", "", markdown_table(["target", "measured", "met?", "note"], [
            [t["target"], t["measured"], "n/a" if t["met"] is None else "yes" if t["met"] else "**no**", t["note"]] for t in targets]), ""]
    (args.out / "benchmarks.md").write_text("\n".join(out + parts))
    (args.out / "benchmarks.json").write_text(json.dumps(report, indent=1, default=str))
    if args.update_docs:
        from . import claims

        for path in claims.update(report):
            progress(f"updated the figures of {path}")
    progress(f"done in {report['seconds']:.0f} s: {args.out / 'benchmarks.md'}"
             + (f"; FAILED: {', '.join(failed)}" if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
