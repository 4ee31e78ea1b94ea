"""The shim's C ABI as cffi sees it, taken from the shim's own header.

``csrc/llvmplug.h`` is the single source of truth: the build copies it next to
the library, and cffi reads the region between its ``cdef`` markers unchanged
but for the export macro (llvmplug/_cdef.py). Nothing is declared twice. The
build also writes cffi's compiled form of those declarations beside the header
(``llvmplug_ffi.py``), which loads without parsing C; it is used only while
the declarations it was made from are the header's.
"""

from __future__ import annotations

import importlib.util
import os
import threading
from pathlib import Path

from . import _cdef, errors

TYPE_CHECKING = False  # typing only for type checkers: its import slows a fresh process (issue 27)
if TYPE_CHECKING:
    from typing import Any

LIB_DIR = Path(__file__).resolve().parent / "_lib"
HEADER = LIB_DIR / "llvmplug.h"
FFI_MODULE = LIB_DIR / "llvmplug_ffi.py"


def cdef_source(header_text: str) -> str:
    """Return the cffi declarations contained in the text of ``llvmplug.h``."""
    try:
        return _cdef.cdef_source(header_text)
    except ValueError as error:
        raise errors.LibraryLoadError(str(error)) from None


def missing_message(path: Path) -> str:
    """Why a file of the built shim is missing, naming the usual cause."""
    package = LIB_DIR.parent
    if path.parent == LIB_DIR and (package.parent / "pyproject.toml").is_file():
        # Python imported llvmplug from a checkout (the current directory is
        # first on sys.path), which shadows the installed package.
        return (
            f"llvmplug was imported from the source tree {package} (a checkout: there is a "
            f"pyproject.toml beside it), which has no built shim ({path} is missing); it shadows "
            "the installed package. Run Python from another directory, or build the shim into "
            "the tree (see 'Building' in the README)"
        )
    return f"llvmplug's shim is missing: {path} (install the package with 'pip install .')"


_ffi: Any = None  # cffi.FFI, or the compiled module's _cffi_backend.FFI
_ffi_lock = threading.Lock()


def ffi() -> Any:
    """The one FFI object for the shim's ABI (made on first use).

    Made under a lock: threads that load their first Plugins at the same
    time must all get the same FFI, since cffi refuses pointers made by one
    FFI in calls through a library opened by another.
    """
    global _ffi
    if _ffi is None:
        with _ffi_lock:
            if _ffi is None:
                _ffi = _build_ffi()
    return _ffi


def previous_load() -> bool:
    """LLVMPLUG_PREVIOUS_LOAD=1: load as before issue 27 (csrc/runtime/runtime.h), for the benchmarks.

    A process parses the header instead of reading the compiled declarations,
    and every private copy is a memfd of its own, running its own pages.
    """
    return os.environ.get("LLVMPLUG_PREVIOUS_LOAD", "0") not in ("", "0")


def _build_ffi() -> Any:
    try:
        text = HEADER.read_text(encoding="utf-8")
    except OSError as error:
        raise errors.LibraryLoadError(missing_message(HEADER)) from error
    cdef = cdef_source(text)
    compiled = None if previous_load() else _compiled_ffi(cdef)
    if compiled is not None:
        return compiled
    import cffi  # parsing the declarations: about 15 ms

    result = cffi.FFI()
    result.cdef(cdef)
    return result


def _compiled_ffi(cdef: str) -> Any:
    """The FFI of the build's compiled declarations, if they are ``cdef``; else None."""
    try:
        spec = importlib.util.spec_from_file_location("llvmplug_ffi", FFI_MODULE)
        if spec is None or spec.loader is None or not FFI_MODULE.is_file():
            return None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    except Exception:  # noqa: BLE001 - e.g. written by a newer cffi than this one: parse the header instead
        return None
    return module.ffi if getattr(module, "CDEF", None) == cdef else None


def call(lib: Any, function: str, *args: Any) -> tuple[bytes, str]:
    """Call an ABI function that produces an ``llvmplug_result``.

    Returns the result's data (its first part) and message (warnings on
    success); see :func:`call_parts`.
    """
    parts, message = call_parts(lib, function, *args)
    return parts[0] if parts else b"", message


def call_parts(lib: Any, function: str, *args: Any, timings: list[str] | None = None) -> tuple[list[bytes], str]:
    """Call an ABI function that produces an ``llvmplug_result``.

    Returns every part of the result and its message (warnings on success),
    frees the result, and raises the matching
    :class:`~llvmplug.errors.LLVMPlugError` on failure. The shim's memory is
    never held past this call, so nothing Python keeps can outlive an unload
    of the library. ``timings``: a list that receives the result's stage
    timings (``llvmplug_result_timings``), on failure too; read only if given.
    """
    cffi_ = ffi()
    out = cffi_.new("llvmplug_result **")
    status = getattr(lib, function)(*args, out)
    result = out[0]
    if result == cffi_.NULL:
        raise errors.error_for(status, f"{function} returned no result")
    try:
        status = lib.llvmplug_result_status(result)
        message = cffi_.string(lib.llvmplug_result_message(result)).decode("utf-8", "replace")
        parts = [
            cffi_.unpack(lib.llvmplug_result_part_data(result, i), lib.llvmplug_result_part_size(result, i))
            for i in range(lib.llvmplug_result_part_count(result))
        ]
        if timings is not None:
            timings.append(cffi_.string(lib.llvmplug_result_timings(result)).decode("utf-8", "replace"))
    finally:
        lib.llvmplug_result_free(result)
    if status != lib.LLVMPLUG_OK:
        raise errors.error_for(status, message)
    return parts, message


def buffers(modules: list[bytes]) -> tuple[Any, list[Any]]:
    """An ``llvmplug_buffer[]`` over ``modules``, and what keeps it alive.

    The returned keep-alive list must outlive the call the array is passed to.
    """
    cffi_ = ffi()
    keep = [cffi_.from_buffer(module) for module in modules]
    return cffi_.new("llvmplug_buffer[]", [(data, len(data)) for data in keep]), keep


def _after_fork_in_child() -> None:
    """Only the forking thread exists now: a lock another thread held would stay held."""
    global _ffi_lock
    _ffi_lock = threading.Lock()
    if _ffi is not None and hasattr(_ffi, "_lock"):
        # cffi's own lock around dlopen/dlclose (a standby or retiring thread
        # of the parent may have been inside one).
        _ffi._lock = threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)
