"""Build llvmplug: CMake builds the shim, which lands in llvmplug/_lib/.

The shim is loaded with cffi in ABI mode, so the wheel holds no CPython
extension: it is tagged py3-none-<platform> and serves every Python 3.

LLVM comes from the mlc-llvm-static build requirement, or from the LLVM
CMake directory named by LLVMPLUG_LLVM_DIR (its prefix is taken as the
directory three levels up, e.g. <prefix>/lib/cmake/llvm).
LLVMPLUG_TARGETS chooses the backends: "all" (the default: every backend of
the SDK, mlc-llvm-static-extra-targets included), "host", or a list such as
"X86;NVPTX;AMDGPU". What each costs (size, load time, memory) is measured in
docs/targets.md.
Other knobs: LLVMPLUG_BUILD_DIR (CMake build tree, default build/shim),
LLVMPLUG_CMAKE_ARGS (extra CMake arguments), LLVMPLUG_BUILD_JOBS.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Distribution, setup
from setuptools.command.build_py import build_py

try:
    from wheel.bdist_wheel import bdist_wheel
except ImportError:  # pragma: no cover - wheel is a build requirement
    bdist_wheel = None

ROOT = Path(__file__).resolve().parent


def llvm_locations() -> tuple[str, str]:
    """(LLVM_DIR, CMAKE_PREFIX_PATH) for CMake."""
    override = os.environ.get("LLVMPLUG_LLVM_DIR")
    if override:
        cmake_dir = Path(override).resolve()
        return str(cmake_dir), str(cmake_dir.parents[2])
    import mlc_llvm_static

    # The prefix too, or LLVM's zstd/zlib dependencies resolve to the
    # system's shared libraries (or are not found at all).
    return mlc_llvm_static.get_cmake_dir(), mlc_llvm_static.get_cmake_prefix_path()


def sdk_licenses() -> Path | None:
    """The license texts of what the shim links statically (LLVM, zlib, zstd)."""
    if os.environ.get("LLVMPLUG_LLVM_DIR"):
        return None  # another LLVM: its packager knows where its notices are
    import mlc_llvm_static

    return Path(mlc_llvm_static.__file__).resolve().parent / "licenses"


def recorded_llvm_dir(cache: Path) -> str | None:
    """The LLVM_DIR a CMake tree was configured with, whatever type CMake gave it.

    A -D without a type is recorded as LLVM_DIR:UNINITIALIZED=..., one that
    find_package later typed as LLVM_DIR:PATH=...: both name the same thing.
    """
    for line in cache.read_text(errors="replace").splitlines():
        name, _, value = line.partition("=")
        if name.partition(":")[0] == "LLVM_DIR":
            return value
    return None


def build_shim(destination: Path) -> None:
    """Configure, build and install the shim (and its header) into destination."""
    build_dir = Path(os.environ.get("LLVMPLUG_BUILD_DIR", ROOT / "build" / "shim")).resolve()
    llvm_dir, prefix = llvm_locations()
    cache = build_dir / "CMakeCache.txt"
    if cache.exists() and recorded_llvm_dir(cache) != llvm_dir:
        # Another LLVM (pip's isolated build environment lives at a new temp
        # path each time): the cached paths of LLVM and its zlib/zstd are
        # stale, so start the tree afresh.
        shutil.rmtree(build_dir)
    configure = [
        "cmake", "-S", str(ROOT), "-B", str(build_dir),
        f"-DLLVM_DIR={llvm_dir}", f"-DCMAKE_PREFIX_PATH={prefix}",
        "-DCMAKE_BUILD_TYPE=Release",
        f"-DLLVMPLUG_TARGETS={os.environ.get('LLVMPLUG_TARGETS', 'all')}",
    ]
    # Not on Windows: the default Visual Studio generator finds MSVC by itself,
    # while Ninja takes whichever compiler is on PATH (CI images put MinGW's gcc
    # there), and the LLVM SDK's libraries link only with MSVC.
    if shutil.which("ninja") and not cache.exists() and os.name != "nt":
        configure += ["-G", "Ninja"]
    configure += shlex.split(os.environ.get("LLVMPLUG_CMAKE_ARGS", ""))
    jobs = os.environ.get("LLVMPLUG_BUILD_JOBS", str(os.cpu_count() or 2))
    for command in (
        configure,
        ["cmake", "--build", str(build_dir), "--config", "Release", "--parallel", jobs],
        ["cmake", "--install", str(build_dir), "--config", "Release", "--prefix", str(destination),
         "--strip"],
    ):
        print("llvmplug:", shlex.join(command), flush=True)
        subprocess.run(command, check=True)
    shutil.copyfile(ROOT / "csrc" / "llvmplug.h", destination / "llvmplug.h")
    # cffi's compiled form of the header's declarations (llvmplug/_cdef.py):
    # a fresh process then loads the ABI without parsing C.
    subprocess.run([sys.executable, str(ROOT / "llvmplug" / "_cdef.py"), str(destination / "llvmplug.h"),
                    str(destination / "llvmplug_ffi.py")], check=True)
    # The shim carries LLVM, zlib and zstd inside it: ship their notices too.
    licenses = sdk_licenses()
    if licenses is not None and licenses.is_dir():
        shutil.copytree(licenses, destination / "licenses", dirs_exist_ok=True)
    else:
        print("llvmplug: no license texts found for the LLVM SDK; add them to the package by hand",
              flush=True)


class BuildPyWithShim(build_py):
    def run(self) -> None:
        super().run()
        build_shim(Path(self.build_lib) / "llvmplug" / "_lib")


class BinaryDistribution(Distribution):
    # The wheel carries a native library: it is a platform wheel.
    def has_ext_modules(self) -> bool:
        return True


commands = {"build_py": BuildPyWithShim}

if bdist_wheel is not None:

    class PlatformWheel(bdist_wheel):
        def get_tag(self) -> tuple[str, str, str]:
            _, _, platform = super().get_tag()
            return "py3", "none", platform

    commands["bdist_wheel"] = PlatformWheel

setup(cmdclass=commands, distclass=BinaryDistribution)
