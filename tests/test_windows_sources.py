"""Windows: the shim's sources compile for Windows and export only the C ABI.

MSVC cannot run here. The closest check this machine allows: Debian's
mingw-w64 g++ (posix threads, for std::mutex) compiles every .cpp of csrc/
against the headers of mlc-llvm-static's win_amd64 wheel, the SDK a Windows
release build uses, with _WIN32 set by the target, LLVMPLUG_BUILDING as CMake
sets it and LLVM's own definitions from the SDK's LLVMConfig.cmake. The export
directives the compiler writes into the objects (.drectve, as MSVC's
dllexport does) must name exactly the functions of the ABI: a DLL exports
nothing else. The header's other branches (dllimport for a consumer, default
visibility on POSIX) are compiled too, so no #if branch goes untested.

Not covered: MSVC-only paths in LLVM's headers (_MSC_VER), and linking.
The win_amd64 SDK (~64 MB download) is cached in ~/.cache/llvmplug; with the
compile (~30 s) that makes these tests slow: ``pytest -m "not slow"`` skips them.
"""

from __future__ import annotations

import concurrent.futures
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CSRC = ROOT / "csrc"
CACHE = Path(os.environ.get("LLVMPLUG_CACHE", Path.home() / ".cache" / "llvmplug"))

MINGW_CXX = shutil.which("x86_64-w64-mingw32-g++-posix")
MINGW_CC = shutil.which("x86_64-w64-mingw32-gcc-posix") or shutil.which("x86_64-w64-mingw32-gcc")
MINGW_NM = shutil.which("x86_64-w64-mingw32-nm")

pytestmark = pytest.mark.slow

needs_mingw = pytest.mark.skipif(
    not (MINGW_CXX and MINGW_CC and MINGW_NM),
    reason="mingw-w64 (posix threads) is not installed: apt-get install g++-mingw-w64-x86-64")


def abi_functions() -> set[str]:
    """The functions the header declares between its cdef markers."""
    text = (CSRC / "llvmplug.h").read_text()
    region = text[text.index("/* ---- cdef begin ---- */"):text.index("/* ---- cdef end ---- */")]
    return set(re.findall(r"\b(llvmplug_\w+)\s*\(", region))


def coff_exports(obj: bytes) -> set[str]:
    """Names a COFF object asks the linker to export (its .drectve section)."""
    machine, sections = struct.unpack_from("<HH", obj, 0)
    if machine != 0x8664:
        raise ValueError(f"not an x86-64 COFF object (machine {machine:#x})")
    optional_header = struct.unpack_from("<H", obj, 16)[0]
    exports: set[str] = set()
    for i in range(sections):
        offset = 20 + optional_header + 40 * i
        name = obj[offset:offset + 8].rstrip(b"\0")
        size, pointer = struct.unpack_from("<II", obj, offset + 16)
        if name == b".drectve":
            directives = obj[pointer:pointer + size].decode("ascii")
            # gcc writes -export:"name", MSVC /EXPORT:name; ",data" marks data.
            exports |= set(re.findall(r'[-/]export:"?([^",\s]+)', directives, re.IGNORECASE))
    return exports


def _sdk_version() -> str:
    match = re.search(r'"mlc-llvm-static==([^"]+)"', (ROOT / "pyproject.toml").read_text())
    if match is None:
        raise LookupError("pyproject.toml pins no mlc-llvm-static version")
    return match.group(1)


@pytest.fixture(scope="module")
def win_sdk() -> Path:
    """The include/ and LLVMConfig.cmake of the win_amd64 mlc-llvm-static wheel."""
    version = _sdk_version()
    root = CACHE / f"mlc-llvm-static-{version}-win_amd64"
    static = root / "mlc_llvm_static" / "static"
    if not root.is_dir():
        CACHE.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=CACHE) as scratch:
            got = subprocess.run(
                [sys.executable, "-m", "pip", "download", "-q", "--no-deps",
                 "--only-binary=:all:", "--platform", "win_amd64",
                 f"mlc-llvm-static=={version}", "-d", scratch],
                capture_output=True, text=True)
            wheels = list(Path(scratch).glob("*.whl"))
            if got.returncode or not wheels:
                pytest.skip(f"cannot download the win_amd64 SDK: {got.stderr.strip()[-400:]}")
            unpacked = Path(scratch) / "sdk"
            with zipfile.ZipFile(wheels[0]) as zf:
                zf.extractall(unpacked, [
                    n for n in zf.namelist()
                    if "/static/include/" in n or n.endswith("/lib/cmake/llvm/LLVMConfig.cmake")])
            try:
                unpacked.rename(root)  # atomic: a concurrent run may have won
            except OSError:
                if not root.is_dir():
                    raise
    return static


