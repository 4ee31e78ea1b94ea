"""Smoke test of an installed llvmplug wheel on any platform.

cibuildwheel runs this where the full suite cannot run as written: the suite
assumes an x86-64 Linux host (x86 triples, CPUs and flags; cc, ELF,
/proc/self/maps), while the arm64 SDKs ship only the AArch64 target and
Windows/macOS have neither ELF nor /proc. Usage: python tests/campaigns/smoke_installed.py
"""

from __future__ import annotations

import platform
import sys
from pathlib import Path

import llvmplug
from llvmplug import _loader

# What a host object starts with: ELF magic, Mach-O 64 magic, or COFF's machine field.
_ELF_MACHINES = {"x86_64": 62, "aarch64": 183}
_COFF_MACHINES = {"AMD64": 0x8664, "ARM64": 0xAA64}


def check_object(obj: bytes) -> None:
    if sys.platform.startswith("linux"):
        ok = obj[:4] == b"\x7fELF" and int.from_bytes(obj[18:20], "little") == _ELF_MACHINES[platform.machine()]
    elif sys.platform == "darwin":
        ok = obj[:4] == b"\xcf\xfa\xed\xfe"  # MH_MAGIC_64, little-endian
    elif sys.platform == "win32":
        ok = int.from_bytes(obj[:2], "little") == _COFF_MACHINES[platform.machine()]
    else:
        raise SystemExit(f"no object check for {sys.platform}")
    if not ok:
        raise SystemExit(f"not a host object for {sys.platform}/{platform.machine()}: {obj[:20]!r}")


def main() -> None:
    ir = (Path(__file__).resolve().parents[1] / "data" / "arith.ll").read_text()
    library = _loader.library_path()
    if not library.is_relative_to(Path(llvmplug.__file__).resolve().parent):
        raise SystemExit(f"the shim is not loaded from the installed package: {library}")

    info = llvmplug.info()
    obj = llvmplug.compile(ir)
    check_object(obj)

    # A private copy is an independent LLVM that compiles the same bytes, and
    # unloading it (FreeLibrary/dlclose) deletes its copy.
    private = llvmplug.Plugin(private=True)
    copy = private.loaded_path
    same = private.compile(ir)
    private.unload()
    if same != obj:
        raise SystemExit("a private copy compiled different bytes")
    if copy is None or copy == library or copy.exists():
        raise SystemExit(f"the private copy was not a separate, deleted file: {copy}")

    llvmplug.reset()  # unload and reload the package's copy
    if llvmplug.compile(ir) != obj:
        raise SystemExit("the reloaded shim compiled different bytes")
    print(f"llvmplug {info['llvm_version']} on {info['host_triple']}: ok ({library})")


if __name__ == "__main__":
    main()
