"""The key of a compile cache: a digest of everything that changes a compile's output.

The key must cover everything that changes a compile's output, or a hit can
return code built for another CPU or with other options (Numba shipped a
cache bug of exactly that kind). :func:`key` therefore hashes every argument
as given (no normalisation but what the shim provably sees as the same
input), the Plugin's sticky options and option policy, the host's CPU,
features and triples (only when the output may depend on them), the shim's
build id (fixed when it was built; it covers LLVM's version), and a format
version bumped whenever the key's recipe changes (``_store.FORMAT_VERSION``,
which also versions the entries on disk).
"""

from __future__ import annotations

import sys
import threading
import weakref
from collections.abc import Sequence
from pathlib import Path

from . import _args, _loader, _store, errors

TYPE_CHECKING = False  # typing only for type checkers: its import slows a fresh process (issue 27)
if TYPE_CHECKING:
    from typing import Any

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


def _key(request: _args.Request, sticky: tuple[str, ...], policy: str, identity: str) -> str:
    flags = request.flags
    # Modules enter as their own digests so that the JSON stays small and no
    # byte string can be mistaken for a field separator. Flags are kept as
    # given: a string and a list that tokenise alike still get different
    # keys (a miss, never a wrong hit).
    recipe = {
        "format": _store.FORMAT_VERSION,  # read here, when the key is made
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


def key(request: _args.Request, plugin: Any) -> str:
    """The key of ``request`` compiled by ``plugin`` (see :func:`llvmplug.fingerprint`)."""
    sticky, policy = _options_state(plugin)
    identity = _identity(_build_of(plugin), plugin, _needs_host(request, sticky))
    return _key(request, sticky, policy, identity)
