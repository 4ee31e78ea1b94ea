"""The shim's C declarations for cffi, from ``llvmplug.h``; and, at build time, cffi's compiled form of them.

``csrc/llvmplug.h`` is the single source of truth: the region between its
``cdef`` markers, minus the export macro, is what cffi reads. Parsing it
(pycparser) takes about 15 ms, a third of a fresh process's way to its first
object, so the build also writes cffi's "out-of-line ABI" module of the same
declarations beside the header (no C compiler involved); llvmplug/_abi.py uses
it when the declarations it was made from are the header's, and parses the
header otherwise::

    python llvmplug/_cdef.py HEADER OUTPUT.py

Importable without the package (setup.py and tools/build-in-tree run it by
path), so it imports nothing of llvmplug's.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

BEGIN = "/* ---- cdef begin ---- */"
END = "/* ---- cdef end ---- */"


def cdef_source(header_text: str) -> str:
    """The cffi declarations in the text of ``llvmplug.h``; ValueError if it has no cdef markers."""
    try:
        start = header_text.index(BEGIN) + len(BEGIN)
        stop = header_text.index(END, start)
    except ValueError:
        raise ValueError("llvmplug.h has no cdef markers") from None
    return re.sub(r"\bLLVMPLUG_API\b", "", header_text[start:stop])


def emit(header: Path, output: Path) -> None:
    """Write cffi's out-of-line ABI module for ``header`` to ``output``, with the declarations as ``CDEF``."""
    import cffi  # a build requirement; at run time only the written module is imported

    cdef = cdef_source(header.read_text(encoding="utf-8"))
    builder = cffi.FFI()
    builder.cdef(cdef)
    builder.set_source("llvmplug_ffi", None)
    temporary = output.with_name(output.name + ".tmp")
    builder.emit_python_code(str(temporary))
    text = temporary.read_text(encoding="utf-8")
    temporary.unlink()
    output.write_text(
        text + "\n# The declarations this was made from: llvmplug/_abi.py uses the module only while\n"
        f"# the header beside it declares the same.\nCDEF = {cdef!r}\n",
        encoding="utf-8",
    )


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: python llvmplug/_cdef.py HEADER OUTPUT.py")
    emit(Path(sys.argv[1]), Path(sys.argv[2]))
