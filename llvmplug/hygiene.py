"""Symbol hygiene of a built shim: does it keep its LLVM to itself?

The shim can load next to any other LLVM only if the dynamic loader sees
nothing of the LLVM and C++ runtime inside it. These checks read the ELF file
(with pyelftools) for everything that would let the loader bind another
library to the shim's copy, or the shim to another library's copy, or keep the
shim from being unloaded:

- the dynamic symbol table defines exactly the ``LLVMPLUG_API`` functions of
  ``llvmplug.h``: no LLVM, libstdc++ or other symbol is visible;
- no ``GLIBCXX_*``/``CXXABI_*`` version needs, and ``DT_NEEDED`` names only the
  C library family: the C++ runtime is private and static;
- no ``STB_GNU_UNIQUE`` symbol: glibc never unloads a library that has one, so
  ``dlclose`` would silently keep LLVM's state;
- no ``DF_1_NODELETE`` (the same, by request), no text relocations, and no
  executable-stack request.

Linux (ELF) only: macOS and Windows builds use other formats and loaders.
Run it as ``llvmplug check [PATH]``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from elftools.common.exceptions import ELFError
from elftools.elf.dynamic import DynamicSection
from elftools.elf.elffile import ELFFile
from elftools.elf.enums import ENUM_DT_FLAGS, ENUM_DT_FLAGS_1
from elftools.elf.gnuversions import GNUVerNeedSection
from elftools.elf.sections import SymbolTableSection

from . import _abi, errors
from ._loader import library_path

TYPE_CHECKING = False  # typing only for type checkers: its import slows a fresh process (issue 27)
if TYPE_CHECKING:
    from typing import BinaryIO

# The only libraries the shim may need: the C library family, which every
# process already has exactly one of.
ALLOWED_NEEDED = re.compile(r"(libc|libm|libdl|libpthread|librt)\.so\.\d+|ld-linux[\w.-]*\.so\.\d+")
CXX_RUNTIME_VERSIONS = re.compile(r"(GLIBCXX|CXXABI)_")

# pyelftools names binding 10 after the generic range start (STB_LOOS), not
# STB_GNU_UNIQUE; compare with both names so that neither spelling slips by.
GNU_UNIQUE_BINDINGS = frozenset({"STB_GNU_UNIQUE", "STB_LOOS", 10})

# In the cdef region (plain C, see llvmplug.h), a declaration with a parameter
# list is a function; its name stands right before the list.
_COMMENT = re.compile(r"/\*.*?\*/", re.S)
_FUNCTION = re.compile(r"(\w+)\s*\([^;]*\)\s*;")


@dataclass(frozen=True)
class Finding:
    """The outcome of one check: what was checked, whether it passed, and why."""

    check: str
    ok: bool
    detail: str


def abi_functions(header_text: str) -> set[str]:
    """Names of the functions declared in the ABI region of ``llvmplug.h``."""
    return set(_FUNCTION.findall(_COMMENT.sub(" ", _abi.cdef_source(header_text))))


def _dynsym(elf: ELFFile) -> SymbolTableSection | None:
    section = elf.get_section_by_name(".dynsym")
    return section if isinstance(section, SymbolTableSection) else None


def _dynamic(elf: ELFFile) -> DynamicSection | None:
    for section in elf.iter_sections():
        if isinstance(section, DynamicSection):
            return section
    return None


def defined_dynamic_symbols(elf: ELFFile) -> set[str]:
    """Names the file offers to the dynamic loader (defined, non-local, in .dynsym)."""
    table = _dynsym(elf)
    if table is None:
        return set()
    return {
        symbol.name
        for symbol in table.iter_symbols()
        if symbol.name and symbol["st_shndx"] != "SHN_UNDEF" and symbol["st_info"]["bind"] != "STB_LOCAL"
    }


def unique_symbols(elf: ELFFile) -> set[str]:
    """Symbols bound STB_GNU_UNIQUE, in .dynsym or (if not stripped) .symtab."""
    found: set[str] = set()
    for section in elf.iter_sections():
        if isinstance(section, SymbolTableSection):
            found.update(
                symbol.name for symbol in section.iter_symbols() if symbol["st_info"]["bind"] in GNU_UNIQUE_BINDINGS
            )
    return found


def version_needs(elf: ELFFile) -> set[str]:
    """Every symbol version the file needs from other libraries (.gnu.version_r)."""
    needs: set[str] = set()
    for section in elf.iter_sections():
        if isinstance(section, GNUVerNeedSection):
            for _, auxiliaries in section.iter_versions():
                needs.update(aux.name for aux in auxiliaries)
    return needs


def needed_libraries(elf: ELFFile) -> list[str]:
    """DT_NEEDED entries, in order."""
    dynamic = _dynamic(elf)
    return (
        []
        if dynamic is None
        else [
            tag.needed  # type: ignore[attr-defined]  # pyelftools sets it on DT_NEEDED tags only
            for tag in dynamic.iter_tags("DT_NEEDED")
        ]
    )


def _tag_values(elf: ELFFile, name: str) -> list[int]:
    dynamic = _dynamic(elf)
    return [] if dynamic is None else [tag["d_val"] for tag in dynamic.iter_tags(name)]


def has_nodelete(elf: ELFFile) -> bool:
    """Whether DT_FLAGS_1 asks the loader never to unload the file."""
    return any(value & ENUM_DT_FLAGS_1["DF_1_NODELETE"] for value in _tag_values(elf, "DT_FLAGS_1"))


def has_textrel(elf: ELFFile) -> bool:
    """Whether the file needs relocations in read-only code (DT_TEXTREL or DF_TEXTREL)."""
    return bool(_tag_values(elf, "DT_TEXTREL")) or any(
        value & ENUM_DT_FLAGS["DF_TEXTREL"] for value in _tag_values(elf, "DT_FLAGS")
    )


def has_executable_stack(elf: ELFFile) -> bool:
    """Whether loading the file would make the process stack executable."""
    for segment in elf.iter_segments():
        if segment["p_type"] == "PT_GNU_STACK":
            return bool(segment["p_flags"] & 0x1)  # PF_X
    return True  # no PT_GNU_STACK: the loader assumes an executable stack


def _names(names: set[str], limit: int) -> str:
    ordered = sorted(names)
    return ", ".join(ordered[:limit]) + (", ..." if len(ordered) > limit else "")


def check_elf(stream: BinaryIO, expected_functions: set[str]) -> list[Finding]:
    """Run every check on an ELF shared library read from ``stream``."""
    elf = ELFFile(stream)
    findings = []

    exported = defined_dynamic_symbols(elf)
    extra, missing = exported - expected_functions, expected_functions - exported
    llvm = {name for name in extra if name.startswith(("_ZN4llvm", "LLVM"))}
    findings.append(
        Finding(
            "exports exactly the C ABI",
            not extra and not missing,
            f"{len(exported)} dynamic symbols"
            + (
                f"; {len(extra)} not in llvmplug.h ({len(llvm)} of them LLVM's): {_names(llvm or extra, 4)}"
                if extra
                else ""
            )
            + (f"; missing: {_names(missing, 4)}" if missing else ""),
        )
    )

    cxx_needs = {need for need in version_needs(elf) if CXX_RUNTIME_VERSIONS.match(need)}
    findings.append(
        Finding(
            "no C++ runtime version needs",
            not cxx_needs,
            _names(cxx_needs, 4) if cxx_needs else "no GLIBCXX_*/CXXABI_* in .gnu.version_r",
        )
    )

    needed = needed_libraries(elf)
    foreign = [name for name in needed if not ALLOWED_NEEDED.fullmatch(name)]
    findings.append(
        Finding(
            "needs only the C library family",
            not foreign,
            "DT_NEEDED: " + (", ".join(needed) or "none") + (f"; not allowed: {', '.join(foreign)}" if foreign else ""),
        )
    )

    unique = unique_symbols(elf)
    findings.append(
        Finding(
            "no STB_GNU_UNIQUE symbols (dlclose would be a no-op)",
            not unique,
            f"{len(unique)}: {_names(unique, 3)}" if unique else "none",
        )
    )

    nodelete = has_nodelete(elf)
    findings.append(Finding("no DF_1_NODELETE", not nodelete, "set" if nodelete else "not set"))

    textrel = has_textrel(elf)
    findings.append(Finding("no text relocations", not textrel, "present" if textrel else "none"))

    execstack = has_executable_stack(elf)
    findings.append(Finding("no executable stack", not execstack, "requested" if execstack else "not requested"))
    return findings


def check(path: str | Path | None = None, header: str | Path | None = None) -> list[Finding]:
    """Check a built shim (default: the installed one) against the ABI of ``header``.

    Raises:
        LibraryLoadError: the file is missing or is not an ELF file.
    """
    target = Path(path) if path is not None else library_path()
    header_path = Path(header) if header is not None else _abi.HEADER
    try:
        expected = abi_functions(header_path.read_text(encoding="utf-8"))
        with open(target, "rb") as stream:
            return check_elf(stream, expected)
    except OSError as error:
        raise errors.LibraryLoadError(f"cannot read {error.filename}: {error.strerror}") from error
    except ELFError as error:
        raise errors.LibraryLoadError(
            f"{target} is not an ELF file ({error}); only Linux builds can be checked"
        ) from error
