"""A compile cache: in memory, optionally on disk, keyed by :func:`fingerprint`.

The key must cover everything that changes a compile's output, or a hit can
return code built for another CPU or with other options (Numba shipped a
cache bug of exactly that kind). :func:`fingerprint` therefore hashes every
argument as given (no normalisation but what the shim provably sees as the
same input), the Plugin's sticky options and option policy, what the host
CPU, features and triples (only when the output may depend on them), the
shim's build id (fixed when it was built; it covers LLVM's version), and a
format version bumped whenever the key's recipe changes.

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
import sys
import threading
import time
import warnings
import weakref
from collections import OrderedDict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Union

from . import _args, _loader, _log, errors

# Bump when anything in the key's recipe or the entry layout changes: old
# entries then miss instead of being misread.
FORMAT_VERSION = 2

DEFAULT_MAX_BYTES = 256 * 1024 * 1024

_Module = Union[str, bytes, bytearray, memoryview]

# -- fingerprint ----------------------------------------------------------


# hashlib, json and tempfile are imported where they are used, not with the
# package: a process that compiles without a cache does not pay for them
# (about 4 ms of a fresh process's start, issue 27).


def _digest(data: bytes) -> str:
    import hashlib

    return hashlib.sha256(data).hexdigest()


# What a loaded copy reports about its host (CPU and features) cannot change
# while it stays loaded, and info() costs ~0.2 ms: remember it per Plugin.
_host_facts: weakref.WeakKeyDictionary[Any, str] = weakref.WeakKeyDictionary()
_host_facts_lock = threading.Lock()

_HOST_KEYS = ("host_triple", "process_triple", "host_cpu", "host_features")

# Where LLVM's default triple is fixed when LLVM is built (and so is part of
# the build id); elsewhere (Darwin, AIX) LLVM puts the running system's
# version into it, so a compile for the default triple keys on the host too.
_FIXED_DEFAULT_TRIPLE = sys.platform.startswith(("linux", "win32", "cygwin", "freebsd"))


def _explicit_triple(target: Any, flags: Any) -> bool:
    if target:
        return True
    tokens = [flags] if isinstance(flags, str) else list(flags)
    return any("-mtriple" in token or "-march" in token for token in tokens if isinstance(token, str))


def _needs_host(request: _args.Request, sticky: Sequence[str]) -> bool:
    """Whether the output may depend on the machine, not only on the build and the arguments.

    ``native`` anywhere (``-mcpu=native``, a module's ``"target-cpu"="native"``,
    a sticky option) resolves to the host's CPU and features; a search of the
    raw text errs only towards keying on the host (a miss, never a wrong hit).
    Without an explicit triple the default one is used, which is the host's
    only where LLVM computes it at run time.
    """
    flags = request.flags
    texts = [flags] if isinstance(flags, str) else list(flags)
    if any("native" in text.lower() for text in [*texts, *sticky] if isinstance(text, str)):
        return True
    if any(b"native" in data for data in request.modules):
        return True
    return not _FIXED_DEFAULT_TRIPLE and not _explicit_triple(request.target, flags)


def _build_of(plugin: Any) -> str:
    """The build id of what ``plugin`` runs (llvmplug_build_id), without hashing or loading anything.

    In process: the id every copy of its file loaded in this process reported
    (each load was checked against the id installed beside the file). A
    Plugin whose child loads the file (process isolation): the id beside the
    file as it is now, which the child's load checks in turn.
    """
    path = Path(plugin.path)
    build = _loader.loaded_build_id(path) if plugin.isolation == "none" else _loader.build_id_beside(path)
    if build is None:
        raise errors.LibraryLoadError(
            f"the build of {path} cannot be identified (a shim older than ABI 2.1 has no build id, or the "
            "file was replaced by another build while this process had it loaded); its compiles are not cached"
        )
    return build


def _identity(build: str, plugin: Any, host: bool) -> str:
    """The build id, plus the host's CPU, features and triples when the output may depend on them."""
    import json

    facts: dict[str, Any] = {"build": build}
    if host:
        with _host_facts_lock:
            known = _host_facts.get(plugin)
        if known is None:
            info = plugin.info()
            known = json.dumps({name: info.get(name) for name in _HOST_KEYS}, sort_keys=True)
            with _host_facts_lock:
                _host_facts[plugin] = known
        facts["host"] = known
    return _digest(json.dumps(facts, sort_keys=True).encode())


def _options_state(plugin: Any) -> tuple[tuple[str, ...], str]:
    return tuple(plugin.sticky_options), str(plugin.options_policy)


def fingerprint(
    module: _Module,
    target: str | None = None,
    flags: str | Sequence[str] = (),
    *,
    output: str = "obj",
    link: Sequence[_Module] = (),
    parts: int | None = None,
    plugin: Any = None,
) -> str:
    """A hex digest of everything that determines the output of a compile.

    Equal fingerprints mean equal outputs of ``plugin.compile`` with these
    arguments; any change to the module, target, flags (as given, so
    ``"-O2 -g"`` and ``["-O2", "-g"]`` differ), output, linked modules (in
    order), parts, the Plugin's sticky options or option policy, the shim's
    build (its build id, which covers LLVM's version) gives another
    fingerprint, and so do the host's CPU, features and triples when the
    output can depend on them (``native`` anywhere in the flags, sticky
    options or modules; the default triple where LLVM computes it at run
    time). Use it to key a cache of your own.

    Args:
        plugin: the Plugin that will compile; ``None`` means the default
            Plugin of :func:`llvmplug.compile` (loaded if need be).

    Raises:
        ArgumentError, ArgumentTypeError: an argument of the wrong type.
        LibraryLoadError: the build the Plugin runs cannot be identified (a
            shim without a build id, or its file replaced by another build
            while this process had it loaded).
    """
    request = _args.Request.make(module, target, flags, output=output, link=link, split=parts is not None, parts=parts)
    if plugin is None:
        from . import default_plugin

        plugin = default_plugin()
    sticky, policy = _options_state(plugin)
    identity = _identity(_build_of(plugin), plugin, _needs_host(request, sticky))
    return _key(request, sticky, policy, identity)


