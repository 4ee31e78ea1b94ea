"""The one place that loads and unloads the shim.

A loaded copy of the shim is a complete, private LLVM. Loading the package's
file gives the shared copy; loading a *private* copy (the file copied to a new
path, which the dynamic loader treats as a different library; a hard link
would not do, glibc matches inodes) gives an LLVM with state of its own.
Unloading shuts LLVM down inside the shim first so that nothing is left
behind, then unmaps it.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import threading
import time
import warnings
from pathlib import Path
from typing import Any

from . import _abi, errors

if sys.platform == "win32":
    LIBRARY_NAME = "llvmplug.dll"
elif sys.platform == "darwin":
    LIBRARY_NAME = "libllvmplug.dylib"
else:
    LIBRARY_NAME = "libllvmplug.so"


def library_path() -> Path:
    """Absolute path of the shim inside the installed package.

    Only this path is ever loaded (or copied): never a name resolved through
    the current directory or the system's library search path.
    """
    return _abi.LIB_DIR / LIBRARY_NAME


# The package's own file may be loaded by one Library at a time: two handles
# to one file are one LLVM, and unloading one would shut down the other's.
_shared_lock = threading.Lock()
_shared_paths: set[Path] = set()


def _dlclose(lib: Any) -> None:
    """Unmap a library opened with ffi.dlopen, and let cffi forget it.

    cffi's FFI keeps every library it ever opened (a class, its accessors and
    closures: about 10 KiB) in two lists for the FFI's lifetime, so without
    this each reload would leave that much behind. Those lists are cffi
    internals: if they are not there, nothing is removed.
    """
    ffi = _abi.ffi()
    cache = lib.__dict__
    ffi.dlclose(lib)
    with ffi._lock:
        for name, item in (("_libraries", lib), ("_function_caches", cache)):
            kept = getattr(ffi, name, None)
            if isinstance(kept, list):
                kept[:] = [entry for entry in kept if entry is not item]


class Library:
    """One loaded copy of the shim; ``lib`` is its cffi library object."""

    def __init__(self, path: Path | None = None, *, private: bool = False) -> None:
        source = Path(path) if path is not None else library_path()
        if not source.is_absolute():
            raise errors.ArgumentError(f"the shim must be loaded by absolute path, not {source}")
        if not source.is_file():
            raise errors.LibraryLoadError(f"llvmplug's shim is missing: {source}")
        self.source = source
        self.private = private
        self._copy_dir: Path | None = None
        if private:
            self.path = self._make_private_copy(source)
        else:
            with _shared_lock:
                if source in _shared_paths:
                    raise errors.LibraryLoadError(
                        f"{source} is already loaded by another Plugin (llvmplug.compile's "
                        "default Plugin, or one you made); one loaded file is one LLVM, so "
                        "use Plugin(private=True) for an independent copy"
                    )
                _shared_paths.add(source)
            self.path = source
        try:
            self.lib = self._open(self.path)
        except BaseException:
            self._release_path()
            raise
        if private and os.name != "nt":
            # The mapping keeps the code alive; removing the file now means a
            # crash cannot leave copies behind. (Windows locks loaded DLLs.)
            self._remove_copy()

    def _make_private_copy(self, source: Path) -> Path:
        # mkdtemp creates the directory 0700: nobody else can swap the file
        # between our copy and our load.
        try:
            self._copy_dir = Path(tempfile.mkdtemp(prefix="llvmplug-"))
            target = self._copy_dir / source.name
            shutil.copyfile(source, target)
        except OSError as error:
            # A full or read-only temporary directory must not leave a
            # partial copy behind, nor surface as a bare OSError.
            self._remove_copy()
            raise errors.LibraryLoadError(
                f"cannot make a private copy of {source} in {tempfile.gettempdir()}: {error}"
            ) from error
        return target

    @staticmethod
    def _open(path: Path) -> Any:
        ffi = _abi.ffi()
        # On Windows the RTLD_* flags are 0, and cffi >= 1.17 then loads an
        # absolute path with LoadLibraryExW(LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR |
        # LOAD_LIBRARY_SEARCH_DEFAULT_DIRS): the DLL's own dependencies (the
        # VC++ runtime, which the repaired wheel vendors in llvmplug.libs and
        # registers with os.add_dll_directory) come from there or System32,
        # never from the current directory or PATH.
        try:
            lib = ffi.dlopen(str(path), ffi.RTLD_NOW | ffi.RTLD_LOCAL)
        except OSError as error:
            hint = ""
            if os.name == "nt" and "0x7e" in str(error):
                hint = " (a DLL it depends on, e.g. msvcp140.dll of the VC++ runtime, was not found)"
            raise errors.LibraryLoadError(f"cannot load {path}: {error}{hint}") from error
        found = lib.llvmplug_abi_version()
        wanted = lib.LLVMPLUG_ABI_VERSION
        if found >> 16 != wanted >> 16:
            _dlclose(lib)
            raise errors.LibraryLoadError(
                f"{path} implements ABI {found >> 16}.{found & 0xFFFF}, "
                f"this package needs {wanted >> 16}.x"
            )
        return lib

    def close(self) -> None:
        """Shut LLVM down in this copy and unmap it. Idempotent."""
        lib, self.lib = self.lib, None
        if lib is not None:
            lib.llvmplug_shutdown()
            _dlclose(lib)
        self._release_path()

    def _release_path(self) -> None:
        if self.private:
            self._remove_copy()
        else:
            with _shared_lock:
                _shared_paths.discard(self.source)

    def _remove_copy(self) -> None:
        if self._copy_dir is None:
            return
        # Windows may hold the file for a moment after FreeLibrary (or a
        # virus scanner may still be reading the fresh copy): retry for ~2 s.
        for attempt in range(40):
            try:
                shutil.rmtree(self._copy_dir)
                break
            except FileNotFoundError:
                break
            except OSError as error:
                if attempt == 39:
                    # Not fatal, but never silent: the copy is a large file.
                    warnings.warn(f"llvmplug could not delete its private copy "
                                  f"{self._copy_dir}: {error}", ResourceWarning, stacklevel=2)
                    return
                time.sleep(0.05)
        self._copy_dir = None
