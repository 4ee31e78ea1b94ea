"""Pool: several independent LLVMs compiling in parallel.

Each worker is a :class:`Plugin`: a private in-process copy
(``isolation="none"``) or a child process (``isolation="process"``). Calls
that change options run alone in a copy, and a process Plugin serves one call
at a time, so independent copies are what lets any mix of calls run at once.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor

from . import _args, _store, errors
from . import timings as _timings
from ._args import Flags, Module
from ._store import Cache
from .plugin import Plugin
from .progress import Progress
from .timings import Timings

TYPE_CHECKING = False  # typing only for type checkers: its import slows a fresh process (issue 27)
if TYPE_CHECKING:
    from typing import Any


class Pool:
    """``size`` workers, each an independent LLVM; a ``concurrent.futures``-style front.

    Args:
        size: number of workers, hence of compiles that run at once.
        isolation: ``"none"``: each worker is a ``Plugin(private=True)`` in
            this process (cheap, but a crash in LLVM ends the process);
            ``"process"``: each worker is a ``Plugin(isolation="process")``
            (a crash or timeout costs one child, which is replaced).
        plugin_options: every other keyword of :class:`Plugin` (``policy``,
            ``reload_after_fatal``, ``memory_limit``, ``path``, ``standby``,
            ``private``, ``cache``), passed to every worker. In-process
            workers are always private copies.

    A call goes to whichever worker is free; workers share no LLVM state, so
    a result never depends on which worker served it. Use it as a context
    manager or call :meth:`close`.
    """

    def __init__(self, size: int, isolation: str = "none", **plugin_options: Any) -> None:
        if isinstance(size, bool) or not isinstance(size, int):
            raise errors.ArgumentTypeError(f"size must be an int, not {type(size).__name__}")
        if size < 1:
            raise errors.ArgumentError(f"size must be at least 1, not {size}")
        _args.choice(isolation, "isolation", _args.ISOLATIONS)
        if isolation == "none":
            if plugin_options.get("private", True) is not True:
                raise errors.ArgumentError("in-process Pool workers are private copies: private=False is not possible")
            plugin_options["private"] = True
        self._isolation = isolation
        self._idle: queue.SimpleQueue[Plugin] = queue.SimpleQueue()
        self._plugins: list[Plugin] = []
        self._closed = False
        self._lock = threading.Lock()
        try:
            for _ in range(size):
                plugin = Plugin(isolation=isolation, **plugin_options)
                self._plugins.append(plugin)
                self._idle.put(plugin)
        except BaseException:
            for plugin in self._plugins:
                plugin.unload()
            raise
        # As many threads as workers: a task that starts always finds a free worker.
        self._executor = ThreadPoolExecutor(max_workers=size, thread_name_prefix="llvmplug-pool")

    def _run(self, request: _args.Request, timings: Timings | None = None, progress: Any = None) -> bytes | list[bytes]:
        plugin = self._idle.get()
        try:
            result = plugin._run(request, timings=timings, progress=progress)  # noqa: SLF001 - checked once, in submit
        finally:
            self._idle.put(plugin)
        return result if request.parts else result[0]

    def _submit(self, request: _args.Request, timings: Timings | None = None, progress: Any = None) -> Future[Any]:
        timings = _timings.check(timings)
        with self._lock:
            if self._closed:
                raise errors.PluginUnloadedError("this Pool was closed")
            return self._executor.submit(self._run, request, timings, progress)

    def submit(
        self,
        module: Module,
        target: str | None = None,
        flags: Flags = (),
        *,
        output: str = "obj",
        link: Sequence[Module] = (),
        timeout: float | None = None,
        cache: Cache | None = _store.PLUGIN_CACHE,
        timings: Timings | None = None,
        progress: bool | Callable[[Progress], None] | None = None,
    ) -> Future[bytes]:
        """Queue a compile; the Future's result is :meth:`Plugin.compile`'s.

        The arguments are checked here, not in the future: a bad one is a
        misuse, raised at once. ``timeout`` needs ``isolation="process"`` (as
        for a Plugin).
        """
        request = _args.Request.make(
            module, target, flags, output=output, link=link, cache=cache, timeout=timeout, isolation=self._isolation
        )
        return self._submit(request, timings, progress)

    def submit_parts(
        self,
        module: Module,
        target: str | None = None,
        flags: Flags = (),
        *,
        parts: int | None = None,
        output: str = "obj",
        link: Sequence[Module] = (),
        timeout: float | None = None,
        cache: Cache | None = _store.PLUGIN_CACHE,
        timings: Timings | None = None,
        progress: bool | Callable[[Progress], None] | None = None,
    ) -> Future[list[bytes]]:
        """Queue a split compile; the Future's result is :meth:`Plugin.compile_parts`'s."""
        request = _args.Request.make(
            module,
            target,
            flags,
            output=output,
            link=link,
            split=True,
            parts=parts,
            cache=cache,
            timeout=timeout,
            isolation=self._isolation,
        )
        return self._submit(request, timings, progress)

    def compile(
        self,
        module: Module,
        target: str | None = None,
        flags: Flags = (),
        *,
        output: str = "obj",
        link: Sequence[Module] = (),
        timeout: float | None = None,
        cache: Cache | None = _store.PLUGIN_CACHE,
        timings: Timings | None = None,
        progress: bool | Callable[[Progress], None] | None = None,
    ) -> bytes:
        """Compile on a free worker and wait for the result. See :meth:`Plugin.compile`."""
        return self.submit(
            module,
            target,
            flags,
            output=output,
            link=link,
            timeout=timeout,
            cache=cache,
            timings=timings,
            progress=progress,
        ).result()

    def compile_parts(
        self,
        module: Module,
        target: str | None = None,
        flags: Flags = (),
        *,
        parts: int | None = None,
        output: str = "obj",
        link: Sequence[Module] = (),
        timeout: float | None = None,
        cache: Cache | None = _store.PLUGIN_CACHE,
        timings: Timings | None = None,
        progress: bool | Callable[[Progress], None] | None = None,
    ) -> list[bytes]:
        """Split code generation on a free worker. See :meth:`Plugin.compile_parts`."""
        return self.submit_parts(
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
        ).result()

    def map(
        self,
        modules: Iterable[Module],
        target: str | None = None,
        flags: Flags = (),
        *,
        output: str = "obj",
        link: Sequence[Module] = (),
        timeout: float | None = None,
        cache: Cache | None = _store.PLUGIN_CACHE,
    ) -> Iterator[bytes]:
        """Compile every module (all submitted at once); results in input order.

        The other arguments apply to every module (``link`` is linked into
        each). Like :meth:`concurrent.futures.Executor.map`, iterating
        raises the first failed compile's error when it reaches it; a bad
        argument is raised at once, before anything is submitted.
        """
        requests = [
            _args.Request.make(
                m, target, flags, output=output, link=link, cache=cache, timeout=timeout, isolation=self._isolation
            )
            for m in modules
        ]
        futures = [self._submit(request) for request in requests]

        def results() -> Iterator[bytes]:
            try:
                for future in futures:
                    yield future.result()
            finally:
                for future in futures:
                    future.cancel()

        return results()

    @property
    def size(self) -> int:
        """The number of workers."""
        return len(self._plugins)

    @property
    def isolation(self) -> str:
        """``"none"`` or ``"process"``."""
        return self._isolation

    @property
    def plugins(self) -> tuple[Plugin, ...]:
        """The workers' Plugins (for inspection, e.g. ``worker_pid``)."""
        return tuple(self._plugins)

    def close(self, *, cancel_pending: bool = False) -> None:
        """Wait for queued compiles (or cancel them), then unload every worker. Idempotent."""
        with self._lock:
            self._closed = True
        self._executor.shutdown(wait=True, cancel_futures=cancel_pending)
        for plugin in self._plugins:
            plugin.unload()

    def __enter__(self) -> Pool:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self._closed else "open"
        return f"<llvmplug.Pool size={self.size} isolation={self._isolation!r} {state}>"

    def __del__(self) -> None:
        # Workers stop on their own when dropped; only the threads need telling.
        executor = getattr(self, "_executor", None)
        if executor is not None:
            executor.shutdown(wait=False)
