"""Reset in a blink: reset-to-first-result with a warmed standby copy, against the alternatives.

    python -m benchmarks.reset_standby [--quick] [--json out.json]

A reset is over when the reset LLVM has produced its first result (a compile
of tests/data/arith.ll at -O2), so every row times the reset *and* that
compile. Rows:

- fresh worker process: ``Plugin(isolation="process")`` started, until its
  first result (what a service does without llvmplug's reset);
- default Plugin reload (the package's file, mapped again);
- private reload (the memfd kept from the last load, mapped again: no copy);
- standby reload (``Plugin(private=True, standby=True)``: the warmed standby
  swapped in, the old copy retired on a background thread), and the same
  with ``isolation="process"`` (a started, warmed child swapped in). Resets
  are spaced so that the next standby is ready, as in a service that resets
  between requests.

It also times making a private copy (before: the 50 MB file copied to a
temporary directory and loaded from there; after: a memfd filled from the
in-memory template), and measures what the standby costs in resident memory.
Target: standby reset-to-first-result at least 50x faster than a fresh
worker process.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

import llvmplug
from llvmplug import _loader

# A small module, as the reset rows of benchmarks/reset.py use: the compile
# itself is the same work after every kind of reset, so a big one would only
# hide what the reset costs.
MODULE = "define i32 @next(i32 %x) {\n  %y = add nsw i32 %x, 1\n  ret i32 %y\n}\n"
FLAGS = "-O2"
TARGET = 50.0


def _median_ms(action: Callable[[], Any], count: int, between: Callable[[], Any] = lambda: None) -> float:
    action()  # warm-up
    between()
    samples = []
    for _ in range(count):
        start = time.perf_counter()
        action()
        samples.append(time.perf_counter() - start)
        between()
    return statistics.median(samples) * 1e3


def _fresh_worker() -> None:
    plugin = llvmplug.Plugin(isolation="process")
    plugin.compile(MODULE, flags=FLAGS)
    plugin.unload()


def _reset(plugin: llvmplug.Plugin) -> Callable[[], None]:
    def action() -> None:
        plugin.reload()
        plugin.compile(MODULE, flags=FLAGS)
    return action


def _standby_ready(plugin: llvmplug.Plugin) -> Callable[[], None]:
    def wait() -> None:
        done = plugin._backend._standby_done  # noqa: SLF001 - the benchmark waits for the background work
        if done is not None:
            done.wait()
        while _loader.retiring():
            time.sleep(0.001)
    return wait


def _spare_ready(plugin: llvmplug.Plugin) -> Callable[[], None]:
    def wait() -> None:
        done = plugin._backend._spare_done  # noqa: SLF001 - the benchmark waits for the background work
        if done is not None:
            done.wait()
    return wait


def _copy_on_disk() -> None:
    """The former private load: copy the file to a temporary directory, load the copy."""
    directory = Path(tempfile.mkdtemp(prefix="llvmplug-bench-"))
    try:
        copy = directory / _loader.LIBRARY_NAME
        shutil.copyfile(_loader.library_path(), copy)
        library = _loader.Library(copy)
        copy.unlink()
        library.close()
    finally:
        shutil.rmtree(directory, ignore_errors=True)


def _copy_in_memory() -> None:
    _loader.Library(private=True).close()


_RSS = r"""
import json, sys, time, llvmplug
def rss():
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
standby = sys.argv[1] == "standby"
plugin = llvmplug.Plugin(private=True, standby=standby)
plugin.compile(open(sys.argv[2]).read())
if standby:
    plugin._backend._standby_done.wait()
print(json.dumps(rss()))
"""


def _rss(standby: bool) -> int:
    data = Path(__file__).resolve().parents[1] / "tests" / "data" / "arith.ll"
    done = subprocess.run([sys.executable, "-c", _RSS, "standby" if standby else "plain", str(data)],
                          capture_output=True, text=True, check=True, timeout=300, cwd=tempfile.gettempdir())
    return int(json.loads(done.stdout.strip().splitlines()[-1]))


def run(quick: bool = False) -> dict[str, Any]:
    """Measure every row; ``quick`` takes fewer samples."""
    count = 5 if quick else 30
    results: dict[str, Any] = {"count": count}
    results["fresh worker process"] = _median_ms(_fresh_worker, max(3, count // 3))
    with llvmplug.Plugin() as shared:
        results["default Plugin reload"] = _median_ms(_reset(shared), count)
    with llvmplug.Plugin(private=True) as private:
        results["private reload"] = _median_ms(_reset(private), count)
    with llvmplug.Plugin(private=True, standby=True) as standby:
        results["standby reload"] = _median_ms(_reset(standby), count, _standby_ready(standby))
    with llvmplug.Plugin(isolation="process", standby=True) as child:
        results["process standby reload"] = _median_ms(_reset(child), max(3, count // 3), _spare_ready(child))
    results["private copy on disk (before)"] = _median_ms(_copy_on_disk, max(3, count // 3))
    results["private copy from the memfd template (after)"] = _median_ms(_copy_in_memory, max(3, count // 3))
    if sys.platform.startswith("linux"):
        plain, with_standby = _rss(False), _rss(True)
        results["rss plain MiB"] = plain / 2**20
        results["rss standby MiB"] = with_standby / 2**20
    results["standby speed-up vs fresh worker"] = results["fresh worker process"] / results["standby reload"]
    results["met"] = results["standby speed-up vs fresh worker"] >= TARGET
    return results


def markdown(results: dict[str, Any]) -> str:
    """The results as a markdown table."""
    fresh = results["fresh worker process"]
    lines = [
        f"### Reset to first result (median of {results['count']}, a one-line function at {FLAGS})",
        "",
        "| reset | time | vs fresh worker process |",
        "|---|---|---|",
    ]
    for row in ("fresh worker process", "default Plugin reload", "private reload", "standby reload",
                "process standby reload"):
        lines.append(f"| {row} | {results[row]:.2f} ms | {fresh / results[row]:.1f}x |")
    lines += [
        "",
        f"Target: standby reset at least {TARGET:.0f}x faster than a fresh worker process: "
        f"{results['standby speed-up vs fresh worker']:.1f}x, {'met' if results['met'] else 'NOT met'}.",
        "",
        "| a new private copy, loaded and unloaded | time |",
        "|---|---|",
        f"| file copied to a temporary directory (before) | {results['private copy on disk (before)']:.1f} ms |",
        f"| memfd filled from the in-memory template (after) | "
        f"{results['private copy from the memfd template (after)']:.1f} ms |",
        "",
        "Making a copy costs about the same either way (50 MB of pages); what the memfd changes is that",
        "nothing is ever on disk, and that a private reload maps the same memfd again instead of making",
        "a new copy (the private reload row above, which before included a new copy).",
    ]
    if "rss plain MiB" in results:
        extra = results["rss standby MiB"] - results["rss plain MiB"]
        lines += ["", f"Standby memory: a process with one private Plugin {results['rss plain MiB']:.0f} MiB resident, "
                  f"with standby={True} {results['rss standby MiB']:.0f} MiB (+{extra:.0f} MiB): opt-in."]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.reset_standby", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer samples")
    parser.add_argument("--json", type=Path, help="also write the results as JSON")
    args = parser.parse_args()
    results = run(args.quick)
    print(markdown(results))
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
