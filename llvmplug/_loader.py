"""The one place that loads and unloads the shim.

A loaded copy of the shim is a complete, private LLVM. Loading the package's
file gives the shared copy; loading a *private* copy (the file's bytes under
another inode, which the dynamic loader treats as a different library; a hard
link would not do, glibc matches inodes) gives an LLVM with state of its own.

Private copies on Linux live in memory: the shim is read once per process
into a sealed ``memfd`` (the template), loaded through ``/proc/self/fd/N``.
The first private copy is loaded from the template itself; each copy loaded
while it is taken is a new sealed memfd filled from it. A memfd holds the
whole shim (about 150 MiB of shared memory, which RSS counts only where
pages are mapped), so a process with one private copy keeps one, not two.
Nothing is ever on disk, so even a SIGKILL during a load leaves nothing
behind, and a copy's memfd is kept after a clean unload so that a reload maps
the same bytes again without copying them. A copy filled from the template
then maps its code and constants from the template itself (see
:func:`_share_code`): every copy in the process runs the same physical pages
of LLVM, so one swapped in finds them in the caches the others warmed.
Elsewhere a private copy is a file
in a fresh temporary directory, deleted as soon as it is mapped (POSIX) or
unloaded (Windows).

Every load is checked against the build id installed beside the library
(see :func:`build_id_beside`): a library whose own id differs from the file
beside it is refused, so an id read without loading (the cache's key) is the
id of what would run.

Unloading a healthy copy shuts LLVM down inside it first so that nothing is
left behind, then unmaps it. A *suspect* copy (an error unwound through LLVM's
frames, which are built without exceptions and so released no lock they
held) is never shut down on the caller's thread: see :func:`retire`.
"""

from __future__ import annotations

import itertools
import os
import struct
import sys
import threading
import time
import warnings
import weakref
from pathlib import Path

from . import _abi, errors

TYPE_CHECKING = False  # typing only for type checkers: its import slows a fresh process (issue 27)
if TYPE_CHECKING:
    from typing import Any

if sys.platform == "win32":
    LIBRARY_NAME = "llvmplug.dll"
elif sys.platform == "darwin":
    LIBRARY_NAME = "libllvmplug.dylib"
else:
    LIBRARY_NAME = "libllvmplug.so"

# The ABI this package speaks: a library with another major, or an older
# minor (lacking functions this package calls), is refused right after dlopen.
ABI_MAJOR = 2
# 2.2: llvmplug_set_sandbox, which every load calls, llvmplug_confine_process,
# llvmplug_progress and llvmplug_result_timings.
ABI_MIN_MINOR = 2
# llvmplug_build_id arrived in 2.1 too, with llvmplug_compile_modules and
# llvmplug_list_passes, which this package calls: every shim it loads has an id.
ABI_BUILD_ID_MINOR = 1

BUILD_ID_SUFFIX = ".build-id"

USE_MEMFD = sys.platform.startswith("linux") and hasattr(os, "memfd_create")

# Retiring suspect copies: how many may be shutting down at once, and how long
# a load waits for one of them to finish when that many are.
MAX_RETIRING = 4
RETIRE_WAIT = 10.0


def library_path() -> Path:
    """Absolute path of the shim inside the installed package.

    Only this path is ever loaded (or copied): never a name resolved through
    the current directory or the system's library search path.
    """
    return _abi.LIB_DIR / LIBRARY_NAME


# -- bookkeeping shared by every Library (reset in a forked child) -----------

# The package's own file may be loaded by one Library at a time: two handles
# to one file are one LLVM, and unloading one would shut down the other's.
# A second Plugin wanting it loads a private copy instead (fallback_private).
_shared_lock = threading.Lock()
_shared_paths: set[Path] = set()
# Files a copy of which stays mapped for good (abandoned after a fork, or stuck
# retiring): loading them by path would hand back that copy, so they are
# loaded as private copies from then on.
_tainted_sources: set[Path] = set()
# Abandoned copies: referenced forever, because cffi unmaps a library whose
# object is collected, and threads or handlers may still point into it.
_abandoned: list[Any] = []
_live: weakref.WeakSet[Library] = weakref.WeakSet()

