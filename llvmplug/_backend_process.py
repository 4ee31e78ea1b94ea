"""The process backend of :class:`llvmplug.Plugin` (``isolation="process"``).

An in-process copy contains everything LLVM *reports* (errors, fatal errors)
but not a segfault or an abort inside LLVM, and cannot stop a compile that
runs too long. A child process can: when it dies, the call raises
:class:`WorkerCrashedError` and the next call starts a fresh child; when a
compile exceeds its ``timeout`` the child is killed and replaced.

The child is a new interpreter running :mod:`llvmplug._worker` (not a fork,
and not ``multiprocessing``'s spawn, which would re-import the caller's
``__main__``), in an empty private working directory, with stdin on
/dev/null, stdout on this process's stderr, and no descriptor of ours but the
two protocol pipes (see :mod:`llvmplug._protocol`). Every reply is checked
before it is believed: a child subverted through LLVM can make a call fail,
never return something other than what the call returns.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import warnings
import weakref
from pathlib import Path

import cffi

from . import _jobs, _log, _protocol, errors
from ._backend_local import WARM_MODULE

TYPE_CHECKING = False  # typing only for type checkers: its import slows a fresh process (issue 27)
if TYPE_CHECKING:
    from typing import Any, BinaryIO

# The interpreter must import this very llvmplug (with its built shim), not
# one that happens to be in the current directory: -c puts '' first on
# sys.path, so replace that entry with the directory holding this package.
# cffi's directory is passed the same way: what the child needs comes on its
# command line, never from environment variables it may not get (below).
_PACKAGE_PARENT = str(Path(__file__).resolve().parents[1])
_CFFI_PARENT = str(Path(cffi.__file__).resolve().parents[1])
_BOOTSTRAP = (
    f"import sys; sys.path[0] = {_PACKAGE_PARENT!r}; "
    # Last, not first: a site directory must not shadow the standard library.
    f"sys.path.append({_CFFI_PARENT!r}) if {_CFFI_PARENT!r} not in sys.path else None; "
    "from llvmplug._worker import main; main()"
)

# What a new process can be given. Linux's execve refuses (E2BIG) any one
# NAME=value string over 128 KiB (MAX_ARG_STRLEN) and the command line and
# environment together over a quarter of the stack limit (2 MiB by default),
# both counted in bytes as encoded (a non-ASCII character is 2 to 4 of them);
# Windows takes at most 32,767 UTF-16 units per variable. So the child gets
# the parent's environment minus every variable over _MAX_VARIABLE and, past
# _MAX_ENVIRONMENT in total, minus the largest of the rest, each measured as
# the platform counts (_size): a process Plugin starts whatever the parent's
# environment holds (a megabyte-long PYTEST_CURRENT_TEST, say). Each dropped
# name is warned about once.
_MAX_VARIABLE = 32 * 1024 - 1
_MAX_ENVIRONMENT = 512 * 1024
if hasattr(os, "sysconf") and "SC_ARG_MAX" in os.sysconf_names:
    # Lower under a small stack limit; half of it leaves room for the command line.
    _MAX_ENVIRONMENT = min(_MAX_ENVIRONMENT, max(os.sysconf("SC_ARG_MAX"), 0) // 2 or _MAX_ENVIRONMENT)
_dropped_warned: set[str] = set()

# How long a child may take to exit when asked before it is killed.
_EXIT_GRACE = 5.0

_backends: weakref.WeakSet[ProcessBackend] = weakref.WeakSet()


def _signal_name(returncode: int | None) -> str | None:
    if returncode is None or returncode >= 0 or os.name == "nt":
        return None
    try:
        return signal.Signals(-returncode).name
    except ValueError:
        return f"signal {-returncode}"


def _stop(process: subprocess.Popen[bytes], requests: BinaryIO, replies: BinaryIO, directory: str) -> None:
    """End a child: EOF on its request pipe asks it to exit; kill it if it does not."""
    for stream in (requests, replies):
        try:
            stream.close()
        except OSError:
            pass  # a dead child's pipe; nothing to flush
    try:
        process.wait(_EXIT_GRACE)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    shutil.rmtree(directory, ignore_errors=True)


def _size(name: str, value: str) -> int:
    """What NAME=value costs the new process, in the unit its limits count.

    POSIX: bytes, encoded as subprocess encodes them (os.fsencode), with "="
    and the NUL. Windows: UTF-16 code units of the environment block. A
    string that cannot be encoded cannot be passed at all: it counts as over
    the limit.
    """
    try:
        if os.name == "nt":
            return (len(name.encode("utf-16-le")) + len(value.encode("utf-16-le"))) // 2 + 2
        return len(os.fsencode(name)) + len(os.fsencode(value)) + 2
    except UnicodeError:
        return _MAX_VARIABLE + 1


def child_environment(environ: dict[str, str] | None = None) -> dict[str, str]:
    """The environment a child is started with: ``environ`` (default: ours) minus what cannot be passed."""
    environ = dict(os.environ if environ is None else environ)
    sizes = {name: _size(name, value) for name, value in environ.items()}
    dropped = [name for name, size in sizes.items() if size > _MAX_VARIABLE]
    total = sum(size for name, size in sizes.items() if name not in dropped)
    for name in sorted(set(sizes) - set(dropped), key=sizes.__getitem__, reverse=True):
        if total <= _MAX_ENVIRONMENT:
            break
        dropped.append(name)
        total -= sizes[name]
    for name in dropped:
        del environ[name]
    new = sorted(set(dropped) - _dropped_warned)
    if new:
        _dropped_warned.update(new)
        warnings.warn(
            f"llvmplug's worker process is started without the environment variable(s) {', '.join(new)}: "
            f"too large to pass to a new process (over {_MAX_VARIABLE + 1} bytes each or "
            f"{_MAX_ENVIRONMENT} in all, as encoded) or not encodable",
            errors.LLVMPlugWarning,
            stacklevel=5,
        )
    return environ


def _stdout_for_child() -> int:
    """The child's stdout: our stderr (LLVM's prints stay visible), else /dev/null."""
    try:
        os.fstat(2)
    except OSError:
        return subprocess.DEVNULL
    return 2


class _Child:
    """One running worker process and its two protocol pipes."""

    def __init__(self, config: dict[str, Any], memory_limit: int | None) -> None:
        self.next_id = 1
        self.pid: int | None = None
        self.directory = tempfile.mkdtemp(prefix="llvmplug-worker-")
        try:
            self.process, self.requests, self.replies = self._spawn()
        except OSError as error:
            shutil.rmtree(self.directory, ignore_errors=True)
            raise errors.LibraryLoadError(f"cannot start llvmplug's worker process: {error}") from error
        # Ends the child if its Plugin is dropped without unload(), and at exit.
        self._finalizer = weakref.finalize(self, _stop, self.process, self.requests, self.replies, self.directory)
        try:
            _protocol.send(self.requests, 0, (config, memory_limit))
            reply = _protocol.receive(self.replies, 0)
        except (OSError, EOFError, _protocol.ProtocolError) as error:
            self.stop()
            raise errors.LibraryLoadError(
                f"llvmplug's worker process failed to start (exit status "
                f"{self.process.returncode}); its stderr says why"
            ) from error
        if reply[0] != "ready":
            self.stop()
            if isinstance(reply[1], errors.LLVMPlugError):
                raise reply[1]
            raise errors.LibraryLoadError(f"llvmplug's worker process sent {reply!r} instead of 'ready'")
        self.pid = reply[1]["pid"]
        self.loaded_path = Path(reply[1]["loaded_path"])
        _log.info("started worker process pid %s (%s)", self.pid, self.loaded_path)

    def _spawn(self) -> tuple[subprocess.Popen[bytes], BinaryIO, BinaryIO]:
        if os.name == "nt":
            # Windows has no pass_fds: the protocol runs over the child's
            # stdin/stdout, which the worker moves off fds 0 and 1 at once.
            # (Unverified here.)
            process = subprocess.Popen(
                [sys.executable, "-c", _BOOTSTRAP],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                cwd=self.directory,
                bufsize=0,
                env=child_environment(),
            )
            return process, process.stdin, process.stdout  # type: ignore[return-value]
        # Dedicated pipes, not stdin/stdout: nothing LLVM prints can land in
        # the protocol. os.pipe() makes them non-inheritable; pass_fds hands
        # the child exactly these two, close_fds closes everything else.
        request_read, request_write = os.pipe()
        reply_read, reply_write = os.pipe()
        try:
            process = subprocess.Popen(
                [sys.executable, "-c", _BOOTSTRAP, str(request_read), str(reply_write)],
                stdin=subprocess.DEVNULL,
                stdout=_stdout_for_child(),
                pass_fds=(request_read, reply_write),
                close_fds=True,
                cwd=self.directory,
                env=child_environment(),
            )
        except BaseException:
            for fd in (request_write, reply_read):
                os.close(fd)
            raise
        finally:
            for fd in (request_read, reply_write):
                os.close(fd)
        return process, os.fdopen(request_write, "wb", buffering=0), os.fdopen(reply_read, "rb", buffering=0)

    def request(self, message: Any) -> int:
        number = self.next_id
        self.next_id = (number + 1) & 0xFFFFFFFF or 1
        _protocol.send(self.requests, number, message)
        return number

    def reply(self, number: int) -> Any:
        return _protocol.receive(self.replies, number)

    def kill(self) -> None:
        try:
            self.process.kill()
        except OSError:
            pass  # already gone

    def stop(self) -> None:
        self._finalizer()

    def forget(self) -> None:
        """In a forked child: this process is our parent's; never read, wait for or kill it."""
        self._finalizer.detach()
        for stream in (self.requests, self.replies):
            try:
                stream.close()  # our copies of the pipes only
            except OSError:
                pass
        self.process.returncode = 0  # so that subprocess never waits for it here

    def crashed(self, why: str | None = None) -> errors.WorkerCrashedError:
        """The error for a child that died or broke the protocol; stops and reaps it."""
        if why is not None:
            self.kill()
        self.stop()
        code = self.process.returncode
        name = _signal_name(code)
        if why is not None:
            how = f"broke the protocol ({why}) and was killed"
        elif code == _protocol.EXIT_OUT_OF_MEMORY:
            how = "ran out of memory (its memory_limit) passing the request or the reply"
        else:
            how = f"was killed by {name}" if name else f"exited with status {code}"
        return errors.WorkerCrashedError(
            f"llvmplug's worker process (pid {self.pid}) {how} during the call; the next call starts a fresh one",
            returncode=code,
            signal=None if why is not None else name,
        )


