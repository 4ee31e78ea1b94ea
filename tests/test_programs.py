"""Real multi-file C and C++ programs built through llvmplug pass their own tests.

zlib (its example.c self-test and minigzip), bzip2 (its Makefile's `test`)
and muparser (a C++ library: exceptions, virtual classes, templates,
libstdc++, a static constructor in every file; its t_ParserTest runner),
fetched from Debian's source packages at test time
(tests/support/programs_support.py), each file turned into bitcode by clang-19 or
clang++-19, then built by llvmplug the ways a build uses it: every file
compiled alone, every file split into parts with compile_parts, the files
optimised together with compile_modules (also stopped at bitcode and
generated with -passes=), and the files linked into one module with link=.
The objects are linked with `cc` (`g++` for C++) and the program's own tests
run on the result.

Every file split into parts is the test of issue 19 §5: zlib's inflate.c
and infback.c each have a static `fixedtables`, every file its own `.str`
constants, and the parts of all of them must link into one program. For
C++ it is issue 26: libstdc++'s always_inline linkonce_odr functions
(std::string::_M_use_local_data) must reach every part that calls them,
and link= must take each file's static constructor.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "support"))
from programs_support import PROGRAMS, available, bitcode, fetch, link, objects  # noqa: E402

import llvmplug  # noqa: E402

_sources: dict[str, Path] = {}
_bitcode: dict[str, dict[str, bytes]] = {}
_built: dict[tuple[str, str, str], list[bytes]] = {}  # (package, mode, executable): its objects


@pytest.fixture(scope="module")
def plugin():
    with llvmplug.Plugin(private=True) as private:
        yield private


def prepared(package: str, scratch: Path) -> tuple[Path, dict[str, bytes]]:
    """The program's sources and its files' bitcode, made once per session."""
    if package not in _bitcode:
        _sources[package] = available(fetch, package)
        out = scratch / "bitcode"
        out.mkdir()
        _bitcode[package] = available(bitcode, PROGRAMS[package], _sources[package], out)
    return _sources[package], _bitcode[package]


BUILDS = [(package, mode) for package in sorted(PROGRAMS) for mode in PROGRAMS[package].modes]


@pytest.mark.parametrize("package, mode", BUILDS, ids=[f"{p}-{m}" for p, m in BUILDS])
def test_program_built_by_llvmplug_passes_its_own_tests(plugin, cc, tmp_path_factory, package, mode):
    program = PROGRAMS[package]
    sources, modules = prepared(package, tmp_path_factory.mktemp(package))
    scratch = tmp_path_factory.mktemp(f"{package}-{mode.replace(':', '')}")
    executables = {}
    for name in program.executables:
        built = _built[package, mode, name] = objects(plugin, program, modules, mode, name)
        executables[name] = available(link, cc, program, built, scratch / name)
    program.check(executables, sources, scratch)


def test_a_cxx_program_optimised_together_does_not_depend_on_the_thread_count(plugin, tmp_path_factory):
    """muparser's objects from compile_modules on one thread: the same bytes
    as the two-thread build that passed its tests above."""
    program = PROGRAMS["muparser"]
    _, modules = prepared("muparser", tmp_path_factory.mktemp("muparser"))
    two = _built.get(("muparser", "compile_modules", "t_ParserTest"))
    if two is None:  # run alone
        two = objects(plugin, program, modules, "compile_modules", "t_ParserTest", threads=2)
    assert objects(plugin, program, modules, "compile_modules", "t_ParserTest", threads=1) == two