_template_lock = threading.Lock()
# Each source's template: its memfd and that memfd's name.
_templates: dict[Path, tuple[int, str]] = {}
# The build id beside each source when its template was read: what every
# private copy made from that template must report.
_template_ids: dict[Path, str | None] = {}
# Sources whose template a PrivateFile has taken (a copy is loaded from it, or
# it is kept for that copy's reload, or a copy that could not be unmapped
# still maps it): other copies are filled from it meanwhile.
_templates_taken: set[Path] = set()
# The build ids each source's copies reported in this process (the cache's
# key: llvmplug/cache.py); more than one if the file was replaced meanwhile.
_loaded_ids: dict[Path, set[str | None]] = {}
_copy_numbers = itertools.count(1)

_retire_state = threading.Condition()
_retiring: set[Library] = set()


def _dlclose(lib: Any) -> None:
    """Unmap a library opened with ffi.dlopen, and let cffi forget it.

    cffi's parsing FFI (cffi.FFI, used when the build's compiled declarations
    are not there: llvmplug/_abi.py) keeps every library it ever opened (a
    class, its accessors and closures: about 10 KiB) in two lists for the
    FFI's lifetime, so without this each reload would leave that much behind.
    Those lists are cffi internals: if they are not there (the compiled FFI
    has none), nothing is removed.
    """
    ffi = _abi.ffi()
    lock = getattr(ffi, "_lock", None)
    if lock is None:
        ffi.dlclose(lib)
        return
    cache = lib.__dict__
    ffi.dlclose(lib)
    with lock:
        for name, item in (("_libraries", lib), ("_function_caches", cache)):
            kept = getattr(ffi, name, None)
            if isinstance(kept, list):
                kept[:] = [entry for entry in kept if entry is not item]


def build_id_file(library: Path) -> Path:
    """Where the build id of ``library`` is installed: beside it, its name plus ``.build-id``."""
    return library.with_name(library.name + BUILD_ID_SUFFIX)


def build_id_beside(library: Path) -> str | None:
    """The build id installed beside ``library``, read without loading it; None if there is none.

    Only an id that looks like one (64 hex digits) counts: anything else is
    no id, and a load then checks the library has none either.
    """
    try:
        text = build_id_file(library).read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return None
    return text if len(text) == 64 and all(c in "0123456789abcdef" for c in text) else None


def loaded_build_id(source: Path) -> str | None:
    """The build id of every copy of ``source`` loaded in this process, if they all had one and the same."""
    with _template_lock:
        ids = _loaded_ids.get(source, set())
        return next(iter(ids)) if len(ids) == 1 else None


def _sealed_memfd(name: str, source: int, size: int) -> int:
    """A new memfd holding ``size`` bytes of ``source``, sealed: nothing (not even a bug of ours) can change them."""
    import fcntl  # POSIX only, and memfds are Linux only

    fd = os.memfd_create(name, os.MFD_CLOEXEC | os.MFD_ALLOW_SEALING)
    try:
        _fill(fd, source, size)
        fcntl.fcntl(
            fd, fcntl.F_ADD_SEALS, fcntl.F_SEAL_WRITE | fcntl.F_SEAL_SHRINK | fcntl.F_SEAL_GROW | fcntl.F_SEAL_SEAL
        )
    except BaseException:
        os.close(fd)
        raise
    return fd


def _template(source: Path) -> tuple[int, str, str | None]:
    """The memfd holding the bytes of ``source``, read once per process; its name; the id beside them."""
    with _template_lock:
        found = _templates.get(source)
        if found is not None:
            return (*found, _template_ids[source])
        expected = build_id_beside(source)
        # Named as every copy is: the template is loaded as a copy too.
        name = f"llvmplug-{next(_copy_numbers)}"
        with open(source, "rb") as stream:
            fd = _sealed_memfd(name, stream.fileno(), os.fstat(stream.fileno()).st_size)
        _templates[source] = fd, name
        _template_ids[source] = expected
        return fd, name, expected


def _take_template(source: Path) -> bool:
    """Take the template of ``source`` to load a copy from, if no PrivateFile has it."""
    if _abi.previous_load():
        return False
    with _template_lock:
        if source in _templates_taken:
            return False
        _templates_taken.add(source)
        return True


def _fill(target: int, source: int, size: int) -> None:
    offset = 0
    while offset < size:
        sent = os.sendfile(target, source, offset, size - offset)
        if sent == 0:
            raise OSError(f"the shim shrank while it was being copied ({offset} of {size} bytes)")
        offset += sent


