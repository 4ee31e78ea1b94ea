"""Real multi-file C programs built through llvmplug pass their own tests.

zlib (its example.c self-test and minigzip) and bzip2 (its Makefile's
`test`), fetched from Debian's source packages at test time
(tests/programs_support.py), each file turned into bitcode by clang-19, then
built by llvmplug three ways: every file compiled alone, every file split
into parts with compile_parts (as a build would split each file), and the
files linked into one module with link=. The objects are linked with `cc`
and the program's own tests run on the result.

Every file split into parts is the test of issue 19 §5: zlib's inflate.c
and infback.c each have a static `fixedtables`, every file its own `.str`
constants, and the parts of all of them must link into one program.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from programs_support import MODES, PROGRAMS, available, bitcode, fetch, link, objects  # noqa: E402

import llvmplug  # noqa: E402

_sources: dict[str, Path] = {}
_bitcode: dict[str, dict[str, bytes]] = {}


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


# link= keeps only what the modules before it reference, in one pass: zlib's
# gzclose.c needs gzlib.c's gz_error, linked before it, so it is dropped.
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("package", sorted(PROGRAMS))
def test_program_built_by_llvmplug_passes_its_own_tests(plugin, cc, tmp_path_factory, package, mode):
    program = PROGRAMS[package]
    sources, modules = prepared(package, tmp_path_factory.mktemp(package))
    scratch = tmp_path_factory.mktemp(f"{package}-{mode}")
    executables = {name: link(cc, program, objects(plugin, program, modules, mode, name), scratch / name)
                   for name in program.executables}
    program.check(executables, sources, scratch)
