"""A compile cache: in memory, optionally on disk, keyed by :func:`fingerprint`.

The store (``Cache``, and how entries live on disk) is ``_store``; the key
(what a fingerprint covers, and why) is ``_fingerprint``; a compile's way
through a cache is ``_cached``. This module is their public face: what it
offered before the split, it offers still.
"""

from __future__ import annotations

from collections.abc import Sequence

from . import _args, _default, _fingerprint
from ._cached import cached, lookup_unloaded
from ._store import DEFAULT_MAX_BYTES, FORMAT_VERSION, PLUGIN_CACHE, Cache, CacheStats, check_cache

TYPE_CHECKING = False  # typing only for type checkers: its import slows a fresh process (issue 27)
if TYPE_CHECKING:
    from typing import Any, Union

    _Module = Union[str, bytes, bytearray, memoryview]

__all__ = [
    "DEFAULT_MAX_BYTES",
    "FORMAT_VERSION",
    "PLUGIN_CACHE",
    "Cache",
    "CacheStats",
    "cached",
    "check_cache",
    "fingerprint",
    "lookup_unloaded",
]


# Pickled (a Cache shipped to a Dask worker) and shown by help() under the
# public module's name, as before the split.
Cache.__module__ = CacheStats.__module__ = __name__


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
        plugin = _default.default_plugin()
    return _fingerprint.key(request, plugin)
