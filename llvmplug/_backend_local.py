"""The in-process backend of :class:`llvmplug.Plugin`: a loaded copy of the shim.

It owns the copy's lifecycle: load, reload, recovery after an error that
unwound through LLVM, the optional warmed standby copy, and what a forked
child must do with a copy it inherited. Arguments arrive already checked
(see :mod:`llvmplug._args`).
"""

from __future__ import annotations

import contextlib
import os
import threading
import weakref
from collections.abc import Iterator
from pathlib import Path

from . import _abi, _jobs, _loader, _log, errors

TYPE_CHECKING = False  # typing only for type checkers: its import slows a fresh process (issue 27)
if TYPE_CHECKING:
    from typing import Any

# Compiled once by every standby copy (and standby child) before it is
# swapped in, so that what LLVM sets up on a first compile, and the code pages
# the common passes and instruction selection run, are ready off the
# caller's path: a loop with loads, stores, arithmetic, a call and an
# intrinsic (measured: the first compile after a swap then costs what a
# steady one does; with an empty function it cost ~0.6 ms more).
WARM_MODULE = b"""declare double @llvm.sqrt.f64(double)
declare void @llvmplug_warm_sink(ptr)

define i64 @llvmplug_warm(ptr %p, i64 %n, double %d) {
entry:
  %s = call double @llvm.sqrt.f64(double %d)
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
  %acc = phi i64 [ 0, %entry ], [ %sum, %loop ]
  %q = getelementptr inbounds i32, ptr %p, i64 %i
  %v = load i32, ptr %q
  %w = sext i32 %v to i64
  %m = mul nsw i64 %w, 3
  %sum = add nsw i64 %acc, %m
  store i32 %v, ptr %q
  %next = add nuw i64 %i, 1
  %done = icmp uge i64 %next, %n
  br i1 %done, label %exit, label %loop
exit:
  call void @llvmplug_warm_sink(ptr %p)
  %f = fptosi double %s to i64
  %r = add i64 %sum, %f
  ret i64 %r
}
"""

# After a swap, the background work (retiring the old copy, preparing the
# next standby) waits for the new copy's first call to finish, at most this
# long: it would otherwise compete with that call for the CPU and the GIL
# (dlopen holds it), and the first result is what a reset is waiting for.
STANDBY_DEFER = 1.0

# How long recovery waits for a suspect copy of the package's own file to be
# unmapped, so that the file can be mapped again instead of copied (a shutdown
# takes a few ms; a copy of 50 MB tens). Past it, a private copy is made.
RETIRE_GRACE = 0.25

# Each unwound through LLVM frames that ran no destructors: the copy is suspect.
SUSPECT_ERRORS = (errors.FatalError, errors.CodegenError, errors.InternalError)

_backends: weakref.WeakSet[LocalBackend] = weakref.WeakSet()


def _release(owned: dict[str, Any]) -> None:
    """Close everything a backend owns (its finalizer: holds no reference to the backend)."""
    for key in ("standby", "library"):
        library = owned.pop(key, None)
        if library is not None:
            if library.suspect:
                _loader.retire(library)
            else:
                library.close()
    file = owned.pop("file", None)
    if file is not None:
        file.close()
    jobs = owned.pop("jobs", None)
    if jobs is not None:
        jobs.stop()