class PrivateFile:
    """The file a private copy is loaded from; outlives the copy so a reload can map it again."""

    def __init__(self, source: Path) -> None:
        self.fd: int | None = None
        self.directory: Path | None = None
        # The source whose template this is (never closed, but given back), or None.
        self.template_of: Path | None = None
        # The id beside the source when these bytes were taken from it.
        self.build_id: str | None
        # The template these bytes were copied from (a memfd that stays open
        # for the life of the process): the copy maps its code from there.
        self.code_from: int | None = None
        if USE_MEMFD:
            template, name, self.build_id = _template(source)
            if _take_template(source):
                fd, self.template_of = template, source
            else:
                name = f"llvmplug-{next(_copy_numbers)}"
                fd = _sealed_memfd(name, template, os.fstat(template).st_size)
                self.code_from = None if _abi.previous_load() else template
            self.fd = fd
            self.load_path = Path(f"/proc/self/fd/{fd}")
            # What /proc/self/maps shows for the mapping, minus " (deleted)".
            self.path = Path(f"/memfd:{name}")
        else:
            import shutil
            import tempfile

            # mkdtemp creates the directory 0700: nobody else can swap the
            # file between our copy and our load.
            self.directory = Path(tempfile.mkdtemp(prefix="llvmplug-"))
            try:
                self.path = self.load_path = self.directory / source.name
                self.build_id = build_id_beside(source)
                shutil.copyfile(source, self.path)
            except BaseException:
                self.close()
                raise

    @property
    def reusable(self) -> bool:
        """Whether the bytes are still there to be loaded again (a memfd)."""
        return self.fd is not None

    def loaded_elsewhere(self) -> bool:
        """Whether a copy of this file is still mapped (dlclose did not unmap it).

        Asked with dlopen(RTLD_NOLOAD) through libc itself: cffi and ctypes
        read dlerror() when it returns NULL, and RTLD_NOLOAD sets none.
        """
        libc, _ = _libc()
        handle = libc.dlopen(os.fsencode(self.load_path), os.RTLD_NOLOAD | os.RTLD_LAZY)
        if not handle:
            return False
        libc.dlclose(handle)
        return True

    def mapped(self) -> None:
        """The copy is mapped: a file on disk can go (POSIX; Windows locks loaded DLLs)."""
        if self.directory is not None and os.name != "nt":
            self._remove_directory()

    def close(self) -> None:
        if self.template_of is not None:
            # Given back for the next copy, unless a copy that could not be
            # unmapped still maps it: loading it again would hand back that copy.
            if not self.loaded_elsewhere():
                with _template_lock:
                    _templates_taken.discard(self.template_of)
            self.template_of = None
            self.fd = None
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None
        self._remove_directory()

    def _remove_directory(self) -> None:
        if self.directory is None:
            return
        import shutil

        # Windows may hold the file for a moment after FreeLibrary (or a
        # virus scanner may still be reading the fresh copy): retry for ~2 s.
        for attempt in range(40):
            try:
                shutil.rmtree(self.directory)
                break
            except FileNotFoundError:
                break
            except OSError as error:
                if attempt == 39:
                    # Not fatal, but never silent: the copy is a large file.
                    warnings.warn(
                        f"llvmplug could not delete its private copy {self.directory}: {error}",
                        ResourceWarning,
                        stacklevel=2,
                    )
                    return
                time.sleep(0.05)
        self.directory = None