def _stop_jobs(jobs: _jobs.Jobs | None) -> None:
    if jobs is not None:
        jobs.stop()


class ProcessBackend:
    """The Plugin API served by a child process; see the module docstring."""

    isolation = "process"

    def __init__(
        self,
        *,
        private: bool,
        path: Path | None,
        policy: str,
        reload_after_fatal: bool,
        memory_limit: int | None,
        standby: bool = False,
        sandbox: bool = True,
    ) -> None:
        self._config = {
            "private": private,
            "path": None if path is None else str(path),
            "policy": policy,
            "reload_after_fatal": reload_after_fatal,
            "sandbox": sandbox,  # the child confines itself (llvmplug/_worker.py)
        }
        self._memory_limit = memory_limit
        self._poisoned = False
        self._sticky: list[str] = []
        self._lock = threading.Lock()  # one request in flight per child
        self._wanted = True
        self._child: _Child | None = _Child(self._config, memory_limit)
        # standby: a second child, started and warmed in the background,
        # that reload() (or the replacement of a crashed child) swaps in.
        self._jobs = _jobs.Jobs("llvmplug-standby") if standby else None
        self._spare: _Child | None = None
        self._spare_done: _jobs.Job | None = None
        self._start_spare(None)
        self._finalizer = weakref.finalize(self, _stop_jobs, self._jobs)
        _backends.add(self)

    # -- lifecycle ---------------------------------------------------------

    def _start_spare(self, retired: _Child | None) -> None:
        if self._jobs is not None:
            self._spare_done = self._jobs.submit(self._make_spare, retired)

    def _make_spare(self, retired: _Child | None) -> None:
        if retired is not None:
            retired.stop()  # off the caller's path: stopping waits for the child to exit
        try:
            spare = _Child(self._config, self._memory_limit)
            warm = ([WARM_MODULE], "", "-filetype=obj", 0, False, False)
            number = spare.request(("compile", warm))
            _protocol.check_reply("compile", warm, spare.reply(number))
        except (errors.LLVMPlugError, OSError, EOFError, _protocol.ProtocolError) as error:
            _log.warning("preparing a standby worker failed (%s); the next reset starts one itself", error)
            return  # the next reload starts a child itself and reports the error
        if self._wanted and self._spare is None:
            self._spare = spare
        else:
            spare.stop()

    def _take_spare(self, *, check: bool = True) -> _Child | None:
        """The warmed spare child, waiting for one being started; None if there is none.

        A job that failed unexpectedly raises InternalError here (once: the
        next call starts a child itself); with ``check=False`` (unload, which
        stops the spare anyway) it is a warning.
        """
        job, self._spare_done = self._spare_done, None
        if job is not None:
            job.wait()
            if job.error is not None:
                if check:
                    raise job.error
                errors.warn(str(job.error))
        spare, self._spare = self._spare, None
        return spare

    def _discard_child(self) -> None:
        child, self._child = self._child, None
        if child is not None:
            child.stop()

    def _ensure_child(self) -> _Child:
        if not self._wanted:
            raise errors.PluginUnloadedError("this Plugin was unloaded; call reload() first")
        if self._child is None:
            spare = self._take_spare()
            child = spare or _Child(self._config, self._memory_limit)
            if spare is not None:
                _log.info("swapped in the warmed standby worker pid %s", spare.pid)
            self._start_spare(None)
            self._child = child
            self._poisoned = False
            for line in self._sticky:
                self._exchange(child, "set_options", (line,), None)
        return self._child

    def unload(self) -> None:
        with self._lock:
            self._wanted = False
            self._poisoned = False
            self._discard_child()
            spare = self._take_spare(check=False)
            if spare is not None:
                spare.stop()

    def reload(self) -> None:
        with self._lock:
            spare = self._take_spare()  # a failed job raises here, before anything changed
            self._sticky = []
            self._poisoned = False
            self._wanted = True
            if spare is None:
                self._discard_child()
                self._child = _Child(self._config, self._memory_limit)
                self._start_spare(None)
            else:
                old, self._child = self._child, spare
                self._start_spare(old)
            _log.info(
                "reloaded: worker pid %s serves the calls now%s",
                self._child.pid,
                " (the warmed standby)" if spare is not None else "",
            )

    def after_fork_in_child(self) -> None:
        """The child process belongs to our parent: forget it and start our own when next called."""
        self._lock = threading.Lock()
        child, self._child = self._child, None
        spare, self._spare = self._spare, None
        for inherited in (child, spare):
            if inherited is not None:
                inherited.forget()
        self._poisoned = False
        if self._jobs is not None:  # its thread stayed in the parent
            self._jobs = _jobs.Jobs("llvmplug-standby")
            self._finalizer.detach()
            self._finalizer = weakref.finalize(self, _stop_jobs, self._jobs)
            self._spare_done = None

    @property
    def loaded(self) -> bool:
        return self._wanted

    @property
    def poisoned(self) -> bool:
        return self._poisoned

    @property
    def loaded_path(self) -> Path | None:
        child = self._child
        return child.loaded_path if child is not None else None

    @property
    def worker_pid(self) -> int | None:
        child = self._child
        return child.pid if child is not None else None

    @property
    def sticky_options(self) -> tuple[str, ...]:
        return tuple(self._sticky)

    # -- calls -------------------------------------------------------------

    def _exchange(
        self, child: _Child, method: str, args: tuple[Any, ...], timeout: float | None, watch: Any = None
    ) -> Any:
        """One request and its checked reply; the caller holds ``self._lock``.

        ``watch`` receives each Progress the child reports before the reply (on this thread).
        """
        expired = threading.Event()
        timer = None
        if timeout is not None:

            def expire() -> None:
                expired.set()
                child.kill()

            timer = threading.Timer(timeout, expire)
            timer.daemon = True
        reply = None
        broken = None
        try:
            number = child.request((method, args))
            if timer is not None:
                timer.start()
            reply = child.reply(number)
            while isinstance(reply, tuple) and len(reply) == 2 and reply[0] == "progress":
                _report(watch, reply[1])
                reply = child.reply(number)
            _protocol.check_reply(method, args, reply)
        except (OSError, EOFError):
            reply = None  # the child died; told apart below
        except _protocol.ProtocolError as error:
            reply, broken = None, str(error)
        except BaseException:
            # Interrupted (KeyboardInterrupt, say) mid-exchange: the child's
            # reply would answer the next request, so this child must go.
            child.kill()
            self._discard_child()
            raise
        finally:
            if timer is not None:
                timer.cancel()
                if timer.is_alive():
                    timer.join()
        if expired.is_set():
            self._discard_child()
            if reply is None:
                _log.warning(
                    "worker process pid %s killed: the compile exceeded its timeout of %s s", child.pid, timeout
                )
                raise errors.CompileTimeoutError(
                    f"the compile did not finish within {timeout} s; its worker process "
                    f"(pid {child.pid}) was killed and the next call starts a fresh one"
                )
        if reply is None:
            self._child = None
            self._poisoned = False  # the next call gets a fresh child
            crash = child.crashed(broken)
            _log.warning("%s", crash)
            raise crash
        if reply[-1] and not self._poisoned:
            _log.warning(
                "the copy in worker process pid %s was poisoned by %s; the worker replaces it",
                child.pid,
                type(reply[1]).__name__ if reply[0] == "error" else "a call",
            )
        self._poisoned = reply[-1]
        if reply[0] == "error":
            raise reply[1]
        return reply

    def _call(self, method: str, *args: Any, timeout: float | None = None, watch: Any = None) -> tuple[Any, list[str]]:
        with self._lock:
            child = self._ensure_child()
            reply = self._exchange(child, method, args, timeout, watch)
        return reply[1], reply[2]

    def _compile(
        self, method: str, args: tuple[Any, ...], timeout: float | None, timed: list[str] | None, watch: Any
    ) -> tuple[list[bytes], list[str]]:
        """A compile method: its timings come with the reply (or the error) when ``timed`` is given."""
        try:
            (data, timings), warnings = self._call(
                method, *args, timed is not None, watch is not None, timeout=timeout, watch=watch
            )
        except errors.LLVMPlugError as error:
            ran = error.__dict__.pop("_timings", None)
            if timed is not None and isinstance(ran, str):
                timed.append(ran)
            raise
        if timed is not None and timings is not None:
            timed.append(timings)
        return data, warnings

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
        return self._compile("compile", (modules, target, line, parts), timeout, timed, watch)

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
        return self._compile("compile_modules", (modules, links, target, line, threads), timeout, timed, watch)

    def info(self) -> dict[str, Any]:
        return self._call("info")[0]

    def target_info(self, triple: str) -> dict[str, Any]:
        return self._call("target_info", triple)[0]

    def set_options(self, line: str) -> None:
        with self._lock:
            child = self._ensure_child()
            self._exchange(child, "set_options", (line,), None)
            self._sticky.append(line)

    def clear_options(self) -> None:
        with self._lock:
            child = self._ensure_child()
            self._exchange(child, "clear_options", (), None)
            self._sticky = []

    def options(self, pattern: str) -> list[dict[str, Any]]:
        return self._call("options", pattern)[0]

    def passes(self, pattern: str) -> list[dict[str, Any]]:
        return self._call("passes", pattern)[0]


def _report(watch: Any, entry: Any) -> None:
    """Hand a child's progress report to ``watch``; a malformed one is a ProtocolError."""
    if watch is None:
        raise _protocol.ProtocolError("a progress report for a call that is not watched")
    from .progress import Guarded, Progress

    try:
        progress = Progress._from(entry)  # noqa: SLF001 - the package's own
    except ValueError as error:
        raise _protocol.ProtocolError(str(error)) from None
    if not isinstance(watch, Guarded):
        watch = Guarded(watch)  # the child's reply must be read whatever the callback does
    watch(progress)


def _after_fork_in_child() -> None:
    for backend in list(_backends):
        backend.after_fork_in_child()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)
