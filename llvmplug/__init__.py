"""llvmplug: LLVM as a compiler library, without LLVM's global state.

The shim links LLVM statically with every LLVM and C++ runtime symbol hidden,
so it loads next to any other LLVM in the process; options apply per call;
and a :class:`Plugin` can be reloaded to reset LLVM or loaded privately to run
independent LLVMs side by side.

    >>> import llvmplug
    >>> obj = llvmplug.compile(ir_text, flags="-O3 -mcpu=native")
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

from .errors import (
    ArgumentError,
    ArgumentTypeError,
    CodegenError,
    CompileTimeoutError,
    FatalError,
    InternalError,
    LibraryLoadError,
    LimitError,
    LinkError,
    LLVMPlugError,
    LLVMPlugWarning,
    OptionError,
    ParseError,
    PluginUnloadedError,
    TargetError,
    VerifyError,
    WorkerCrashedError,
)
from .cache import PLUGIN_CACHE as _PLUGIN_CACHE  # cache-branch hook
from .cache import Cache, CacheStats, fingerprint  # cache-branch hook
from .plugin import Flags, Module, Plugin
from .pool import Pool

__version__ = "0.1.0"

__all__ = [
    "ArgumentError",
    "ArgumentTypeError",
    "Cache",
    "CacheStats",
    "CodegenError",
    "CompileTimeoutError",
    "FatalError",
    "Flags",
    "InternalError",
    "LLVMPlugError",
    "LLVMPlugWarning",
    "LibraryLoadError",
    "LimitError",
    "LinkError",
    "Module",
    "OptionError",
    "ParseError",
    "Plugin",
    "Pool",
    "PluginUnloadedError",
    "TargetError",
    "VerifyError",
    "WorkerCrashedError",
    "compile",
    "default_plugin",
    "fingerprint",
    "info",
    "reset",
]

_default: Plugin | None = None
_default_lock = threading.Lock()


def default_plugin() -> Plugin:
    """The shared Plugin behind :func:`compile`, loaded on first use."""
    global _default
    with _default_lock:
        if _default is None:
            _default = Plugin()
        return _default


def compile(  # noqa: A001 - the natural name; shadows the builtin only as llvmplug.compile
    module: Module,
    target: str | None = None,
    flags: Flags = (),
    *,
    output: str = "obj",
    link: Sequence[Module] = (),  # targets-branch hook
    cache: Any = _PLUGIN_CACHE,  # cache-branch hook
) -> bytes:
    """Compile LLVM IR with the default Plugin. See :meth:`Plugin.compile`."""
    return default_plugin().compile(module, target, flags, output=output, link=link, cache=cache)


def info() -> dict[str, Any]:
    """LLVM version, ABI version, host triple/CPU/features and registered targets."""
    return default_plugin().info()


def reset() -> None:
    """Reload the default Plugin: every LLVM option returns to its default."""
    default_plugin().reload()
