"""The store of a compile cache: in memory, optionally on disk; its keys come from ``_fingerprint``.

On disk an entry is one file written to a temporary name and renamed into
place (``os.replace``, atomic on POSIX and Windows), holding its key and a
SHA-256 over key and value. A reader verifies both, so a torn, truncated or
corrupted file is a miss (and is removed), never a wrong result; no lock is
needed for several processes to share one directory.

The SHA-256 detects damage, not tampering, so on POSIX a directory others
could write to is refused (``ArgumentError``), as ssh and pip refuse such
files: the directory must be this user's and not group- or world-writable,
and so must each directory above it, except that one owned by root may be
writable by all if it is sticky (``/tmp``), since then nobody else can
rename what this user made in it. Missing directories are made ``0700``. An
entry file that is not this user's (planted before the directory was made
private) is a miss and is removed. Windows ACLs are not checked.
"""

from __future__ import annotations

import os
import stat
import struct
import threading
import time
import warnings
from collections import OrderedDict
from pathlib import Path

from . import _log, errors
from ._record import Record

TYPE_CHECKING = False  # typing only for type checkers: its import slows a fresh process (issue 27)
if TYPE_CHECKING:
    from typing import Any

# Bump when anything in the key's recipe (_fingerprint) or the entry layout
# changes: old entries then miss instead of being misread.
FORMAT_VERSION = 2

DEFAULT_MAX_BYTES = 256 * 1024 * 1024


class CacheStats(Record):
    """Counters of one :class:`Cache` object (this process only).

    Attributes:
        hits: lookups answered, from memory or disk.
        disk_hits: of those, answered from disk.
        misses: lookups not answered (including corrupt entries).
        corrupt: disk entries found damaged and removed.
        bytes: bytes held in memory.
        entries: entries held in memory.
    """

    __slots__ = ("hits", "disk_hits", "misses", "corrupt", "bytes", "entries")
    hits: int
    disk_hits: int
    misses: int
    corrupt: int
    bytes: int
    entries: int


_MAGIC = b"LLVMPLUGC"
# magic, format version, key length, value length, SHA-256 of key + value.
_HEADER = struct.Struct(f"<{len(_MAGIC)}sHIQ32s")
_SUFFIX = ".entry"
_TEMP_PREFIX = ".tmp-"
_STALE_TEMP_SECONDS = 3600.0  # a temporary file this old belongs to a dead writer
_RESCAN_EVERY = 32  # puts between rescans of a shared directory


def _entry_digest(key: bytes, value: bytes) -> bytes:
    import hashlib

    hasher = hashlib.sha256(key)
    hasher.update(value)
    return hasher.digest()


