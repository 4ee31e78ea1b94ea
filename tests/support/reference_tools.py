"""refllc and refopt: LLVM 23.1.1's llc and `opt -O<n>`, built on the shim's own SDK.

The release llvmplug embeds, for every backend (PyPI's llc and opt are
23.1.4, X86 only). tests/test_llc_parity.py compares llvmplug with refllc;
benchmarks/bigmodule.py times `refopt | refllc` beside llvmplug. Both are
built once (about a minute, in build/refllc or $LLVMPLUG_REFLLC_BUILD) from
tests/support/llc with CMake against mlc-llvm-static, and rebuilt when a
source is newer than the tool.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SOURCE = Path(__file__).resolve().parent / "llc"
TOOLS = ("refllc", "refopt")


class Unavailable(Exception):
    """The tools cannot be built here (no SDK, no cmake); the message says why."""


def build_directory() -> Path:
    return Path(os.environ.get("LLVMPLUG_REFLLC_BUILD") or ROOT / "build" / "refllc")


def _forget_other_source(build: Path) -> None:
    """Drop a CMake cache made from another source folder (tests/tools/llc before it moved here).

    CMake refuses to configure a build tree from a second source folder, so a
    checkout that built refllc before the move would fail to rebuild it.
    """
    cache = build / "CMakeCache.txt"
    if not cache.exists():
        return
    home = re.search(r"^CMAKE_HOME_DIRECTORY:INTERNAL=(.*)$", cache.read_text(errors="replace"), re.M)
    if home and Path(home.group(1)).resolve() != SOURCE:
        cache.unlink()
        shutil.rmtree(build / "CMakeFiles", ignore_errors=True)


def reference_tool(name: str) -> Path:
    """The path of refllc or refopt, built if missing or older than its sources."""
    if name not in TOOLS:
        raise ValueError(f"no reference tool {name!r}: one of {', '.join(TOOLS)}")
    try:
        import mlc_llvm_static
    except ImportError:
        raise Unavailable("the reference tools are built against mlc-llvm-static[all] "
                          "(pip install 'mlc-llvm-static[all]==23.1.1.post0')") from None
    cmake = shutil.which("cmake")
    if cmake is None:
        raise Unavailable("the reference tools need cmake")
    build = build_directory()
    binary = build / name
    newest_source = max(path.stat().st_mtime for path in SOURCE.iterdir())
    if not binary.exists() or binary.stat().st_mtime < newest_source:
        _forget_other_source(build)
        configure = [cmake, "-S", str(SOURCE), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release",
                     f"-DLLVM_DIR={mlc_llvm_static.get_cmake_dir()}",
                     f"-DCMAKE_PREFIX_PATH={mlc_llvm_static.get_cmake_prefix_path()}"]
        if shutil.which("ninja") and not (build / "CMakeCache.txt").exists():
            configure += ["-G", "Ninja"]
        for command in (configure, [cmake, "--build", str(build), "--target", name]):
            result = subprocess.run(command, capture_output=True, text=True, timeout=1800)
            if result.returncode != 0:
                raise RuntimeError(f"building {name} failed:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}")
    return binary
