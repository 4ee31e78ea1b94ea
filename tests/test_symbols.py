"""Symbol hygiene: the installed shim shows the dynamic loader nothing but the C ABI.

Read with pyelftools from the installed file (never nm output). Every check is
also run on a small library built here to break each rule, so none of them
can pass by reading nothing. The ABI that cffi declares is compared with the
header as the C compiler reads it.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

elftools = pytest.importorskip("elftools", reason="pyelftools is in the test extra")
from elftools.elf.elffile import ELFFile  # noqa: E402

from llvmplug import _abi, _loader, hygiene  # noqa: E402

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ELF checks: Linux only")

CHECKOUT_HEADER = Path(__file__).resolve().parents[1] / "csrc" / "llvmplug.h"


@pytest.fixture(scope="module")
def shim():
    with open(_loader.library_path(), "rb") as stream:
        yield ELFFile(stream)


@pytest.fixture(scope="module")
def header_functions() -> set[str]:
    return hygiene.abi_functions(_abi.HEADER.read_text())


@pytest.fixture(scope="module")
def cxx() -> str:
    compiler = shutil.which("c++") or shutil.which("g++")
    if compiler is None:
        pytest.skip("no C++ compiler to build the rule-breaking library with")
    return compiler


# A library that breaks every rule: stray exports, a shared libstdc++ (NEEDED
# and GLIBCXX_/CXXABI_ needs), template statics that g++ makes STB_GNU_UNIQUE,
# an absolute address in .text (a text relocation), NODELETE and an
# executable stack.
BAD_SOURCE = r"""
#include <string>
template <typename T> struct Holder { static inline int value = 1; };
extern "C" int llvmplug_abi_version() { return Holder<int>::value; }
extern "C" int stray_function(const char *text) { return std::string(text).size() + Holder<char>::value; }
__asm__(".text\n.globl textrel_word\ntextrel_word: .quad stray_function\n");
"""


@pytest.fixture(scope="module")
def bad_library(cxx, tmp_path_factory) -> Path:
    directory = tmp_path_factory.mktemp("bad")
    (directory / "bad.cpp").write_text(BAD_SOURCE)
    library = directory / "libbad.so"
    subprocess.run(
        [cxx, "-shared", "-fPIC", "-O1", "-o", str(library), str(directory / "bad.cpp"),
         "-Wl,-z,nodelete", "-Wl,-z,execstack", "-Wl,-z,notext"],
        check=True, capture_output=True,
    )
    return library


@pytest.fixture(scope="module")
def bad(bad_library):
    with open(bad_library, "rb") as stream:
        yield ELFFile(stream)


# -- the installed shim ------------------------------------------------------

def test_header_declares_the_abi(header_functions):
    # Guards the checks below against an empty expectation.
    assert {"llvmplug_compile", "llvmplug_result_free", "llvmplug_shutdown"} <= header_functions


def test_exports_exactly_the_header_functions(shim, header_functions):
    assert hygiene.defined_dynamic_symbols(shim) == header_functions
    types = {s.name: s["st_info"]["type"] for s in shim.get_section_by_name(".dynsym").iter_symbols()}
    assert {types[name] for name in header_functions} == {"STT_FUNC"}


def test_no_cxx_runtime_version_needs(shim):
    needs = hygiene.version_needs(shim)
    assert any(need.startswith("GLIBC_") for need in needs)  # the section was read
    assert not {need for need in needs if re.match(r"(GLIBCXX|CXXABI)_", need)}


def test_needs_only_the_c_library(shim):
    needed = hygiene.needed_libraries(shim)
    assert "libc.so.6" in needed
    assert all(hygiene.ALLOWED_NEEDED.fullmatch(name) for name in needed), needed


def test_no_gnu_unique_symbols(shim):
    assert hygiene.unique_symbols(shim) == set()


def test_no_nodelete_textrel_or_execstack(shim):
    assert not hygiene.has_nodelete(shim)
    assert not hygiene.has_textrel(shim)
    assert not hygiene.has_executable_stack(shim)


def test_check_command_passes_on_the_installed_shim():
    result = subprocess.run([sys.executable, "-m", "llvmplug", "check"], capture_output=True, text=True,
                            timeout=120, cwd=tempfile.gettempdir())
    assert result.returncode == 0, result.stdout + result.stderr
    assert str(_loader.library_path()) in result.stdout
    assert result.stdout.count("  ok    ") == 7 and "all checks passed" in result.stdout


# -- every check can fail ------------------------------------------------------

def test_each_check_fails_on_a_library_that_breaks_it(bad, header_functions):
    exported = hygiene.defined_dynamic_symbols(bad)
    assert {"stray_function", "textrel_word"} <= exported - header_functions
    assert {"GLIBCXX_3.4", "CXXABI_1.3.9"} & hygiene.version_needs(bad)
    assert "libstdc++.so.6" in hygiene.needed_libraries(bad)
    assert hygiene.has_nodelete(bad)
    assert hygiene.has_textrel(bad)
    assert hygiene.has_executable_stack(bad)


def test_gnu_unique_is_found_under_pyelftools_name(bad):
    # pyelftools calls binding 10 'STB_LOOS': a check comparing with the
    # string 'STB_GNU_UNIQUE' alone would never fire. Prove this one does.
    unique = hygiene.unique_symbols(bad)
    assert unique == {"_ZN6HolderIiE5valueE", "_ZN6HolderIcE5valueE"}
    binds = {s["st_info"]["bind"] for s in bad.get_section_by_name(".dynsym").iter_symbols()
             if s.name in unique}
    assert binds <= hygiene.GNU_UNIQUE_BINDINGS and "STB_GNU_UNIQUE" not in binds


def test_check_command_fails_on_the_bad_library(bad_library):
    result = subprocess.run([sys.executable, "-m", "llvmplug", "check", str(bad_library)],
                            capture_output=True, text=True, timeout=120, cwd=tempfile.gettempdir())
    assert result.returncode == 1
    assert result.stdout.count("  FAIL  ") == 7 and "0 passed, 7 failed" in result.stdout


def test_check_command_rejects_a_non_elf_file(tmp_path):
    path = tmp_path / "not-a-library.so"
    path.write_text("hello")
    result = subprocess.run([sys.executable, "-m", "llvmplug", "check", str(path)],
                            capture_output=True, text=True, timeout=120, cwd=tempfile.gettempdir())
    assert result.returncode == 1
    assert "LibraryLoadError" in result.stderr and "not an ELF file" in result.stderr


# -- cffi's ABI is the header's ------------------------------------------------
# tests/test_abi.py checks that cffi is handed the header's region; these check
# what cffi made of it against what the C compiler makes of the header.

@pytest.fixture(scope="module")
def cffi_lib():
    library = _loader.Library(private=True)
    yield library.lib
    library.close()


def _norm(c_type: str) -> str:
    # cffi drops const and writes '* *'; its compiled declarations (llvmplug/_cdef.py)
    # name a typedef of a struct or enum by its tag, which the header gives the same
    # name. Compare types without these differences.
    return re.sub(r"\bconst\b|\b(struct|enum)\s+|\s+", "", c_type)


@pytest.fixture(scope="module")
def compiler_prototypes(cc, tmp_path_factory) -> dict[str, tuple[str, list[str]]]:
    """The header's functions as gcc reads them (-aux-info): name -> (result, parameters)."""
    directory = tmp_path_factory.mktemp("aux")
    (directory / "use.c").write_text('#include "llvmplug.h"\n')
    aux = directory / "aux.txt"
    result = subprocess.run([cc, "-fsyntax-only", f"-aux-info={aux}", "-I", str(_abi.LIB_DIR),
                             str(directory / "use.c")], capture_output=True, text=True)
    if result.returncode != 0 or not aux.exists():
        pytest.skip(f"{cc} does not support -aux-info: {result.stderr.strip()}")
    prototypes = {}
    for line in aux.read_text().splitlines():
        match = re.match(r"/\* (.*?):\d+:\w+ \*/ extern (.+?)(llvmplug_\w+) \((.*)\);$", line)
        if match and Path(match[1]).name == "llvmplug.h":
            params = [] if match[4] == "void" else [p.strip() for p in match[4].split(",")]
            prototypes[match[3]] = (_norm(match[2]), [_norm(p) for p in params])
    return prototypes