class Library:
    """One loaded copy of the shim; ``lib`` is its cffi library object.

    Args:
        path: the shim to load (absolute); default: the package's.
        private: load a private copy of it.
        file: a :class:`PrivateFile` to load again (from :meth:`close`),
            instead of making a new copy.
        fallback_private: if the file is already loaded (by another Plugin,
            or by a copy that is being retired), load a private copy of it
            instead of failing.
    """

    def __init__(
        self,
        path: Path | None = None,
        *,
        private: bool = False,
        file: PrivateFile | None = None,
        fallback_private: bool = False,
    ) -> None:
        source = Path(path) if path is not None else library_path()
        if not source.is_absolute():
            raise errors.ArgumentError(f"the shim must be loaded by absolute path, not {source}")
        if file is None and not source.is_file():  # a file given is a copy already made
            raise errors.LibraryLoadError(_abi.missing_message(source))
        _wait_for_retiring()
        self.source = source
        self.lib: Any = None
        self.build_id: str | None = None  # what the loaded copy reports (llvmplug_build_id)
        self.file: PrivateFile | None = None
        self.abandoned = False
        # An error unwound through LLVM in this copy: it is retired, never
        # shut down on a caller's thread (see retire()).
        self.suspect = False
        if not private:
            with _shared_lock:
                taken = source in _shared_paths or source in _tainted_sources
                if taken and not fallback_private:
                    raise errors.LibraryLoadError(
                        f"{source} is already loaded by another Plugin (llvmplug.compile's "
                        "default Plugin, or one you made); one loaded file is one LLVM, so "
                        "use Plugin(private=True) for an independent copy"
                    )
                if not taken:
                    _shared_paths.add(source)
            private = taken
        self.private = private
        if private:
            if file is not None and file.loaded_elsewhere():
                file.close()  # still mapped: loading it would hand back that copy
                file = None
            try:
                self.file = file if file is not None else PrivateFile(source)
            except OSError as error:
                # A full or read-only temporary directory must not leave a
                # partial copy behind, nor surface as a bare OSError.
                import tempfile

                where = "memory (memfd)" if USE_MEMFD else tempfile.gettempdir()
                raise errors.LibraryLoadError(f"cannot make a private copy of {source} in {where}: {error}") from error
            self.path = self.file.path
        else:
            self.path = source
        expected = self.file.build_id if self.file is not None else build_id_beside(source)
        try:
            self.lib, self.build_id = _open(
                self.file.load_path if self.file is not None else source, self.path, expected
            )
        except BaseException:
            self._release(keep_file=False)
            raise
        if self.file is not None and self.file.code_from is not None:
            try:
                _share_code(self.lib, self.file.load_path, self.file.code_from)
            except OSError as error:
                # Its code may be half replaced: nothing may run in it, not even its shutdown.
                self.abandon()
                raise errors.LibraryLoadError(
                    f"cannot map the code of {self.path} from the template it was copied from: {error}"
                ) from error
        with _template_lock:
            _loaded_ids.setdefault(source, set()).add(self.build_id)
        if self.file is not None:
            self.file.mapped()
        _live.add(self)

    def close(self, *, keep_file: bool = False) -> PrivateFile | None:
        """Shut LLVM down in this copy and unmap it. Idempotent.

        With ``keep_file``, a private copy's memfd is returned, for loading again.
        """
        lib, self.lib = self.lib, None
        if lib is None or self.abandoned:
            return None
        lib.llvmplug_shutdown()
        _dlclose(lib)
        return self._release(keep_file=keep_file)

    def _release(self, *, keep_file: bool) -> PrivateFile | None:
        file, self.file = self.file, None
        if file is None:
            with _shared_lock:
                _shared_paths.discard(self.source)
            return None
        if keep_file and file.reusable:
            return file
        file.close()
        return None

    def abandon(self) -> None:
        """Forget this copy without running anything in it, and never unmap it.

        For a copy whose locks may be held by threads that no longer exist (a
        forked child) or that is stuck shutting down: its mapping, its file
        and its cffi object stay for the life of the process.
        """
        if self.lib is None or self.abandoned:
            return
        self.abandoned = True
        _abandoned.append((self.lib, self.file))
        with _shared_lock:
            _tainted_sources.add(self.source)


def _open(load_path: Path, shown: Path, expected_id: str | None) -> tuple[Any, str | None]:
    """The loaded library and its build id, checked against ``expected_id`` (the file beside it)."""
    ffi = _abi.ffi()
    # On Windows the RTLD_* flags are 0, and cffi >= 1.17 then loads an
    # absolute path with LoadLibraryExW(LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR |
    # LOAD_LIBRARY_SEARCH_DEFAULT_DIRS): the DLL's own dependencies (the
    # VC++ runtime, which the repaired wheel vendors in llvmplug.libs and
    # registers with os.add_dll_directory) come from there or System32,
    # never from the current directory or PATH.
    try:
        lib = ffi.dlopen(str(load_path), ffi.RTLD_NOW | ffi.RTLD_LOCAL)
    except OSError as error:
        hint = ""
        if os.name == "nt" and "0x7e" in str(error):
            hint = " (a DLL it depends on, e.g. msvcp140.dll of the VC++ runtime, was not found)"
        raise errors.LibraryLoadError(f"cannot load {shown}: {error}{hint}") from error
    # Before any other symbol is touched (cffi resolves them lazily): a
    # library of another ABI may not even have them.
    try:
        found = lib.llvmplug_abi_version()
    except (AttributeError, ffi.error) as error:  # the parsing FFI's, the compiled FFI's
        _dlclose(lib)
        raise errors.LibraryLoadError(f"{shown} is not an llvmplug shim (no llvmplug_abi_version)") from error
    major, minor = found >> 16, found & 0xFFFF
    if major != ABI_MAJOR or minor < ABI_MIN_MINOR:
        _dlclose(lib)
        raise errors.LibraryLoadError(
            f"{shown} implements llvmplug ABI {major}.{minor}; this llvmplug package needs "
            f"ABI {ABI_MAJOR}.{ABI_MIN_MINOR} or a later {ABI_MAJOR}.x (rebuild the shim, "
            "or install the package that matches it)"
        )
    build_id = _abi.ffi().string(lib.llvmplug_build_id()).decode("ascii") if minor >= ABI_BUILD_ID_MINOR else None
    # No file beside it (a shim copied or built by hand) claims nothing; a
    # file that claims another build than the library's is a broken install.
    if expected_id is not None and build_id != expected_id:
        _dlclose(lib)
        raise errors.LibraryLoadError(
            f"{shown} is build {build_id or '(none)'}, but the build id installed beside it "
            f"({BUILD_ID_SUFFIX}) says {expected_id}: the library was replaced without its build id (or the other "
            "way round); reinstall llvmplug, or rebuild and install the shim"
        )
    return lib, build_id


