"""Distribution: the sdist builds a wheel that works with no build tools at all.

One full build per session, the way a user's ``pip install llvmplug`` from the
sdist would do it: the sdist is made from a copy of the checkout, the wheel is
built from the sdist (pip's isolated build environment, LLVM from the
mlc-llvm-static build requirement), and that wheel is installed into a fresh
virtual environment whose PATH holds no compiler, linker, CMake or LLVM.

These tests take a few minutes (the shim is built from scratch): skip them
locally with ``pytest -m "not slow"``; CI runs them.
"""

from __future__ import annotations

import ctypes
import email.parser
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import textwrap
import zipfile
from pathlib import Path

import pytest
from llvmplug._loader import LIBRARY_NAME

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(__file__).resolve().parent / "data"

# The name the loader looks for is the one the wheel must hold.
LIBRARY = LIBRARY_NAME

# What a user's machine must not need: any of these on PATH would let a
# broken wheel pass by building or linking something at install/run time.
BUILD_TOOLS = ("cmake", "ninja", "make", "cc", "c++", "gcc", "g++", "clang", "clang++", "ld",
               "llvm-config", "llc")

# Checkout clutter that must not leak into the sdist we test.
_NOT_SOURCES = shutil.ignore_patterns(
    ".git", ".venv", "build", "dist", "*.egg-info", "__pycache__", ".pytest_cache", "_lib",
    "*.so", "*.o")


def _clean_env() -> dict[str, str]:
    """This process's environment minus what would bypass the real build: the
    developer knobs (an LLVM or CMake tree of their own) and a PYTHONPATH."""
    env = {k: v for k, v in os.environ.items()
           if not (k.startswith("LLVMPLUG_") or k in ("PYTHONPATH", "PYTHONHOME"))
           or k == "LLVMPLUG_BUILD_JOBS"}
    return env


@pytest.fixture(scope="module")
def dists(tmp_path_factory) -> tuple[Path, Path]:
    """(sdist, wheel built from that sdist); the one full build of the session."""
    work = tmp_path_factory.mktemp("dist")
    source = work / "source"
    shutil.copytree(ROOT, source, ignore=_NOT_SOURCES)
    out = work / "out"
    # Without --sdist/--wheel, build makes the sdist and then the wheel FROM
    # the unpacked sdist: a file missing from the sdist breaks the wheel.
    subprocess.run([sys.executable, "-m", "build", "--outdir", str(out), str(source)],
                   check=True, cwd=work, env=_clean_env())
    sdists = list(out.glob("*.tar.gz"))
    wheels = list(out.glob("*.whl"))
    assert len(sdists) == 1 and len(wheels) == 1, sorted(p.name for p in out.iterdir())
    return sdists[0], wheels[0]


@pytest.fixture(scope="module")
def sdist(dists) -> Path:
    return dists[0]


@pytest.fixture(scope="module")
def wheel(dists) -> Path:
    return dists[1]


def _platform_tag() -> str:
    return re.sub(r"[-.]", "_", sysconfig.get_platform())


# -- sdist ---------------------------------------------------------------------


def test_sdist_has_everything_the_build_needs(sdist):
    with tarfile.open(sdist) as tar:
        top = tar.getnames()[0].split("/")[0]
        names = {name[len(top) + 1:] for name in tar.getnames()}
    needed = {"setup.py", "pyproject.toml", "CMakeLists.txt", "README.md", "MANIFEST.in", "LICENSE"}
    for folder in ("csrc", "cmake", "llvmplug"):
        # Every layer's folder of csrc/ too (csrc/README.md).
        needed |= {p.relative_to(ROOT).as_posix() for p in (ROOT / folder).rglob("*")
                   if p.is_file() and not p.name.endswith(".pyc") and "__pycache__" not in p.parts
                   and (folder != "llvmplug" or p.parent == ROOT / folder)}
    assert needed <= names, sorted(needed - names)
    assert not [n for n in names if n.endswith((".so", ".dll", ".dylib", ".o"))]


# -- wheel -----------------------------------------------------------------------


def test_wheel_is_one_py3_none_platform_wheel(wheel):
    assert wheel.name.endswith(f"-py3-none-{_platform_tag()}.whl"), wheel.name
    with zipfile.ZipFile(wheel) as zf:
        info = next(n for n in zf.namelist() if n.endswith(".dist-info/WHEEL"))
        fields = email.parser.Parser().parsestr(zf.read(info).decode())
    assert fields.get_all("Tag") == [f"py3-none-{_platform_tag()}"]
    # A native library inside: installs into platlib, never purelib.
    assert fields["Root-Is-Purelib"] == "false"