def test_installed_header_is_the_checkouts():
    if not CHECKOUT_HEADER.exists():
        pytest.skip("not run from a checkout")
    assert _abi.HEADER.read_bytes() == CHECKOUT_HEADER.read_bytes(), "reinstall: the header changed"


def test_cffi_functions_are_the_compilers(cffi_lib, compiler_prototypes, header_functions):
    ffi = _abi.ffi()
    cffi_functions = {}
    for name in dir(cffi_lib):
        value = getattr(cffi_lib, name)
        if not isinstance(value, int):
            kind = ffi.typeof(value)
            assert kind.kind == "function" and not kind.ellipsis
            cffi_functions[name] = (_norm(kind.result.cname), [_norm(a.cname) for a in kind.args])
    assert len(compiler_prototypes) == len(header_functions)
    assert set(compiler_prototypes) == header_functions
    assert cffi_functions == compiler_prototypes


def test_cffi_constants_are_the_compilers(cffi_lib, cc, tmp_path):
    # The compiler checks cffi's values (_Static_assert) and that cffi knows
    # every enumerator (-Werror=switch on a switch with no default).
    ffi = _abi.ffi()
    enumerators = ffi.typeof("llvmplug_status").relements
    policies = ffi.typeof("llvmplug_policy").relements
    constants = {name: getattr(cffi_lib, name) for name in dir(cffi_lib)
                 if isinstance(getattr(cffi_lib, name), int)}
    assert set(enumerators) | set(policies) | {"LLVMPLUG_ABI_VERSION"} == set(constants)
    source = ['#include "llvmplug.h"']
    source += [f'_Static_assert({name} == {value}, "{name}");' for name, value in constants.items()]
    source.append("int covered(llvmplug_status s) { switch (s) {")
    source += [f"  case {name}: return {value};" for name, value in enumerators.items()]
    source.append("} return -1; }")
    (tmp_path / "constants.c").write_text("\n".join(source) + "\n")
    result = subprocess.run([cc, "-std=c11", "-fsyntax-only", "-Werror=switch", "-I", str(_abi.LIB_DIR),
                             str(tmp_path / "constants.c")], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_constant_check_can_fail(cc, tmp_path):
    # The same compile rejects a missing enumerator and a wrong value.
    (tmp_path / "wrong.c").write_text(
        '#include "llvmplug.h"\n_Static_assert(LLVMPLUG_ERROR_PARSE == 3, "x");\n'
        "int covered(llvmplug_status s) { switch (s) { case LLVMPLUG_OK: return 0; } return -1; }\n")
    result = subprocess.run([cc, "-std=c11", "-fsyntax-only", "-Werror=switch", "-I", str(_abi.LIB_DIR),
                             str(tmp_path / "wrong.c")], capture_output=True, text=True)
    assert result.returncode != 0
    assert "static assertion failed" in result.stderr and "LLVMPLUG_ERROR_FATAL" in result.stderr