class Cache:
    """Compiled outputs by key: an LRU in memory, optionally also on disk.

    ``Cache()`` keeps up to ``max_bytes`` of values in memory, evicting the
    least recently used. ``Cache(directory)`` also keeps them on disk (up to
    ``max_bytes`` there too, evicting the least recently used by mtime), where
    several processes may share the directory: writes are atomic, reads
    verify a SHA-256, a damaged entry is a miss and is removed. The bound on
    disk is checked by each process against its own count of what it wrote
    plus a rescan every few writes, so other processes' writes can overshoot
    it briefly until the next rescan. The SHA-256 detects damage, not
    tampering: anyone who can write to the directory can plant an entry, so
    on POSIX a directory other users could write to is refused
    (``ArgumentError``; the module's docstring says what counts), and
    directories it makes are ``0700``. Share it only among your own
    processes.

    Thread-safe. Pass it as ``llvmplug.compile(..., cache=c)`` or
    ``Plugin(cache=c)``; :meth:`get` and :meth:`put` serve any keys, e.g. from
    :func:`llvmplug.fingerprint`. A pickled Cache (to ship to a Dask worker,
    say) arrives empty in memory but with the same directory.
    """

    def __init__(self, directory: str | os.PathLike[str] | None = None, max_bytes: int = DEFAULT_MAX_BYTES) -> None:
        if isinstance(max_bytes, bool) or not isinstance(max_bytes, int):
            raise errors.ArgumentTypeError(f"max_bytes must be an int, not {type(max_bytes).__name__}")
        if max_bytes <= 0:
            raise errors.ArgumentError(f"max_bytes must be positive, not {max_bytes}")
        self._directory: Path | None = None
        if directory is not None:
            if not isinstance(directory, (str, os.PathLike)):
                raise errors.ArgumentTypeError(
                    f"directory must be a path (str or os.PathLike) or None, not {type(directory).__name__}"
                )
            text = os.fspath(directory)
            if not isinstance(text, str):
                raise errors.ArgumentTypeError(f"directory must be a str path, not {type(text).__name__}")
            if not text:
                raise errors.ArgumentError("directory is empty (use None for a cache in memory only)")
            if "\0" in text:
                raise errors.ArgumentError("directory contains a NUL character")
            path = Path(text)
            try:
                if path.exists() and not path.is_dir():
                    raise errors.ArgumentError(f"directory {path} exists and is not a directory")
                _make_private(path)
                self._directory = path.resolve()
            except OSError as error:
                raise errors.ArgumentError(f"cannot create the cache directory {path}: {error}") from error
            unsafe = _others_can_write(self._directory)
            if unsafe:
                raise errors.ArgumentError(
                    f"the cache directory {self._directory} is refused: {unsafe}, so others could plant "
                    "compiled code that the cache would return. Use a directory only you can write to "
                    "(chmod go-w), or a new one inside a shared directory such as /tmp (Cache makes it 0700)"
                )
        self._max_bytes = max_bytes
        self._lock = threading.Lock()
        self._memory: OrderedDict[str, bytes] = OrderedDict()
        self._bytes = 0
        self._hits = self._disk_hits = self._misses = self._corrupt = 0
        self._disk_estimate: int | None = None  # bytes on disk as of the last scan plus our writes
        self._puts_since_scan = 0
        self._warned = False

    def __reduce__(self) -> tuple[Any, ...]:
        return (Cache, (self._directory, self._max_bytes))

    @property
    def directory(self) -> Path | None:
        """The directory of the disk tier, or ``None`` for memory only."""
        return self._directory

    @property
    def max_bytes(self) -> int:
        """The bound on bytes held, in memory and (separately) on disk."""
        return self._max_bytes

    @property
    def stats(self) -> CacheStats:
        """Hits, misses and bytes of this Cache object since it was made or cleared."""
        with self._lock:
            return CacheStats(self._hits, self._disk_hits, self._misses, self._corrupt, self._bytes, len(self._memory))

    def __repr__(self) -> str:
        where = f"directory={str(self._directory)!r}, " if self._directory else ""
        return f"<llvmplug.Cache {where}max_bytes={self._max_bytes}>"

    @staticmethod
    def _check_key(key: Any) -> bytes:
        if not isinstance(key, str):
            raise errors.ArgumentTypeError(f"key must be a str, not {type(key).__name__}")
        if not key:
            raise errors.ArgumentError("key is empty")
        try:
            return key.encode("utf-8")
        except UnicodeEncodeError as error:
            raise errors.ArgumentError(f"key cannot be encoded as UTF-8: {error.reason}") from None

    def _entry_path(self, raw_key: bytes) -> Path:
        assert self._directory is not None
        import hashlib

        name = hashlib.sha256(raw_key).hexdigest()
        return self._directory / name[:2] / (name + _SUFFIX)

    # -- memory tier --------------------------------------------------------

    def _remember(self, key: str, value: bytes) -> None:
        # Called with self._lock held.
        old = self._memory.pop(key, None)
        if old is not None:
            self._bytes -= len(old)
        if len(value) > self._max_bytes:
            return
        self._memory[key] = value
        self._bytes += len(value)
        while self._bytes > self._max_bytes:
            _, evicted = self._memory.popitem(last=False)
            self._bytes -= len(evicted)

    # -- public API ---------------------------------------------------------

    def get(self, key: str) -> bytes | None:
        """The value stored under ``key``, or ``None``."""
        raw_key = self._check_key(key)
        with self._lock:
            value = self._memory.get(key)
            if value is not None:
                self._memory.move_to_end(key)
                self._hits += 1
                return value
        value = self._read(raw_key) if self._directory is not None else None
        with self._lock:
            if value is None:
                self._misses += 1
                return None
            self._hits += 1
            self._disk_hits += 1
            self._remember(key, value)
        return value

    def put(self, key: str, value: bytes | bytearray | memoryview) -> None:
        """Store ``value`` under ``key`` (in memory, and on disk if there is a directory).

        A value larger than ``max_bytes`` is not stored. A failure to write
        to disk (full, read-only) is a warning, not an error: the cache only
        ever saves work.
        """
        raw_key = self._check_key(key)
        if not isinstance(value, (bytes, bytearray, memoryview)):
            raise errors.ArgumentTypeError(f"value must be bytes, not {type(value).__name__}")
        value = bytes(value)
        with self._lock:
            self._remember(key, value)
        if self._directory is not None and len(value) <= self._max_bytes:
            self._write(raw_key, value)

    def clear(self) -> None:
        """Drop every entry, in memory and on disk, and reset the counters."""
        with self._lock:
            self._memory.clear()
            self._bytes = 0
            self._hits = self._disk_hits = self._misses = self._corrupt = 0
        if self._directory is not None:
            # Temporary files are left to their writers (a live one renames
            # its file within moments; a dead one's is swept as stale).
            for path, _, _ in self._scan():
                _unlink(path)
            with self._lock:
                self._disk_estimate = 0

    def __len__(self) -> int:
        """How many keys the cache can answer (memory and disk together)."""
        with self._lock:
            names = {self._entry_path(key.encode()).name for key in self._memory} if self._directory else None
            count = len(self._memory)
        if names is None:
            return count
        return len(names | {path.name for path, _, _ in self._scan()})

    # -- disk tier ----------------------------------------------------------

    def _read(self, raw_key: bytes) -> bytes | None:
        path = self._entry_path(raw_key)
        try:
            with open(path, "rb") as file:
                status = os.fstat(file.fileno())
                # An entry can never exceed this: a larger file is damage,
                # and is not read into memory. One that is not ours was
                # planted (before the directory was made private): not read.
                if status.st_size > _HEADER.size + len(raw_key) + self._max_bytes or not _ours(status):
                    data = b""
                else:
                    data = file.read()
        except OSError:  # absent, or removed by another process meanwhile
            return None
        value = _decode_entry(raw_key, data)
        if value is None:
            # Never a wrong result: a damaged entry is dropped and recompiled.
            _unlink(path)
            with self._lock:
                self._corrupt += 1
            return None
        try:
            os.utime(path)  # recency for eviction; atime is unreliable (noatime)
        except OSError:
            pass
        return value

    def _write(self, raw_key: bytes, value: bytes) -> None:
        path = self._entry_path(raw_key)
        header = _HEADER.pack(_MAGIC, FORMAT_VERSION, len(raw_key), len(value), _entry_digest(raw_key, value))
        temp = None
        try:
            path.parent.mkdir(mode=0o700, exist_ok=True)
            if not _ours(os.lstat(path.parent)):
                # A shard someone else made (before the directory was private)
                # would let them replace what we write: not written to.
                raise PermissionError(f"{path.parent} is not private to this user")
            # The temporary file lives in the entry's own directory: os.replace
            # is atomic only within one file system.
            import tempfile

            fd, temp = tempfile.mkstemp(prefix=_TEMP_PREFIX, dir=path.parent)
            with os.fdopen(fd, "wb") as file:
                file.write(header)
                file.write(raw_key)
                file.write(value)
            os.replace(temp, path)
            temp = None
        except OSError as error:
            # Every failure reaches the log (an operator sees a disk fill up
            # or a mount turn read-only later on); the warning comes once.
            _log.warning("llvmplug.Cache cannot write to %s: %s", self._directory, error)
            if not self._warned:
                self._warned = True
                warnings.warn(
                    f"llvmplug.Cache cannot write to {self._directory}: {error}", errors.LLVMPlugWarning, stacklevel=3
                )
            return
        finally:
            if temp is not None:
                _unlink(Path(temp))
        size = _HEADER.size + len(raw_key) + len(value)
        with self._lock:
            self._puts_since_scan += 1
            if self._disk_estimate is not None:
                self._disk_estimate += size
            rescan = (
                self._disk_estimate is None
                or self._disk_estimate > self._max_bytes
                or self._puts_since_scan >= _RESCAN_EVERY
            )
        if rescan:
            self._trim()

    def _scan(self) -> list[tuple[Path, int, float]]:
        """(path, size, mtime) of every entry file; tolerant of files vanishing meanwhile."""
        assert self._directory is not None
        found = []
        try:
            shards = [entry for entry in os.scandir(self._directory) if entry.is_dir() and len(entry.name) == 2]
        except OSError:
            return []
        now = time.time()
        for shard in shards:
            try:
                entries = list(os.scandir(shard.path))
            except OSError:
                continue
            for entry in entries:
                is_temp = entry.name.startswith(_TEMP_PREFIX)
                if not (entry.name.endswith(_SUFFIX) or is_temp):
                    continue
                try:
                    status = entry.stat()
                except OSError:
                    continue
                if is_temp:
                    # A live writer's temporary file is renamed within
                    # moments; one left by a killed writer is old.
                    if now - status.st_mtime > _STALE_TEMP_SECONDS:
                        _unlink(Path(entry.path))
                    continue
                found.append((Path(entry.path), status.st_size, status.st_mtime))
        return found

    def _trim(self) -> None:
        """Evict the least recently used entries until the directory is within the bound."""
        entries = self._scan()
        total = sum(size for _, size, _ in entries)
        if total > self._max_bytes:
            # Down to 90 %, so that a full cache does not rescan on every put.
            goal = self._max_bytes * 9 // 10
            for path, size, _ in sorted(entries, key=lambda entry: entry[2]):
                if total <= goal:
                    break
                _unlink(path)  # another process may have removed it first: same result
                total -= size
        with self._lock:
            self._disk_estimate = total
            self._puts_since_scan = 0


