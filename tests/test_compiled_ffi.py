"""The ABI's declarations load compiled, and only while they are the header's (issue 27).

cffi parsing llvmplug.h cost a fresh process about 15 ms before its first
object; the build writes cffi's compiled form of the same declarations beside
the header (llvmplug/_cdef.py), and llvmplug/_abi.py uses it only when the
declarations it was made from are the header's.
"""

from __future__ import annotations

import llvmplug
from llvmplug import _abi, _cdef


def test_the_abi_is_loaded_from_the_compiled_declarations():
    assert type(_abi.ffi()).__module__ == "_cffi_backend"  # cffi.FFI, the parser, is cffi.api's
    with llvmplug.Plugin(private=True) as plugin:
        assert len(plugin.compile("define void @f() {\n  ret void\n}\n")) > 0


def test_the_compiled_declarations_are_what_cffi_makes_of_the_header(tmp_path):
    fresh = tmp_path / "llvmplug_ffi.py"
    _cdef.emit(_abi.HEADER, fresh)
    assert fresh.read_text() == _abi.FFI_MODULE.read_text()


def test_declarations_of_another_header_are_not_used():
    header = _abi.cdef_source(_abi.HEADER.read_text())
    assert _abi._compiled_ffi(header) is not None
    # A header changed after the build (another ABI): parse it instead.
    assert _abi._compiled_ffi(header.replace("size_t module_count", "unsigned module_count")) is None