class LocalBackend:
    """One copy of LLVM in this process (plus, with ``standby``, a warmed spare)."""

    isolation = "none"
    worker_pid = None

    def __init__(
        self,
        *,
        private: bool,
        path: Path | None,
        policy: str,
        reload_after_fatal: bool,
        standby: bool,
        sandbox: bool = True,
    ) -> None:
        self._private = private
        self._source = path
        self._policy = policy
        self._sandbox = sandbox
        self._reload_after_fatal = reload_after_fatal
        self._standby_wanted = standby
        self._sticky: list[str] = []
        self._poisoned = False
        self._wanted = True  # False after unload(), until reload()
        self._forked = False  # a forked child: load a copy of its own before the next call
        self._generation = 0  # bumped by every reload/unload: a late standby is dropped
        self._standby_done: _jobs.Job | None = None  # the last standby job, until its outcome is taken
        self._init_sync()
        # library, standby, file (a private copy's memfd, kept for the next load)
        self._owned: dict[str, Any] = {}
        self._finalizer = weakref.finalize(self, _release, self._owned)
        # At interpreter exit a daemon thread may still be inside the shim;
        # unmapping it then would crash the exit. The process exit unmaps it
        # anyway, and on POSIX a private copy's file is already gone. Windows
        # must FreeLibrary before it can delete a copy.
        self._finalizer.atexit = os.name == "nt"
        # A Plugin that did not ask for a private copy gets the package's file
        # if no other Plugin holds it, else a private copy: Plugin() followed
        # by llvmplug.compile() (the default Plugin) must simply work. Sharing
        # the one loaded copy between them (reference counted) would be
        # cheaper but unsound: the copy holds sticky options, the policy and
        # the state a reload resets, so one Plugin's set_options or reload()
        # would silently change the other's compiles.
        self._owned["library"] = self._new_library()
        _backends.add(self)
        if standby:
            self._start_standby(None)

    def _init_sync(self) -> None:
        self._served = threading.Event()  # the current copy finished a call (see STANDBY_DEFER)
        self._served.set()
        self._state = threading.Condition()
        self._active = 0  # calls in progress
        self._changing = False  # a reload, unload or recovery is in progress

    # -- copies ------------------------------------------------------------

    def _new_library(self, *, file: _loader.PrivateFile | None = None) -> _loader.Library:
        """A loaded copy with the sandbox and the policy applied (before anything else runs in it)."""
        library = _loader.Library(
            self._source,
            private=self._private or self._forked or self._standby_wanted,
            file=file,
            fallback_private=True,
        )
        try:
            # First: the copy's first thread starts with the next call, and
            # is confined (or not) for good (csrc/runtime/threads.h).
            _abi.call(library.lib, "llvmplug_set_sandbox", int(self._sandbox))
            policy = {"safe": library.lib.LLVMPLUG_POLICY_SAFE, "all": library.lib.LLVMPLUG_POLICY_ALL}
            _abi.call(library.lib, "llvmplug_set_policy", policy[self._policy])
        except BaseException:
            library.close()
            raise
        return library

    def _start_standby(self, retired: _loader.Library | None) -> None:
        """Retire ``retired`` and prepare the next warmed standby, on the background thread.

        The thread is started once, not per reset: Thread.start() waits until
        the new thread runs, which on a busy machine costs milliseconds.
        """
        jobs = self._owned.get("jobs")
        if jobs is None:
            jobs = self._owned["jobs"] = _jobs.Jobs("llvmplug-standby")
        self._standby_done = jobs.submit(self._make_standby, retired, self._generation)

    def _make_standby(self, retired: _loader.Library | None, generation: int) -> None:
        self._served.wait(STANDBY_DEFER)
        file = None
        if retired is not None:
            if retired.suspect:
                _loader.retire(retired)
            else:
                file = retired.close(keep_file=True)  # its bytes become the next standby
        try:
            library = self._new_library(file=file)
        except errors.LLVMPlugError as error:
            _log.warning("preparing a standby copy failed (%s); the next reset loads a copy itself", error)
            return  # the next reload loads a copy itself and reports the error
        try:
            array, keep = _abi.buffers([WARM_MODULE])
            _abi.call_parts(library.lib, "llvmplug_compile", array, len(keep), b"", b"-filetype=obj", 0)
        except errors.LLVMPlugError:
            library.close()
            return
        with self._state:
            kept = generation == self._generation and self._wanted and not self._forked
            if kept:
                self._owned["standby"] = library
                _log.debug("a warmed standby copy is ready: %s", library.path)
            self._state.notify_all()
        if not kept:
            library.close()

    def _take_standby(self) -> _loader.Library | None:
        """The warmed standby, waiting for one in preparation; None if there is none.

        Raises InternalError if the job preparing it failed unexpectedly (once:
        the next reset finds no standby and loads a copy itself).
        """
        job, self._standby_done = self._standby_done, None
        if job is not None:
            self._served.set()  # the standby is wanted now
            job.check()
        return self._owned.pop("standby", None)

    def _wait_for_standby(self) -> None:
        """Wait for the standby job without raising: for unload, which discards the standby anyway."""
        job, self._standby_done = self._standby_done, None
        if job is not None:
            self._served.set()
            job.wait()
            if job.error is not None:
                errors.warn(str(job.error))

    def _replace(self, *, suspect: bool) -> None:
        """Swap in a new copy (the standby if there is one); the caller holds the state."""
        # First, while nothing has changed: a failed standby job raises here.
        standby = self._take_standby() if self._standby_wanted else None
        old = self._owned.pop("library", None)
        if old is not None:
            old.suspect = old.suspect or suspect
        # From here the Plugin has no copy until one loads; if none does
        # (the error is raised), the next call tries again.
        if self._standby_wanted:
            library = standby
            self._generation += 1
            if library is None:
                if old is not None and old.suspect:
                    _loader.retire(old)
                    old = None
                try:
                    library = self._new_library()
                except BaseException:
                    if old is not None:
                        old.close()  # popped above: nobody else would ever close it
                    raise
            self._owned["library"] = library
            self._poisoned = False
            self._served.clear()
            self._start_standby(old)
            _log.info(
                "swapped in %s %s; the old copy retires in the background",
                "the warmed standby" if standby is not None else "a new copy (no standby was ready)",
                library.path,
            )
            return
        file = None
        if old is not None:
            if old.suspect:
                retired = _loader.retire(old)
                if not old.private:
                    retired.wait(RETIRE_GRACE)  # bounded: a stuck shutdown costs a copy, not a hang
            else:
                file = old.close(keep_file=True)
        file = file or self._owned.pop("file", None)
        self._owned["library"] = self._new_library(file=file)
        self._poisoned = False

    # -- the state machine of calls and changes ------------------------------

    @contextlib.contextmanager
    def _changing_state(self) -> Iterator[None]:
        with self._state:
            while self._changing:
                self._state.wait()
            self._changing = True
            while self._active:
                self._state.wait()
        try:
            yield
        finally:
            with self._state:
                self._changing = False
                self._state.notify_all()

    def _recover(self) -> None:
        """Replace a poisoned (or, after a fork, inherited) copy; sticky options carry over."""
        with self._changing_state():
            if not self._wanted or not self._needs_copy():
                return  # another thread recovered first, or unload() ran
            sticky = self._sticky
            why = "poisoned" if self._poisoned else "inherited through fork" if self._forked else "not loaded"
            self._replace(suspect=self._poisoned)
            self._forked = False
            _log.info(
                "replaced a copy (%s) with %s; %d sticky option line(s) re-applied",
                why,
                self._owned["library"].path,
                len(sticky),
            )
            lib = self._owned["library"].lib
            for line in sticky:
                _abi.call(lib, "llvmplug_set_options", line.encode())

    def _needs_copy(self) -> bool:
        """Whether the next call needs a new copy: poisoned, forked, or an earlier load failed."""
        return self._wanted and (
            self._forked or (self._poisoned and self._reload_after_fatal) or "library" not in self._owned
        )

    def _calling(self) -> _Call:
        """A call into the current copy: ``with self._calling() as lib: ...``."""
        return _Call(self)

    # -- lifecycle -----------------------------------------------------------

    def reload(self) -> None:
        with self._changing_state():
            if self._standby_wanted:
                # A failed standby job raises here, before anything changed.
                standby = self._take_standby()
                if standby is not None:
                    self._owned["standby"] = standby
            self._wanted = True
            self._forked = False
            self._sticky = []
            self._replace(suspect=self._poisoned)
            _log.info("reloaded: %s serves the calls now", self._owned["library"].path)

    def unload(self) -> None:
        with self._changing_state():
            self._wanted = False
            self._poisoned = False
            self._generation += 1
            self._wait_for_standby()
            _release(self._owned)

    def after_fork_in_child(self) -> None:
        """Forget every inherited copy (the loader abandoned them); load one of our own when next called."""
        self._init_sync()
        self._standby_done = None
        self._owned.clear()
        self._finalizer.detach()
        self._finalizer = weakref.finalize(self, _release, self._owned)
        self._finalizer.atexit = os.name == "nt"
        self._poisoned = False
        self._forked = self._wanted

    # -- properties ----------------------------------------------------------

    @property
    def loaded(self) -> bool:
        return self._wanted and ("library" in self._owned or self._forked)

    @property
    def poisoned(self) -> bool:
        return self._poisoned

    @property
    def loaded_path(self) -> Path | None:
        library = self._owned.get("library")
        return library.path if library is not None else None

    @property
    def sticky_options(self) -> tuple[str, ...]:
        return tuple(self._sticky)

    # -- calls ---------------------------------------------------------------

    def compile(
        self,
        modules: list[bytes],
        target: str,
        line: str,
        parts: int,
        timeout: float | None = None,
        timed: list[str] | None = None,
        watch: Any = None,
    ) -> tuple[list[bytes], list[str]]:
        """``timed``: a list that receives the call's timings (JSON); ``watch``: a progress callback."""
        array, keep = _abi.buffers(modules)
        with self._calling() as lib:
            watcher = _watch(lib, watch)
            try:
                data, message = _abi.call_parts(
                    lib, "llvmplug_compile", array, len(keep), target.encode(), line.encode(), parts, timings=timed
                )
            finally:
                if watcher is not None:
                    watcher.stop()
        return data, [message] if message else []

    def compile_modules(
        self,
        modules: list[bytes],
        links: list[bytes],
        target: str,
        line: str,
        threads: int,
        timeout: float | None = None,
        timed: list[str] | None = None,
        watch: Any = None,
    ) -> tuple[list[bytes], list[str]]:
        array, keep = _abi.buffers(modules)
        link_array, link_keep = _abi.buffers(links) if links else (_abi.ffi().NULL, [])
        with self._calling() as lib:
            watcher = _watch(lib, watch)
            try:
                data, message = _abi.call_parts(
                    lib,
                    "llvmplug_compile_modules",
                    array,
                    len(keep),
                    link_array,
                    len(link_keep),
                    target.encode(),
                    line.encode(),
                    threads,
                    timings=timed,
                )
            finally:
                if watcher is not None:
                    watcher.stop()
        return data, [message] if message else []

    def info(self) -> dict[str, Any]:
        with self._calling() as lib:
            data, _ = _abi.call(lib, "llvmplug_info")
        info: dict[str, Any] = _json(data)
        info["sandbox"]["process"] = None  # this process is the caller's (a worker adds its own)
        return info

    def confine_process(self) -> dict[str, Any]:
        """Confine this whole process as a worker (see llvmplug_confine_process); for :mod:`llvmplug._worker`.

        What stays readable: the shim and its build id, so that the worker
        can load a fresh copy after a fatal error.
        """
        source = self._source or _loader.library_path()
        readable = [str(source), str(_loader.build_id_file(source))]
        cffi_ = _abi.ffi()
        keep = [cffi_.new("char[]", os.fsencode(path)) for path in readable]
        array = cffi_.new("const char *[]", keep)
        with self._calling() as lib:
            data, _ = _abi.call(lib, "llvmplug_confine_process", array, len(keep))
        report: dict[str, Any] = _json(data)
        return report

    def target_info(self, triple: str) -> dict[str, Any]:
        with self._calling() as lib:
            data, _ = _abi.call(lib, "llvmplug_target_info", triple.encode())
        return _json(data)

    def set_options(self, line: str) -> None:
        with self._calling() as lib:
            _abi.call(lib, "llvmplug_set_options", line.encode())
            self._sticky.append(line)

    def clear_options(self) -> None:
        with self._calling() as lib:
            _abi.call(lib, "llvmplug_clear_options")
            self._sticky = []

    def options(self, pattern: str) -> list[dict[str, Any]]:
        with self._calling() as lib:
            data, _ = _abi.call(lib, "llvmplug_list_options", pattern.encode())
        return _json(data)

    def passes(self, pattern: str) -> list[dict[str, Any]]:
        with self._calling() as lib:
            data, _ = _abi.call(lib, "llvmplug_list_passes", pattern.encode())
        return _json(data)


