"""A compile's way through a cache: the one hook ``Plugin`` and ``llvmplug.compile`` call."""

from __future__ import annotations

import struct
from collections.abc import Callable, Sequence

from . import _args, _fingerprint, _loader, errors
from ._store import Cache

TYPE_CHECKING = False  # typing only for type checkers: its import slows a fresh process (issue 27)
if TYPE_CHECKING:
    from typing import Any, Union

    _Module = Union[str, bytes, bytearray, memoryview]


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


def lookup_unloaded(cache: Cache, request: _args.Request) -> tuple[bytes | None, str | None]:
    """``llvmplug.compile``'s cache lookup before its default Plugin exists: nothing is loaded.

    The default Plugin would run the package's shim, with no sticky option
    and the safe policy, so the key needs only the build id installed beside
    the shim (each load checks the library against it), unless the output may
    depend on the host (:func:`_fingerprint._needs_host`: then the host's facts come from
    the loaded copy). Returns (the value or None, the key looked up or None).
    """
    if _fingerprint._needs_host(request, ()):
        return None, None
    build = _loader.build_id_beside(_loader.library_path())
    if build is None:
        return None, None
    key = _fingerprint._key(request, (), "safe", _fingerprint._identity(build, None, False))
    return cache.get(key), key


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
    state = _fingerprint._options_state(plugin)
    try:
        build = _fingerprint._build_of(plugin)
    except errors.LibraryLoadError:
        # What runs cannot be identified: it is neither looked up nor
        # stored. The compile itself is unaffected.
        return compile_fn()
    identity = _fingerprint._identity(build, plugin, _fingerprint._needs_host(request, state[0]))
    key = _fingerprint._key(request, state[0], state[1], identity)
    value = cache.get(key) if key != missed else None
    if value is not None and not request.parts:
        return value
    if value is not None:
        split = _decode_parts(value)
        if split is not None:
            return split
        # Not a parts record under a parts key: compiled again and replaced.
    result = compile_fn()
    if _fingerprint._options_state(plugin) == state:
        stored = result if isinstance(result, bytes) else _encode_parts(result)
        cache.put(key, stored)
    return result