def _key(request: _args.Request, sticky: tuple[str, ...], policy: str, identity: str) -> str:
    flags = request.flags
    # Modules enter as their own digests so that the JSON stays small and no
    # byte string can be mistaken for a field separator. Flags are kept as
    # given: a string and a list that tokenise alike still get different
    # keys (a miss, never a wrong hit).
    recipe = {
        "format": FORMAT_VERSION,
        "module": _digest(request.module),
        "target": request.target,
        "flags": ["str", flags] if isinstance(flags, str) else ["seq", list(flags)],
        "output": request.output,
        "link": [_digest(item) for item in request.link],
        "parts": request.parts or None,
        "sticky": list(sticky),
        "policy": policy,
        "plugin": identity,
    }
    import json

    return _digest(json.dumps(recipe, sort_keys=True).encode())


# -- the cache -------------------------------------------------------------


class CacheStats(_args.Record):
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


# -- integration with compile ------------------------------------------------

_PARTS_MAGIC = b"LLVMPLUGPARTS\0"


def _encode_parts(result: Sequence[bytes]) -> bytes:
    # Split output (a list of objects) stored as one value: a count, the
    # sizes, then the parts.
    sizes = struct.pack(f"<I{len(result)}Q", len(result), *(len(part) for part in result))
    return _PARTS_MAGIC + sizes + b"".join(result)


def _decode_parts(value: bytes) -> list[bytes] | None:
    """The parts _encode_parts stored, or None if ``value`` is not exactly such a record.

    Values come from the caller's keys too (Cache.put) and from disk, so
    every count and size is checked against the bytes there are before it
    is used (a damaged record once raised struct.error).
    """
    offset = len(_PARTS_MAGIC) + 4
    if not value.startswith(_PARTS_MAGIC) or len(value) < offset:
        return None
    (count,) = struct.unpack_from("<I", value, offset - 4)
    if count > (len(value) - offset) // 8:
        return None
    sizes = struct.unpack_from(f"<{count}Q", value, offset)
    offset += 8 * count
    if sum(sizes) != len(value) - offset:
        return None
    parts = []
    for size in sizes:
        parts.append(value[offset : offset + size])
        offset += size
    return parts


class _PluginCache:
    """The default of ``compile(cache=...)``: use the Plugin's own cache."""

    def __repr__(self) -> str:
        return "<the Plugin's cache>"


PLUGIN_CACHE: Any = _PluginCache()


def lookup_unloaded(cache: Cache, request: _args.Request) -> tuple[bytes | None, str | None]:
    """``llvmplug.compile``'s cache lookup before its default Plugin exists: nothing is loaded.

    The default Plugin would run the package's shim, with no sticky option
    and the safe policy, so the key needs only the build id installed beside
    the shim (each load checks the library against it), unless the output may
    depend on the host (:func:`_needs_host`: then the host's facts come from
    the loaded copy). Returns (the value or None, the key looked up or None).
    """
    if _needs_host(request, ()):
        return None, None
    build = _loader.build_id_beside(_loader.library_path())
    if build is None:
        return None, None
    key = _key(request, (), "safe", _identity(build, None, False))
    return cache.get(key), key


def check_cache(cache: Any) -> Cache | None:
    """``cache`` if it is a :class:`Cache` or ``None``; else ArgumentTypeError."""
    if cache is not None and not isinstance(cache, Cache):
        raise errors.ArgumentTypeError(f"cache must be an llvmplug.Cache or None, not {type(cache).__name__}")
    return cache


def cached(
    cache: Cache | None,
    plugin: Any,
    compile_fn: Callable[[], Any],
    request: _args.Request | _Module,
    target: str | None = None,
    flags: Any = (),
    output: str = "obj",
    link: Sequence[_Module] = (),
    parts: int | None = None,
    missed: str | None = None,
) -> Any:
    """``compile_fn()``'s result through ``cache``: the one hook ``compile`` needs.

    ``compile_fn`` compiles exactly ``request`` on ``plugin`` (a module with
    the other arguments is made into one). ``missed``: a key
    :func:`lookup_unloaded` just looked up in vain (not looked up again, so
    that the miss counts once). Errors propagate and are never cached. The
    result is stored only if the Plugin's options were the same after the
    compile as before it (another thread may change them in between; such a
    result is returned but not stored). LLVM's warnings come with the compile
    that made an entry, not with later hits.
    """
    if cache is None:
        return compile_fn()
    if not isinstance(request, _args.Request):
        request = _args.Request.make(
            request, target, flags, output=output, link=link, split=parts is not None, parts=parts
        )
    state = _options_state(plugin)
    try:
        build = _build_of(plugin)
    except errors.LibraryLoadError:
        # What runs cannot be identified: it is neither looked up nor
        # stored. The compile itself is unaffected.
        return compile_fn()
    identity = _identity(build, plugin, _needs_host(request, state[0]))
    key = _key(request, state[0], state[1], identity)
    value = cache.get(key) if key != missed else None
    if value is not None and not request.parts:
        return value
    if value is not None:
        split = _decode_parts(value)
        if split is not None:
            return split
        # Not a parts record under a parts key: compiled again and replaced.
    result = compile_fn()
    if _options_state(plugin) == state:
        stored = result if isinstance(result, bytes) else _encode_parts(result)
        cache.put(key, stored)
    return result