def _json(data: bytes) -> Any:
    import json  # on first use: start-up (issue 27)

    return json.loads(data)


def _watch(lib: Any, callback: Any) -> Any:
    """A progress Watcher of this thread's call on ``lib``, started; None without a callback."""
    if callback is None:
        return None
    from .progress import Watcher  # only a watched call pays for it

    return Watcher(lib, threading.get_native_id(), callback).start()


class _Call:
    """One call into a backend's current copy, as a context manager.

    Counted as active, so that a reload or unload waits for it; an error that
    unwound through LLVM marks the copy suspect. A class rather than a
    generator-based context manager: it runs around every compile, and the
    floor per call is measured in microseconds (benchmarks/throughput.py).
    """

    __slots__ = ("backend", "library")

    def __init__(self, backend: LocalBackend) -> None:
        self.backend = backend

    def __enter__(self) -> Any:
        backend = self.backend
        if backend._needs_copy():
            backend._recover()
        with backend._state:
            while backend._changing:
                backend._state.wait()
            library = backend._owned.get("library")
            if library is None or not backend._wanted:
                raise errors.PluginUnloadedError("this Plugin was unloaded; call reload() first")
            backend._active += 1
        self.library = library
        return library.lib

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, trace: Any) -> None:
        backend = self.backend
        if kind is not None and issubclass(kind, SUSPECT_ERRORS):
            self.library.suspect = True
            backend._poisoned = True
            _log.warning(
                "copy %s poisoned by %s (%s); %s",
                self.library.path,
                kind.__name__,
                error,
                "it is replaced before the next call"
                if backend._reload_after_fatal
                else "kept until reload() (reload_after_fatal=False)",
            )
        if not backend._served.is_set():
            backend._served.set()
        with backend._state:
            backend._active -= 1
            # Only a reload, unload or recovery (which sets _changing first) waits for calls to end.
            if not backend._active and backend._changing:
                backend._state.notify_all()


def _after_fork_in_child() -> None:
    for backend in list(_backends):
        backend.after_fork_in_child()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)