def _decode_entry(raw_key: bytes, data: bytes) -> bytes | None:
    if len(data) < _HEADER.size:
        return None
    magic, version, key_size, value_size, digest = _HEADER.unpack_from(data)
    if magic != _MAGIC or version != FORMAT_VERSION or len(data) != _HEADER.size + key_size + value_size:
        return None
    key = data[_HEADER.size : _HEADER.size + key_size]
    value = data[_HEADER.size + key_size :]
    if key != raw_key or _entry_digest(key, value) != digest:
        return None
    return value


# -- who can write where (POSIX) ----------------------------------------------


def _ours(status: os.stat_result) -> bool:
    """Whether a file or directory is this user's and not writable by group or others (always, on Windows)."""
    if os.name == "nt":
        return True
    return status.st_uid == os.geteuid() and not status.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def _make_private(path: Path) -> None:
    """Make ``path`` and its missing parents, each 0700 (pathlib would give the parents the umask's mode)."""
    missing = []
    while not path.exists():
        missing.append(path)
        if path.parent == path:
            break
        path = path.parent
    for directory in reversed(missing):
        try:
            directory.mkdir(mode=0o700)
        except FileExistsError:
            pass  # made meanwhile by another process: checked like any other


def _others_can_write(directory: Path) -> str | None:
    """Why users other than this one (and root) could plant files in ``directory``, or None.

    ``directory`` is resolved (no symlinks). It must be ours and not group- or
    world-writable; each directory above it must be ours or root's, and not
    group- or world-writable unless it is sticky (``/tmp``: others may not
    rename or remove what is not theirs, so what we made in it stays ours).
    """
    if os.name == "nt":
        return None
    me = os.geteuid()
    status = os.stat(directory)
    if status.st_uid != me:
        return f"it belongs to user id {status.st_uid}, not to this user ({me})"
    if status.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return f"it is writable by {_who(status.st_mode)} (mode {stat.S_IMODE(status.st_mode):04o})"
    for parent in directory.parents:
        status = os.stat(parent)
        if status.st_uid not in (me, 0):
            return f"{parent} above it belongs to user id {status.st_uid}"
        if status.st_mode & (stat.S_IWGRP | stat.S_IWOTH) and not status.st_mode & stat.S_ISVTX:
            return (
                f"{parent} above it is writable by {_who(status.st_mode)} without the sticky bit "
                f"(mode {stat.S_IMODE(status.st_mode):04o})"
            )
    return None


def _who(mode: int) -> str:
    return (
        "its group and others"
        if mode & stat.S_IWGRP and mode & stat.S_IWOTH
        else ("its group" if mode & stat.S_IWGRP else "others")
    )


def _unlink(path: Path) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


# -- the arguments that name a cache ----------------------------------------


class _PluginCache:
    """The default of ``compile(cache=...)``: use the Plugin's own cache."""

    def __repr__(self) -> str:
        return "<the Plugin's cache>"


PLUGIN_CACHE: Any = _PluginCache()


def check_cache(cache: Any) -> Cache | None:
    """``cache`` if it is a :class:`Cache` or ``None``; else ArgumentTypeError."""
    if cache is not None and not isinstance(cache, Cache):
        raise errors.ArgumentTypeError(f"cache must be an llvmplug.Cache or None, not {type(cache).__name__}")
    return cache