# -- one physical copy of the code ------------------------------------------

_PT_LOAD, _PF_X, _PF_W, _PF_R = 1, 1, 2, 4


def _code_segments(fd: int) -> list[tuple[int, int, int, int]] | None:
    """The loaded, read-only segments of the ELF file ``fd`` after its first: (offset, address, size, flags).

    None for anything but a 64-bit little-endian ELF file (the Linux wheels'
    x86_64 and aarch64) or a segment whose memory is not all from the file.
    The first segment (the ELF header, the dynamic symbols and relocations
    the loader and dlsym read) stays the copy's own, and names it in
    /proc/self/maps; what is shared is where LLVM's code and constants are.
    """
    header = os.pread(fd, 64, 0)
    if len(header) < 64 or header[:4] != b"\x7fELF" or header[4:6] != b"\x02\x01":
        return None
    (table_at,) = struct.unpack_from("<Q", header, 32)
    entry_size, count = struct.unpack_from("<HH", header, 54)
    table = os.pread(fd, entry_size * count, table_at)
    if entry_size < 56 or len(table) < entry_size * count:
        return None
    found = []
    for index in range(count):
        kind, flags, offset, address, _, in_file, in_memory, _ = struct.unpack_from(
            "<IIQQQQQQ", table, index * entry_size
        )
        if kind != _PT_LOAD or flags & _PF_W:
            continue
        if offset == 0:
            if address != 0:
                return None  # dladdr's base is then not the load bias
            continue
        if in_file != in_memory:
            return None
        found.append((offset, address, in_file, flags))
    return found


