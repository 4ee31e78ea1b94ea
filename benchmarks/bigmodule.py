"""Compile time on one multi-megabyte real module: llvmplug beside ``opt | llc`` of the same release.

The module: Lua 5.4's interpreter, every file in one translation unit, as
clang-19 leaves it for an optimiser (``-O2 -Xclang -disable-llvm-passes``;
tests/support/programs_support.py fetches Lua's Debian source package), turned into
IR text by llvmplug (about 3.8 MB): the input both sides parse.
``$LLVMPLUG_BENCH_BIG_MODULE`` (an ``.ll`` or ``.bc`` file) measures another.

The peer is ``opt -O2`` then ``llc -O2 -filetype=obj`` of LLVM 23.1.1, the
release llvmplug embeds: tests/support's refopt and refllc, built on the same
SDK (tests/test_llc_parity.py checks that llvmplug's object equals theirs,
byte for byte, on this very module). PyPI's opt and llc (23.1.4) are timed
too, labelled as another release.

Where the time goes, from llvmplug's own runs: ``-passes=`` to bitcode is
parse (and a bitcode write), ``-O2`` to bitcode adds the IR pipeline, ``-O2``
to an object adds code generation; refopt with ``-passes=`` parses and
writes bitcode, refopt ``-O2`` adds the pipeline, refllc reads bitcode and
generates code. The steps run in turn, round after round, so other load falls
on all alike. Times are CPU seconds (this process's, or the children's),
robust to other load on the machine; wall seconds are beside them.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Callable

import llvmplug

from ._common import in_turn, markdown_table, ratio, seconds
from .corpus import Module
from .peers import OptLLC, Unavailable

TESTS = Path(__file__).resolve().parents[1] / "tests"


def _module(directory: Path) -> tuple[str, bytes]:
    chosen = os.environ.get("LLVMPLUG_BENCH_BIG_MODULE")
    if chosen:
        return Path(chosen).name, Path(chosen).read_bytes()
    if not (TESTS / "support" / "programs_support.py").exists():
        raise Unavailable(f"the module and the reference tools come from the checkout's tests/, not in {TESTS.parent}")
    sys.path.insert(0, str(TESTS / "support"))
    import programs_support

    try:
        return "Lua 5.4 in one module (clang-19, unoptimised)", programs_support.lua_in_one_module(directory, False)
    except programs_support.Unavailable as reason:
        raise Unavailable(str(reason)) from None


def reference_tools() -> tuple[Path, Path]:
    """refopt and refllc (LLVM 23.1.1's opt -O<n> and llc, on the shim's SDK), built if needed."""
    sys.path.insert(0, str(TESTS / "support"))
    import reference_tools

    try:
        return reference_tools.reference_tool("refopt"), reference_tools.reference_tool("refllc")
    except reference_tools.Unavailable as reason:
        raise Unavailable(str(reason)) from None


def _run_tool(*command: str) -> None:
    done = subprocess.run(list(command), capture_output=True, text=True)
    if done.returncode:
        raise RuntimeError(f"{Path(command[0]).name} failed: {done.stderr.strip()[-1000:]}")


def run(quick: bool) -> dict[str, Any]:
    repeat = 1 if quick else 3
    with tempfile.TemporaryDirectory() as scratch:
        directory = Path(scratch)
        try:
            name, data = _module(directory)
            refopt, refllc = reference_tools()
        except Unavailable as reason:
            return {"unavailable": str(reason)}
        text = llvmplug.compile(data, flags="-passes=", output="ll")  # what both sides parse
        source = directory / "module.ll"
        source.write_bytes(text)
        parsed, optimised, obj = directory / "parsed.bc", directory / "optimised.bc", directory / "module.o"
        result: dict[str, Any] = {"module": name, "ir_bytes": len(text),
                                  "functions": text.count(b"\ndefine "), "repeat": repeat}
        objects: list[bytes] = []
        steps: list[tuple[str, Callable[[], Any], bool]] = [
            ("llvmplug -passes= to bitcode", lambda: llvmplug.compile(text, flags="-passes=", output="bc"), False),
            ("llvmplug -O2 to bitcode", lambda: llvmplug.compile(text, flags="-O2", output="bc"), False),
            ("llvmplug -O2 to object", lambda: objects.append(llvmplug.compile(text, flags="-O2")), False),
            ("refopt -passes=", lambda: _run_tool(str(refopt), "-passes=", str(source), "-o", str(parsed)), True),
            ("refopt -O2", lambda: _run_tool(str(refopt), "-O2", str(source), "-o", str(optimised)), True),
            ("refllc -O2", lambda: _run_tool(str(refllc), "-O2", "-filetype=obj", str(optimised), "-o", str(obj)),
             True),
        ]
        try:
            info = llvmplug.info()
            pypi = OptLLC(directory, info["llvm_version"].split(".")[0], info["host_triple"])
            steps.append(("PyPI opt | llc", lambda: pypi.compile(Module("module", text.decode())), True))
            result["pypi_version"] = pypi.version
        except Unavailable as reason:
            result["pypi_unavailable"] = str(reason)
        result["rows"] = in_turn("bigmodule", steps, repeat)
        result["same_object"] = objects[-1] == obj.read_bytes()
    return result


def _split(result: dict[str, Any], key: str) -> dict[str, float]:
    """Seconds per stage, llvmplug's from differences of its runs, the tools' from their runs."""
    rows = result["rows"]
    parse = rows["llvmplug -passes= to bitcode"][key]
    to_bitcode = rows["llvmplug -O2 to bitcode"][key]
    return {
        "llvmplug parse": parse, "llvmplug optimise": to_bitcode - parse,
        "llvmplug codegen": rows["llvmplug -O2 to object"][key] - to_bitcode,
        "opt parse": rows["refopt -passes="][key], "opt optimise": rows["refopt -O2"][key] - rows["refopt -passes="][key],
        "llc (read bitcode, codegen)": rows["refllc -O2"][key],
    }


def markdown(result: dict[str, Any]) -> str:
    head = "## One multi-megabyte real module: llvmplug against opt | llc of the same release"
    if "unavailable" in result:
        return f"{head}\n\nNot measured: {result['unavailable']}\n"
    rows = result["rows"]
    ours = rows["llvmplug -O2 to object"]
    peer = {key: rows["refopt -O2"][key] + rows["refllc -O2"][key] for key in ("cpu", "wall")}
    table = [["llvmplug `-O2` (one call, text to object)", seconds(ours["cpu"]), seconds(ours["wall"]), "1.00x"],
             ["`opt -O2 | llc -O2`, LLVM 23.1.1 (refopt, refllc)", seconds(peer["cpu"]), seconds(peer["wall"]),
              ratio(peer["cpu"], ours["cpu"])]]
    if "PyPI opt | llc" in rows:
        pypi = rows["PyPI opt | llc"]
        table.append([f"`opt -O2 | llc -O2`, PyPI's {result['pypi_version']} (another release)",
                      seconds(pypi["cpu"]), seconds(pypi["wall"]), ratio(pypi["cpu"], ours["cpu"])])
    split = _split(result, "cpu")
    stages = [["parse IR text", seconds(split["llvmplug parse"]), seconds(split["opt parse"])],
              ["O2 IR pipeline", seconds(split["llvmplug optimise"]), seconds(split["opt optimise"])],
              ["code generation", seconds(split["llvmplug codegen"]), seconds(split["llc (read bitcode, codegen)"])
               + " (with reading opt's bitcode)"]]
    lines = [
        head, "",
        f"{result['module']}: {result['ir_bytes'] / 1e6:.1f} MB of IR text, {result['functions']} functions; "
        f"CPU seconds, median of {result['repeat']} (wall beside it). The objects are "
        + ("the same, byte for byte." if result["same_object"] else "**not** the same."), "",
        markdown_table(["compile", "CPU", "wall", "CPU ÷ llvmplug's CPU"], table), "",
        "Where the time goes (CPU; llvmplug's stages are differences of its runs with `-passes=` and with "
        "`output=\"bc\"`, the tools' are their own runs; parse includes a bitcode write on both sides):", "",
        markdown_table(["stage", "llvmplug", "opt | llc"], stages), "",
    ]
    if "pypi_unavailable" in result:
        lines += [f"PyPI's opt | llc not measured: {result['pypi_unavailable']}", ""]
    return "\n".join(lines)


def targets(result: dict[str, Any]) -> list[dict[str, Any]]:
    if "unavailable" in result:
        return []
    rows = result["rows"]
    ours = rows["llvmplug -O2 to object"]["cpu"]
    peer = rows["refopt -O2"]["cpu"] + rows["refllc -O2"]["cpu"]
    return [{"target": "compile time of a multi-MB real module against opt | llc of the same release (CPU)",
             "measured": f"{ours:.2f} s against {peer:.2f} s ({ratio(ours, peer)})", "met": None,
             "note": "reported side by side, no numeric target; same object: " + str(result["same_object"])}]
