"""The default Plugin: the one ``llvmplug.compile`` and its siblings share, loaded on first use.

Its own module, so that what needs it (``fingerprint``, ``system_library``)
imports it from here rather than from the package root.
"""

from __future__ import annotations

import os
import threading

from .plugin import Plugin

_plugin: Plugin | None = None
_lock = threading.Lock()


def default_plugin() -> Plugin:
    """The shared Plugin behind :func:`llvmplug.compile`, loaded on first use."""
    global _plugin
    with _lock:
        if _plugin is None:
            _plugin = Plugin()
        return _plugin


def current() -> Plugin | None:
    """The default Plugin if it exists yet (nothing is loaded), else None."""
    return _plugin


def _after_fork_in_child() -> None:
    # The forking thread is the only one left; the lock may be held by another.
    global _lock
    _lock = threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)
