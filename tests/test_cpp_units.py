"""llvmplug_unit_tests (csrc/unittests/): the C++ tests of the pure parsers and classifiers.

Built in the contributor's tree (tools/build-in-tree's build/dev, or
LLVMPLUG_BUILD_DIR) when there is one, else in build/units, configured here
once and kept (the first build compiles the shim's objects, a minute or two);
then only what changed is rebuilt. CMake builds the target only when asked.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _build_dir() -> Path:
    for candidate in (os.environ.get("LLVMPLUG_BUILD_DIR"), "build/dev"):
        if candidate and (ROOT / candidate / "CMakeCache.txt").is_file():
            return ROOT / candidate
    units = ROOT / "build" / "units"
    if not (units / "CMakeCache.txt").is_file():
        if os.environ.get("LLVMPLUG_LLVM_DIR"):
            llvm_dir = Path(os.environ["LLVMPLUG_LLVM_DIR"])
            prefix = llvm_dir.parents[2]
        else:
            mlc = pytest.importorskip("mlc_llvm_static", reason="the LLVM SDK (the test extra) builds the unit tests")
            llvm_dir, prefix = Path(mlc.get_cmake_dir()), Path(mlc.get_cmake_prefix_path())
        generator = ["-G", "Ninja"] if shutil.which("ninja") else []
        subprocess.run(["cmake", "-S", str(ROOT), "-B", str(units), *generator, "-DCMAKE_BUILD_TYPE=Release",
                        f"-DLLVM_DIR={llvm_dir}", f"-DCMAKE_PREFIX_PATH={prefix}",
                        f"-DLLVMPLUG_TARGETS={os.environ.get('LLVMPLUG_TARGETS', 'all')}"],
                       check=True, capture_output=True, text=True)
    return units


@pytest.mark.skipif(shutil.which("cmake") is None, reason="cmake builds the unit tests")
def test_cpp_unit_tests_pass():
    build = _build_dir()
    jobs = os.environ.get("LLVMPLUG_BUILD_JOBS", str(os.cpu_count() or 2))
    built = subprocess.run(["cmake", "--build", str(build), "--target", "llvmplug_unit_tests", "--parallel", jobs],
                           capture_output=True, text=True)
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    binary = build / ("llvmplug_unit_tests.exe" if sys.platform == "win32" else "llvmplug_unit_tests")
    ran = subprocess.run([str(binary)], capture_output=True, text=True, timeout=120)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert " 0 failed" in ran.stdout and not ran.stdout.startswith("0 checks"), ran.stdout
