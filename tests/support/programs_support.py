"""Real multi-file C and C++ programs, fetched at test time, built through llvmplug and run against their own tests.

Each program's upstream sources come from its Debian source package (the
ordinary client: ``apt-get source --download-only`` against a private list of
``deb-src`` lines, so the machine's apt configuration is never touched and no
root is needed). Nothing is vendored. Debian's ``clang-19`` (``clang++-19``
for C++) turns every file into unoptimised bitcode (``-O2 -Xclang
-disable-llvm-passes``: no ``optnone``, so llvmplug's pipeline does all the
optimising), which llvmplug then compiles the ways a build would use it
(the program's ``modes``):

- ``compile``: each file into one object;
- ``compile_parts`` (``compile_parts:N``): each file split into parts, every
  part an object;
- ``compile_modules``: every file of an executable together, ThinLTO's way,
  one object each;
- ``compile_modules_bc``: the same stopped before code generation
  (``output="bc"``), each file's optimised bitcode then generated with
  ``compile(..., flags="-passes=")``: the pre-backend flow of ThinLTO builds;
- ``link``: each executable's main file with every other file in ``link=``,
  one object.

The objects are linked by the system's driver (``cc``; ``g++`` for C++) and
the program's own tests run on the result. A program that cannot be fetched
or built for want of the network, apt, clang-19 or g++ raises
``Unavailable``; ``available`` turns that into a failed test under CI=true
and a skip elsewhere (as tests/conftest.py's headline guard does).
benchmarks/bigmodule.py uses the same helpers (Lua in one module) and
reports the reason instead; benchmarks/cxx.py builds muparser.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tarfile
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, TypeVar

T = TypeVar("T")

ROOT = Path(__file__).resolve().parents[2]
CACHE = Path(os.environ.get("LLVMPLUG_PROGRAMS_CACHE") or ROOT / "build" / "programs")
CLANG = "clang-19"
CLANGXX = "clang++-19"
CXX_DRIVER = "g++"  # the system C++ driver: links libstdc++ and the C++ runtime
# Debian's release whose sources the programs come from; pinned, as the checks name its versions.
SUITE = "bookworm"
MIRROR = "http://deb.debian.org/debian"
KEYRING = "/usr/share/keyrings/debian-archive-keyring.gpg"
MODES = ("compile", "compile_parts", "link")
CXX_MODES = ("compile", "compile_parts:2", "compile_parts:4", "compile_modules", "compile_modules_bc", "link")
PARTS = 3
FLAGS = "-O2 -relocation-model=pic"
THREADS = 2


class Unavailable(Exception):
    """A program cannot be had on this machine (no network, apt or clang-19); the message says why."""


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in ("1", "true", "yes")


def available(action: Callable[..., T], *args: Any) -> T:
    """action(*args) in a test: Unavailable fails the test under CI, skips it elsewhere."""
    import pytest

    try:
        return action(*args)
    except Unavailable as reason:
        if in_ci():
            pytest.fail(f"{reason} (CI=true: a real-programs test may not skip)", pytrace=False)
        pytest.skip(str(reason))


@dataclass(frozen=True)
class Program:
    package: str  # the Debian source package
    library: tuple[str, ...]  # files every executable links
    executables: dict[str, tuple[str, ...]]  # name: its own files, the one with main() first
    check: Callable[[dict[str, Path], Path, Path], None]  # (executables, sources, scratch dir)
    defines: tuple[str, ...] = ()
    includes: tuple[str, ...] = (".",)
    cc_libs: tuple[str, ...] = ()
    language: str = "c"  # or "c++"
    modes: tuple[str, ...] = MODES

    def files(self) -> list[str]:
        return list(self.library) + [name for own in self.executables.values() for name in own]

    @property
    def compiler(self) -> str:
        return CLANGXX if self.language == "c++" else CLANG


def _apt(root: Path, *args: str) -> subprocess.CompletedProcess:
    options = [f"-oDir::Etc::SourceList={root / 'sources.list'}", "-oDir::Etc::SourceParts=/dev/null",
               f"-oDir::State::Lists={root / 'lists'}", f"-oDir::Cache={root / 'cache'}",
               "-oAPT::Sandbox::User=root", "-q"]
    return subprocess.run(["apt-get", *options, *args], cwd=root / "download", capture_output=True, text=True,
                          timeout=600)


def fetch(package: str) -> Path:
    """The unpacked upstream sources of a Debian source package (cached in CACHE)."""
    unpacked = CACHE / package
    if (unpacked / ".complete").exists():
        return next(p for p in unpacked.iterdir() if p.is_dir())
    if shutil.which("apt-get") is None:
        raise Unavailable(f"{package}: the programs' sources come from Debian with apt-get, which this machine lacks")
    CACHE.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=CACHE) as scratch:
        root = Path(scratch)
        for name in ("lists/partial", "cache/archives/partial", "download"):
            (root / name).mkdir(parents=True)
        signed = f" [signed-by={KEYRING}]" if Path(KEYRING).exists() else ""
        (root / "sources.list").write_text(f"deb-src{signed} {MIRROR} {SUITE} main\n")
        done = _apt(root, "update")
        # apt-get update exits 0 when it only warns that it could not fetch.
        if done.returncode != 0 or not any("Sources" in p.name for p in (root / "lists").iterdir()):
            raise Unavailable(f"apt-get update could not fetch Debian's source index for {package}: "
                              f"{(done.stderr or done.stdout).strip()[-600:]}")
        done = _apt(root, "source", "--download-only", package)
        if done.returncode != 0:
            raise Unavailable(f"apt-get source could not fetch {package}: {done.stderr.strip()[-600:]}")
        tarballs = [p for p in (root / "download").iterdir() if ".orig.tar." in p.name]
        if len(tarballs) != 1:
            raise AssertionError(f"{package}: expected one upstream tarball, got {sorted(p.name for p in tarballs)}")
        target = root / "unpacked"
        with tarfile.open(tarballs[0]) as archive:
            archive.extractall(target, filter="data")
        (target / ".complete").write_text(tarballs[0].name)
        shutil.rmtree(unpacked, ignore_errors=True)
        os.replace(target, unpacked)
    return fetch(package)


def bitcode(program: Program, sources: Path, out: Path) -> dict[str, bytes]:
    """Each file as clang-19's (clang++-19's) unoptimised bitcode, by file name."""
    compiler = program.compiler
    if shutil.which(compiler) is None:
        raise Unavailable(f"{compiler} (Debian's clang-19) turns the programs into bitcode; it is not installed")
    modules = {}
    for name in program.files():
        target = out / (name.replace("/", "_") + ".bc")
        command = [compiler, "-O2", "-Xclang", "-disable-llvm-passes", "-emit-llvm", "-c", "-w", "-fPIC",
                   *(f"-I{sources / d}" for d in program.includes), *program.defines, str(sources / name),
                   "-o", str(target)]
        done = subprocess.run(command, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, f"{compiler} {name}: {done.stderr[-2000:]}"
        modules[name] = target.read_bytes()
    return modules


def cxx_to_ir(source: str, out: Path, *flags: str) -> str:
    """One C++ file as clang++-19's IR text, unoptimised (`flags` added)."""
    if shutil.which(CLANGXX) is None:
        raise Unavailable(f"{CLANGXX} (Debian's clang-19) turns C++ into IR; it is not installed")
    (out / "unit.cpp").write_text(source)
    done = subprocess.run([CLANGXX, "-O2", "-Xclang", "-disable-llvm-passes", "-S", "-emit-llvm", "-fPIC", *flags,
                           str(out / "unit.cpp"), "-o", str(out / "unit.ll")], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, f"{CLANGXX}: {done.stderr[-2000:]}"
    return (out / "unit.ll").read_text()


def objects(plugin, program: Program, modules: dict[str, bytes], mode: str, executable: str,
            threads: int = THREADS) -> list[bytes]:
    """The objects of one executable, built by llvmplug in `mode` (see the top of this file)."""
    own = program.executables[executable]
    names = list(own) + list(program.library)
    units = [modules[name] for name in names]
    if mode == "compile":
        return [plugin.compile(unit, flags=FLAGS) for unit in units]
    if mode.startswith("compile_parts"):
        parts = int(mode.partition(":")[2] or PARTS)
        return [part for unit in units for part in plugin.compile_parts(unit, flags=FLAGS, parts=parts)]
    if mode == "compile_modules":
        return plugin.compile_modules(units, flags=FLAGS, threads=threads)
    if mode == "compile_modules_bc":
        optimised = plugin.compile_modules(units, flags=FLAGS, output="bc", threads=threads)
        return [plugin.compile(unit, flags=f"-passes= {FLAGS}") for unit in optimised]
    if mode == "link":
        return [plugin.compile(units[0], flags=FLAGS, link=units[1:])]
    raise ValueError(f"no build mode {mode!r}")


def driver(program: Program, cc: str) -> str:
    """What links the program's objects: `cc`, or the system C++ driver for C++."""
    if program.language != "c++":
        return cc
    found = shutil.which(CXX_DRIVER)
    if found is None:
        raise Unavailable(f"{CXX_DRIVER} links the C++ programs (libstdc++, the C++ runtime); it is not installed")
    return found


def link(cc: str, program: Program, parts: list[bytes], out: Path) -> Path:
    paths = []
    for index, data in enumerate(parts):
        path = out.with_name(f"{out.name}-{index}.o")
        path.write_bytes(data)
        paths.append(str(path))
    done = subprocess.run([driver(program, cc), "-o", str(out), *paths, *program.cc_libs], capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, f"{driver(program, cc)} could not link {out.name}: {done.stderr[-3000:]}"
    return out


def run(command: list[str], cwd: Path, stdin: bytes = b"") -> bytes:
    done = subprocess.run(command, cwd=cwd, input=stdin, capture_output=True, timeout=120)
    assert done.returncode == 0, f"{Path(command[0]).name} {' '.join(command[1:])} exited {done.returncode}: " \
                                 f"{done.stderr.decode(errors='replace')[-2000:]}"
    return done.stdout


# -- zlib: test/example.c (zlib's self-test) and test/minigzip.c ------------------

def _check_zlib(programs: dict[str, Path], sources: Path, scratch: Path) -> None:
    import gzip

    # zlib's `make test`: example, then minigzip's round trip.
    report = run([str(programs["example"])], scratch).decode()
    for line in ("zlib version 1.2.13", "uncompress(): hello, hello!", "gzread(): hello, hello!",
                 "inflate(): hello, hello!", "large_inflate(): OK", "after inflateSync(): hello, hello!",
                 "inflate with dictionary: hello, hello!"):
        assert line in report, f"example's report lacks {line!r}:\n{report}"
    minigzip = str(programs["minigzip"])
    assert run([minigzip, "-d"], scratch, run([minigzip], scratch, b"hello world\n")) == b"hello world\n"
    # And against another implementation (Python's), both ways, on real text.
    text = b"".join((sources / name).read_bytes() for name in ("deflate.c", "inflate.c", "trees.c", "zlib.h"))
    for level in ("-1", "-9"):
        assert gzip.decompress(run([minigzip, level], scratch, text)) == text
    assert run([minigzip, "-d"], scratch, gzip.compress(text)) == text


ZLIB = Program(
    package="zlib",
    library=("adler32.c", "compress.c", "crc32.c", "deflate.c", "gzclose.c", "gzlib.c", "gzread.c",
             "gzwrite.c", "infback.c", "inffast.c", "inflate.c", "inftrees.c", "trees.c", "uncompr.c",
             "zutil.c"),
    executables={"example": ("test/example.c",), "minigzip": ("test/minigzip.c",)},
    defines=("-DHAVE_UNISTD_H", "-DHAVE_STDARG_H", "-D_LARGEFILE64_SOURCE=1"),
    check=_check_zlib,
)


# -- bzip2: the checks of its Makefile's `test` target ------------------------

def _check_bzip2(programs: dict[str, Path], sources: Path, scratch: Path) -> None:
    bzip2 = str(programs["bzip2"])
    for sample, level in (("sample1", "-1"), ("sample2", "-2"), ("sample3", "-3")):
        reference, compressed = (sources / f"{sample}.ref").read_bytes(), (sources / f"{sample}.bz2").read_bytes()
        assert run([bzip2, level], scratch, reference) == compressed, f"bzip2 {level} < {sample}.ref"
        decompress = [bzip2, "-ds" if sample == "sample3" else "-d"]
        assert run(decompress, scratch, compressed) == reference, f"bzip2 -d < {sample}.bz2"


BZIP2 = Program(
    package="bzip2",
    library=("blocksort.c", "huffman.c", "crctable.c", "randtable.c", "compress.c", "decompress.c", "bzlib.c"),
    executables={"bzip2": ("bzip2.c",)},
    defines=("-D_FILE_OFFSET_BITS=64",),
    check=_check_bzip2,
)


# -- muparser: a C++ library (exceptions, virtual classes and their typeinfo,
# templates, libstdc++ in every file, <iostream>'s static constructor in
# every file), with its own test runner (test/t_ParserTest.cpp, its CTest).

MUPARSER_TESTS = ("name restriction enforcement", "syntax engine", "postfix operators", "infix operators", "variable/constant detection",
                  "multiarg functions", "expression samples", "if-then-else operator", "member functions",
                  "binary operators", "error codes", "string arguments", "bulkmode", "optimizer")


def _check_muparser(programs: dict[str, Path], sources: Path, scratch: Path) -> None:
    # ParserTester::Run: 596 expressions in muparser 2.3.3 (Debian's bookworm), exit status = failures.
    report = run([str(programs["t_ParserTest"])], scratch).decode()
    for group in MUPARSER_TESTS:
        assert f"testing {group}...passed" in report, f"t_ParserTest's report lacks {group!r}:\n{report}"
    assert "Test passed (596 expressions)" in report, report


MUPARSER = Program(
    package="muparser",
    library=tuple(f"src/{name}.cpp" for name in ("muParser", "muParserBase", "muParserBytecode", "muParserCallback",
                                                 "muParserDLL", "muParserError", "muParserInt", "muParserTest",
                                                 "muParserTokenReader")),
    executables={"t_ParserTest": ("test/t_ParserTest.cpp",)},
    # As its CMakeLists.txt builds the static library (C API included), without OpenMP.
    defines=("-std=c++11", "-DMUPARSER_DLL", "-DMUPARSER_STATIC"),
    includes=("include",),
    check=_check_muparser,
    language="c++",
    modes=CXX_MODES,
)

PROGRAMS = {program.package: program for program in (ZLIB, BZIP2, MUPARSER)}


# -- one multi-megabyte real module: Lua 5.4, every file in one translation unit --

LUA = "lua5.4"


def lua_in_one_module(out: Path, optimised: bool = True) -> bytes:
    """Lua 5.4's interpreter (every file of src/ but luac.c, included into one
    translation unit, as Lua's own onelua.c does) as clang-19's bitcode:
    optimised (-O2: 0.8 MB of bitcode, 4.5 MB as IR text, 650 functions), or
    as the front end leaves it for an optimiser (3.8 MB as IR text)."""
    if shutil.which(CLANG) is None:
        raise Unavailable(f"{CLANG} (Debian's clang-19) turns Lua into bitcode; it is not installed")
    src = fetch(LUA) / "src"
    one = out / "onelua.c"
    one.write_text("".join(f'#include "{path.name}"\n' for path in sorted(src.glob("*.c")) if path.name != "luac.c"))
    target = out / ("onelua.bc" if optimised else "onelua-unoptimised.bc")
    level = ["-O2"] if optimised else ["-O2", "-Xclang", "-disable-llvm-passes"]
    done = subprocess.run([CLANG, *level, "-emit-llvm", "-c", "-w", "-DLUA_USE_LINUX", f"-I{src}", str(one),
                           "-o", str(target)], cwd=out, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, f"{CLANG} onelua.c: {done.stderr[-2000:]}"
    return target.read_bytes()
