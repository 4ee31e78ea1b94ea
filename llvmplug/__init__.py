"""llvmplug: LLVM as a compiler library, without LLVM's global state.

The shim links LLVM statically with every LLVM and C++ runtime symbol hidden,
so it loads next to any other LLVM in the process; options apply per call;
and a :class:`Plugin` can be reloaded to reset LLVM or loaded privately to run
independent LLVMs side by side.

    >>> import llvmplug
    >>> obj = llvmplug.compile(ir_text, flags="-O3 -mcpu=native")
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from . import _args, _cached, _default
from . import timings as _timings
from ._args import Flags, Module
from ._default import default_plugin
from ._store import PLUGIN_CACHE as _PLUGIN_CACHE
from ._store import Cache, CacheStats
from ._version import __version__ as __version__  # the package's, not in __all__
from .cache import fingerprint
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
from .plugin import Plugin
from .progress import Progress, ProgressBar
from .timings import Timings

TYPE_CHECKING = False  # typing only for type checkers: its import slows a fresh process (issue 27)
if TYPE_CHECKING:
    from typing import Any

    from .gpu import libdevice, libdevice_path
    from .pool import Pool
    from .syslib import system_library


__all__ = [
    "libdevice",
    "libdevice_path",
    "system_library",
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
    "Progress",
    "ProgressBar",
    "Timings",
    "PluginUnloadedError",
    "TargetError",
    "VerifyError",
    "WorkerCrashedError",
    "compile",
    "compile_modules",
    "compile_parts",
    "default_plugin",
    "fingerprint",
    "info",
    "reset",
    "target_info",
]

# Imported on first use (PEP 562), so that `import llvmplug` does not pay for
# concurrent.futures and the rest when a process only compiles (a command line,
# a build system's compile per process).
_LAZY = {"Pool": "pool", "libdevice": "gpu", "libdevice_path": "gpu", "system_library": "syslib"}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'llvmplug' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


def compile(  # noqa: A001 - the natural name; shadows the builtin only as llvmplug.compile
    module: Module,
    target: str | None = None,
    flags: Flags = (),
    *,
    output: str = "obj",
    link: Sequence[Module] = (),
    timeout: float | None = None,
    cache: Cache | None = _PLUGIN_CACHE,
    timings: Timings | None = None,
    progress: bool | Callable[[Progress], None] | None = None,
) -> bytes:
    """Compile LLVM IR with the default Plugin. See :meth:`Plugin.compile`.

    The default Plugin runs in this process, so ``timeout`` is an
    :class:`ArgumentError` here: use ``Plugin(isolation="process")``. With a
    ``cache``, a hit before the default Plugin exists loads nothing (unless
    the output may depend on the host, e.g. ``-mcpu=native``): a build system
    or a command line that runs one compile per process pays for LLVM only on
    a miss.
    """
    if _default.current() is None and isinstance(cache, Cache):
        request = _args.Request.make(module, target, flags, output=output, link=link, cache=cache, timeout=timeout)
        value, missed = _cached.lookup_unloaded(cache, request)
        if value is not None:
            checked = _timings.check(timings)
            if checked is not None:
                checked._fill_cached()  # noqa: SLF001 - the package's own
            return value
        return default_plugin()._run(
            request,
            missed=missed,
            timings=_timings.check(timings),  # noqa: SLF001
            progress=progress,
        )[0]
    return default_plugin().compile(
        module,
        target,
        flags,
        output=output,
        link=link,
        timeout=timeout,
        cache=cache,
        timings=timings,
        progress=progress,
    )


def compile_parts(
    module: Module,
    target: str | None = None,
    flags: Flags = (),
    *,
    parts: int | None = None,
    output: str = "obj",
    link: Sequence[Module] = (),
    timeout: float | None = None,
    cache: Cache | None = _PLUGIN_CACHE,
    timings: Timings | None = None,
    progress: bool | Callable[[Progress], None] | None = None,
) -> list[bytes]:
    """Split code generation with the default Plugin. See :meth:`Plugin.compile_parts`."""
    return default_plugin().compile_parts(
        module,
        target,
        flags,
        parts=parts,
        output=output,
        link=link,
        timeout=timeout,
        cache=cache,
        timings=timings,
        progress=progress,
    )


def compile_modules(
    modules: Sequence[Module],
    target: str | None = None,
    flags: Flags = (),
    *,
    output: str = "obj",
    link: Sequence[Module] = (),
    threads: int | None = None,
    timings: Timings | None = None,
    progress: bool | Callable[[Progress], None] | None = None,
) -> list[bytes]:
    """Several modules optimised and generated together with the default Plugin.
    See :meth:`Plugin.compile_modules`."""
    return default_plugin().compile_modules(
        modules, target, flags, output=output, link=link, threads=threads, timings=timings, progress=progress
    )


def info() -> dict[str, Any]:
    """LLVM version, ABI version, build id, host triple/CPU/features, registered targets and limits."""
    return default_plugin().info()


def target_info(triple: str | None = None) -> dict[str, Any]:
    """One target's normalised triple, CPUs and features (``None``: the host). See :meth:`Plugin.target_info`."""
    return default_plugin().target_info(triple)


def reset() -> None:
    """Reload the default Plugin: every LLVM option returns to its default."""
    default_plugin().reload()