def _llvm_definitions(sdk: Path) -> list[str]:
    config = (sdk / "lib" / "cmake" / "llvm" / "LLVMConfig.cmake").read_text()
    match = re.search(r'set\(LLVM_DEFINITIONS "([^"]*)"\)', config)
    if match is None:
        raise LookupError("LLVMConfig.cmake sets no LLVM_DEFINITIONS")
    return match.group(1).split()


@needs_mingw
def test_sources_compile_for_windows_and_export_only_the_abi(win_sdk, tmp_path):
    # CMake generates the list of backends to initialise; the host's stands in.
    generated = tmp_path / "generated"
    generated.mkdir()
    (generated / "llvmplug_targets.def").write_text("LLVMPLUG_TARGET(X86)\nLLVMPLUG_ASM_PARSER(X86)\n")
    (generated / "build_id.h").write_text(f'#define LLVMPLUG_BUILD_ID "{"0" * 64}"\n')  # cmake/LLVMPlugBuildId.cmake
    # Every layer's folder (csrc/README.md): which layer may include which is the CMake build's check.
    folders = [CSRC, *sorted(path for path in CSRC.iterdir() if path.is_dir())]
    flags = ["-std=c++17", "-O0", "-fno-rtti", "-fexceptions", "-DLLVMPLUG_BUILDING",
             *_llvm_definitions(win_sdk), *(f"-I{folder}" for folder in folders), "-I", str(generated),
             "-isystem", str(win_sdk / "include")]

    def compile_one(source: Path) -> tuple[Path, subprocess.CompletedProcess]:
        obj = tmp_path / ("_".join(source.relative_to(CSRC).with_suffix("").parts) + ".obj")
        done = subprocess.run([MINGW_CXX, *flags, "-c", str(source), "-o", str(obj)],
                              capture_output=True, text=True)
        return obj, done

    # Every folder's (the build's generator of the prebuilt tables and the unit tests too: they
    # are built wherever the shim is).
    sources = sorted(CSRC.rglob("*.cpp"))
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        results = list(pool.map(compile_one, sources))
    failed = {obj.stem: done.stderr[-2000:] for obj, done in results if done.returncode}
    assert not failed, failed

    exported = set().union(*(coff_exports(obj.read_bytes()) for obj, _ in results))
    assert exported == abi_functions()


CONSUMER = '#include "llvmplug.h"\nunsigned consumer(void) { return llvmplug_abi_version(); }\n'
PROVIDER = '#include "llvmplug.h"\nLLVMPLUG_API unsigned llvmplug_abi_version(void) { return 1; }\n'


def _compile_c(compiler: str, text: str, obj: Path, *flags: str) -> bytes:
    source = obj.with_suffix(".c")
    source.write_text(text)
    subprocess.run([compiler, "-std=c99", "-Wall", "-Werror", "-I", str(CSRC), *flags,
                    "-c", str(source), "-o", str(obj)], check=True)
    return obj.read_bytes()


@needs_mingw
def test_header_windows_branches(tmp_path):
    # Building the DLL: dllexport.
    provider = _compile_c(MINGW_CC, PROVIDER, tmp_path / "provider.obj", "-DLLVMPLUG_BUILDING")
    assert coff_exports(provider) == {"llvmplug_abi_version"}
    # A C consumer linking the import library: dllimport, i.e. a call
    # through the __imp_ pointer and no export of its own.
    consumer = _compile_c(MINGW_CC, CONSUMER, tmp_path / "consumer.obj")
    assert coff_exports(consumer) == set()
    undefined = subprocess.run([MINGW_NM, "-u", str(tmp_path / "consumer.obj")],
                               check=True, capture_output=True, text=True).stdout.split()
    assert "__imp_llvmplug_abi_version" in undefined


@pytest.mark.skipif(sys.platform == "win32", reason="the POSIX branch")
def test_header_posix_branch(tmp_path):
    from elftools.elf.elffile import ELFFile

    compiler = shutil.which(os.environ.get("CC", "cc"))
    if compiler is None:
        pytest.skip("no C compiler")
    if sys.platform == "darwin":
        pytest.skip("Mach-O object: the ELF check below does not apply")
    obj = tmp_path / "provider.o"
    _compile_c(compiler, PROVIDER, obj, "-fPIC", "-fvisibility=hidden")
    with obj.open("rb") as f:
        symbols = ELFFile(f).get_section_by_name(".symtab")
        (symbol,) = symbols.get_symbol_by_name("llvmplug_abi_version")
        # -fvisibility=hidden (as the shim is built) does not hide the ABI.
        assert symbol["st_info"]["bind"] == "STB_GLOBAL"
        assert symbol["st_other"]["visibility"] == "STV_DEFAULT"