def test_wheel_holds_the_shim_its_header_and_the_package(wheel, sdist):
    with zipfile.ZipFile(wheel) as zf:
        names = set(zf.namelist())
        header = zf.read("llvmplug/_lib/llvmplug.h")
    with tarfile.open(sdist) as tar:
        top = tar.getnames()[0].split("/")[0]
        package = {n[len(top) + 1:] for n in tar.getnames()
                   if n.startswith(f"{top}/llvmplug/") and n.endswith((".py", ".typed"))}
    assert package <= names, sorted(package - names)
    assert f"llvmplug/_lib/{LIBRARY}" in names
    # Its build id beside it: the cache keys on it without loading the shim.
    assert f"llvmplug/_lib/{LIBRARY}.build-id" in names
    assert header == (ROOT / "csrc" / "llvmplug.h").read_bytes()
    assert "llvmplug/_lib/llvmplug_ffi.py" in names  # cffi's compiled declarations (llvmplug/_cdef.py)
    native = [n for n in names if n.endswith((".so", ".dll", ".dylib", ".pyd"))]
    assert native == [f"llvmplug/_lib/{LIBRARY}"], native
    # Build inputs stay in the sdist.
    assert not [n for n in names if n.startswith(("csrc/", "cmake/", "tests/"))]
    # The notices of what the shim links statically travel with it.
    assert {f"llvmplug/_lib/licenses/{n}.txt" for n in ("LLVM", "zlib", "zstd")} <= names
    assert any(n.endswith(".dist-info/LICENSE") or "/licenses/LICENSE" in n for n in names), names


def test_wheel_depends_on_cffi_only(wheel):
    with zipfile.ZipFile(wheel) as zf:
        meta = next(n for n in zf.namelist() if n.endswith(".dist-info/METADATA"))
        fields = email.parser.Parser().parsestr(zf.read(meta).decode())
        entry_points = zf.read(meta.replace("METADATA", "entry_points.txt")).decode()
    # Requirements outside the extras (a platform marker may refine cffi's version).
    unconditional = [r for r in fields.get_all("Requires-Dist") or [] if "extra ==" not in r]
    assert {re.split(r"[ <>=!;\[]", r)[0] for r in unconditional} == {"cffi"}, unconditional
    assert "llvmplug = llvmplug.cli:run" in entry_points


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ELF dependencies: Linux only")
def test_wheel_library_needs_only_the_c_library(wheel, tmp_path):
    from elftools.elf.dynamic import DynamicSection
    from elftools.elf.elffile import ELFFile
    from elftools.elf.gnuversions import GNUVerNeedSection

    with zipfile.ZipFile(wheel) as zf:
        path = Path(zf.extract(f"llvmplug/_lib/{LIBRARY}", tmp_path))
    with path.open("rb") as f:
        elf = ELFFile(f)
        needed = {tag.needed for section in elf.iter_sections()
                  if isinstance(section, DynamicSection)
                  for tag in section.iter_tags() if tag.entry.d_tag == "DT_NEEDED"}
        versions = {aux.name for section in elf.iter_sections()
                    if isinstance(section, GNUVerNeedSection)
                    for _, auxes in section.iter_versions() for aux in auxes}
    # No libLLVM, no libstdc++/libgcc_s, no zlib/zstd: all linked in statically.
    libc = {"libc.so.6", "libm.so.6", "libpthread.so.0", "libdl.so.2", "librt.so.1"}
    assert needed and needed <= libc | {n for n in needed if n.startswith("ld-linux")}, needed
    assert not [v for v in versions if not v.startswith("GLIBC_")], versions


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="auditwheel: Linux only")
def test_auditwheel_accepts_the_wheel(wheel):
    pytest.importorskip("auditwheel", reason="auditwheel is in the test extra on Linux")
    shown = subprocess.run([sys.executable, "-m", "auditwheel", "show", str(wheel)],
                           check=True, capture_output=True, text=True).stdout
    flat = " ".join(shown.split())
    # auditwheel names the most compatible manylinux tag the wheel fits; a
    # wheel it rejects is only "consistent with" linux_<arch>.
    tag = re.search(r"consistent with the following platform tag: \"?(\S+?)\"?\.? ", flat + " ")
    assert tag and tag.group(1).startswith("manylinux_"), shown
    print(f"auditwheel: {wheel.name} -> {tag.group(1)}")


# -- the installed wheel, with no build tools anywhere ------------------------------