def _share_code(lib: Any, load_path: Path, template: int) -> None:
    """Map the code and read-only data of the copy loaded from ``load_path`` from ``template``, whence its bytes came.

    Why: glibc tells libraries apart by inode, so every private copy is a
    file of its own, and each would run its own physical copy of LLVM's code
    (about 70 MiB of text, 60 of constants). A standby copy swapped in then
    started on code no cache held, its first compile ~1.7x a warm one. The
    bytes are the same (the copy was filled from the sealed template, and
    both are sealed), the segments are never written (relocations go to the
    writable segment; tests/test_symbols.py checks there are no text
    relocations), and no thread has run in the copy yet (its first
    starts with its first call after loading), so mapping the template's
    pages over the copy's changes nothing but which pages they are. dlclose
    unmaps the whole range, these mappings with it.

    Raises OSError if a mapping failed (the copy must then never run).
    """
    import ctypes

    segments = _code_segments(template)
    if not segments:
        return  # not an ELF file this knows: the copy keeps its own pages

    libc, DlInfo = _libc()
    info = DlInfo()
    symbol = int(_abi.ffi().cast("uintptr_t", lib.llvmplug_abi_version))
    if not libc.dladdr(symbol, ctypes.byref(info)) or info.fname != os.fsencode(load_path) or not info.fbase:
        return  # not found where it was loaded (cannot happen): the copy keeps its own pages
    page = os.sysconf("SC_PAGE_SIZE")
    for offset, address, size, flags in segments:
        start = address - address % page
        length = -(-(address + size) // page) * page - start
        prot = (_PROT_READ if flags & _PF_R else 0) | (_PROT_EXEC if flags & _PF_X else 0)
        at = info.fbase + start
        got = libc.mmap(at, length, prot, _MAP_PRIVATE | _MAP_FIXED, template, offset - offset % page)
        if got != at:
            raise OSError(ctypes.get_errno(), f"mmap at {at:#x}: {os.strerror(ctypes.get_errno())}")


# Linux's values on x86_64 and aarch64 (the generic ones). Not from the mmap
# module: a confined worker replacing a poisoned copy can import no module file.
_PROT_READ, _PROT_EXEC, _MAP_PRIVATE, _MAP_FIXED = 0x1, 0x4, 0x02, 0x10
_libc_found: tuple[Any, Any] | None = None


def _libc() -> tuple[Any, Any]:
    """libc with dlopen, dlclose, dladdr and mmap declared, and dladdr's Dl_info: made once, on first use."""
    global _libc_found
    if _libc_found is None:
        import ctypes

        class DlInfo(ctypes.Structure):
            _fields_ = [
                ("fname", ctypes.c_char_p),
                ("fbase", ctypes.c_void_p),
                ("sname", ctypes.c_char_p),
                ("saddr", ctypes.c_void_p),
            ]

        libc = ctypes.CDLL(None, use_errno=True)
        libc.dlopen.restype = ctypes.c_void_p
        libc.dlopen.argtypes = [ctypes.c_char_p, ctypes.c_int]
        libc.dlclose.argtypes = [ctypes.c_void_p]
        libc.dladdr.argtypes = [ctypes.c_void_p, ctypes.POINTER(DlInfo)]
        libc.mmap.restype = ctypes.c_void_p
        libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
        _libc_found = libc, DlInfo
    return _libc_found


# -- retiring suspect copies --------------------------------------------------


def retire(library: Library) -> threading.Event:
    """Shut a suspect copy down and unmap it, off the caller's thread.

    Why not on the caller's thread: LLVM is built without exceptions, so a
    fatal error that unwound through its frames released nothing they held;
    ``llvm_shutdown`` then runs every static destructor of that copy, and any
    of them that takes such a lock would block forever. A daemon thread
    shuts the copy down; if it never finishes, the copy is abandoned (still
    mapped: a stuck thread points into it). At most :data:`MAX_RETIRING`
    copies retire at once; a load waits up to :data:`RETIRE_WAIT` seconds for
    one of them and otherwise fails (see :func:`_wait_for_retiring`), which
    bounds the memory stuck copies can hold.

    Returns an Event set once the copy is unmapped (or abandoned).
    """
    done = threading.Event()
    if library.lib is None or library.abandoned:
        done.set()
        return done
    with _retire_state:
        _retiring.add(library)
    thread = threading.Thread(target=_retire, args=(library, done), name="llvmplug-retire", daemon=True)
    thread.start()
    return done


def _retire(library: Library, done: threading.Event) -> None:
    try:
        library.close()
    except BaseException:  # noqa: BLE001 - a copy that cannot close is abandoned, never raised into
        library.abandon()
    finally:
        with _retire_state:
            _retiring.discard(library)
            _retire_state.notify_all()
        done.set()


def retiring() -> int:
    """How many suspect copies are shutting down right now."""
    with _retire_state:
        return len(_retiring)


def _wait_for_retiring() -> None:
    with _retire_state:
        if _retire_state.wait_for(lambda: len(_retiring) < MAX_RETIRING, RETIRE_WAIT):
            return
        stuck = len(_retiring)
    raise errors.LibraryLoadError(
        f"{stuck} copies of LLVM have not finished shutting down after fatal errors "
        f"(waited {RETIRE_WAIT:.0f} s); a lock left held by an unwound LLVM frame can "
        "keep them from ever finishing, so this process loads no more copies. "
        "Restart it, or use Plugin(isolation='process'), which replaces a child instead"
    )


def _after_fork_in_child() -> None:
    """Only the forking thread exists now: every lock may be held by a thread that does not."""
    global _shared_lock, _template_lock, _retire_state
    _shared_lock = threading.Lock()
    _template_lock = threading.Lock()
    _retire_state = threading.Condition()
    # No copy inherited from the parent may run again here: a thread that
    # no longer exists may hold its locks. Each stays mapped, untouched.
    for library in list(_live):
        library.abandon()
    _retiring.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)
