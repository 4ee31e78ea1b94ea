"""Artefact size: the shim as installed and stripped, against llvmlite's library (and LLVM's own)."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from llvmplug import _loader

from ._common import markdown_table, mib


def _sizes(path: Path) -> dict[str, Any]:
    """Installed and stripped size (strip runs on a copy; None without binutils' strip)."""
    stripped = None
    strip = shutil.which("strip")
    if strip:
        with tempfile.TemporaryDirectory() as directory:
            copy = Path(directory) / path.name
            shutil.copyfile(path, copy)
            subprocess.run([strip, "--strip-all", str(copy)], check=True)
            stripped = copy.stat().st_size
    return {"path": str(path), "installed": path.stat().st_size, "stripped": stripped}


def run(quick: bool) -> dict[str, Any]:
    result: dict[str, Any] = {"llvmplug": _sizes(_loader.library_path())}
    try:
        import llvmlite.binding.ffi as lite_ffi

        result["llvmlite"] = _sizes(Path(lite_ffi.lib._name))
    except (ImportError, AttributeError, OSError) as error:
        result["llvmlite"] = {"skipped": f"llvmlite's library not found: {error}"}
    libllvm = sorted((Path(sys.executable).parent.parent / "lib").glob("libLLVM.so.*"))
    if libllvm:
        result["libLLVM (karellen, what opt/llc load)"] = _sizes(libllvm[0])
    return result


def markdown(result: dict[str, Any]) -> str:
    rows = [[name, a["skipped"], ""] if "skipped" in a else
            [f"{name} (`{Path(a['path']).name}`)", mib(a["installed"]), mib(a["stripped"])]
            for name, a in result.items()]
    return "\n".join([
        "## Artefact size", "", markdown_table(["library", "installed", "stripped"], rows), "",
        "Stripped with `strip --strip-all` on a copy; llvmplug's shim is installed stripped already.", ""])