_IN_CLEAN_VENV = textwrap.dedent(
    """
    import importlib.metadata, importlib.util, json, shutil, sys
    import llvmplug
    from llvmplug import _loader

    source, output, tools = sys.argv[1:4]
    with open(source, encoding="utf-8") as f:
        obj = llvmplug.compile(f.read(), flags="-O2 -relocation-model=pic")
    with open(output, "wb") as f:
        f.write(obj)
    print(json.dumps({
        "tools": {tool: shutil.which(tool) for tool in tools.split()},
        "llvm_sdk": importlib.util.find_spec("mlc_llvm_static") is not None,
        "distributions": sorted(d.metadata["Name"].lower()
                                for d in importlib.metadata.distributions()),
        "package": llvmplug.__file__,
        "library": str(_loader.library_path()),
        "info": llvmplug.info(),
    }))
    """
)


def _bin(venv: Path) -> Path:
    return venv / ("Scripts" if os.name == "nt" else "bin")


def _bare_env(venv: Path, home: Path) -> dict[str, str]:
    """Only the venv's own scripts and an empty directory on PATH: no compiler,
    linker, CMake or LLVM tool can be found, whatever this machine has."""
    nothing = home / "empty"
    nothing.mkdir(exist_ok=True)
    env = {"PATH": os.pathsep.join([str(_bin(venv)), str(nothing)]), "HOME": str(home),
           "LC_ALL": "C.UTF-8"}
    if os.name == "nt":
        env["SYSTEMROOT"] = os.environ.get("SYSTEMROOT", r"C:\Windows")
    return env


@pytest.fixture(scope="module")
def clean_venv(wheel, tmp_path_factory) -> Path:
    """A new venv with only the wheel (and cffi, from the index) installed."""
    venv = tmp_path_factory.mktemp("clean") / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    subprocess.run([str(_bin(venv) / "python"), "-m", "pip", "install", "-q",
                    "--disable-pip-version-check", str(wheel)],
                   check=True, env=_clean_env(), cwd=venv)
    return venv


@pytest.fixture(scope="module")
def clean_run(clean_venv, tmp_path_factory) -> tuple[dict, bytes]:
    """(report, object file) from compiling tests/data/arith.ll in the clean venv."""
    home = tmp_path_factory.mktemp("home")
    out = home / "arith.o"
    done = subprocess.run(
        [str(_bin(clean_venv) / "python"), "-c", _IN_CLEAN_VENV, str(DATA / "arith.ll"),
         str(out), " ".join(BUILD_TOOLS)],
        env=_bare_env(clean_venv, home), cwd=home, check=True, capture_output=True, text=True)
    return json.loads(done.stdout), out.read_bytes()


def test_clean_venv_has_no_build_tools_and_no_llvm(clean_run, clean_venv):
    report, _ = clean_run
    assert report["tools"] == {tool: None for tool in BUILD_TOOLS}
    assert not report["llvm_sdk"]
    assert set(report["distributions"]) - {"pip", "setuptools"} == {"llvmplug", "cffi", "pycparser"}
    assert Path(report["package"]).is_relative_to(clean_venv)
    assert Path(report["library"]).is_relative_to(clean_venv)
    assert report["info"]["llvm_version"].startswith("23.")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="checks an ELF object")
def test_clean_venv_compiles_a_real_module(clean_run, load_object):
    _, obj = clean_run
    # A relocatable ELF object for this machine ...
    assert obj[:4] == b"\x7fELF"
    assert int.from_bytes(obj[16:18], "little") == 1  # ET_REL
    machines = {"x86_64": 62, "aarch64": 183}
    assert int.from_bytes(obj[18:20], "little") == machines[platform.machine()]
    # ... that is correct code: link it out here (the clean venv has no
    # linker) and call it.
    lib = load_object(obj, "fromwheel")
    lib.add.restype = ctypes.c_int32
    lib.add.argtypes = [ctypes.c_int32, ctypes.c_int32]
    assert lib.add(40, 2) == 42
    lib.triangle.restype = ctypes.c_int64
    lib.triangle.argtypes = [ctypes.c_int64]
    assert lib.triangle(100000) == 4999950000


def test_clean_venv_command_line(clean_venv, tmp_path):
    out = tmp_path / "add.o"
    subprocess.run(["llvmplug", "compile", str(DATA / "arith.ll"), "-o", str(out), "-O3"],
                   env=_bare_env(clean_venv, tmp_path), cwd=tmp_path, check=True)
    assert out.read_bytes()[:4] == b"\x7fELF"
