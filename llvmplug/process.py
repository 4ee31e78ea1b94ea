"""``Plugin(isolation="process")``: the Plugin API served by a child process.

An in-process Plugin contains everything LLVM *reports* (errors, fatal errors)
but not a segfault or an abort inside LLVM, and cannot stop a compile that
runs too long. A child process can: when it dies, the call raises
:class:`WorkerCrashedError` and the next call starts a fresh child; when a
compile exceeds its ``timeout`` the child is killed and replaced.

The child is a new interpreter running :mod:`llvmplug._worker` (not a fork,
and not ``multiprocessing``'s spawn, which would re-import the caller's
``__main__``); see that module for the protocol.
"""

from __future__ import annotations

import os
import pickle
import signal
import subprocess
import sys
import threading
import warnings
import weakref
from pathlib import Path
from typing import Any, BinaryIO, cast

from . import errors
from .plugin import Flags, Module, Plugin, _module_bytes, _option_policy, _text, flags_string, OUTPUTS

# The interpreter must import this very llvmplug (with its built shim), not
# one that happens to be in the current directory: -c puts '' first on
# sys.path, so replace that entry with the directory holding this package.
_PACKAGE_PARENT = str(Path(__file__).resolve().parents[1])
_BOOTSTRAP = (
    f"import sys; sys.path[0] = {_PACKAGE_PARENT!r}; "
    "from llvmplug._worker import main; main()"
)

# How long a child may take to exit when asked before it is killed.
_EXIT_GRACE = 5.0


def _signal_name(returncode: int | None) -> str | None:
    if returncode is None or returncode >= 0 or os.name == "nt":
        return None
    try:
        return signal.Signals(-returncode).name
    except ValueError:
        return f"signal {-returncode}"


def _stop(process: subprocess.Popen[bytes], requests: BinaryIO, replies: BinaryIO) -> None:
    """End a child: EOF on its stdin asks it to exit; kill it if it does not."""
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


class _ReplyUnpickler(pickle.Unpickler):
    """Reads a child's replies: plain data and llvmplug's exceptions, nothing else.

    The child runs LLVM on input that may be hostile. A child subverted
    through LLVM must not be able to run code in this process by sending a
    pickle that names a callable (pickle's usual hazard); a reply that names
    anything but an llvmplug exception class fails like a crashed child.
    """

    def find_class(self, module: str, name: str) -> Any:
        if module == errors.__name__:
            found = getattr(errors, name, None)
            if isinstance(found, type) and issubclass(found, errors.LLVMPlugError):
                return found
        raise pickle.UnpicklingError(f"llvmplug's worker sent a forbidden object: {module}.{name}")


class _Child:
    """One running worker process and its two protocol pipes."""

    def __init__(self, config: dict[str, Any], memory_limit: int | None) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-c", _BOOTSTRAP],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            close_fds=True,
        )
        self.requests = cast(BinaryIO, self.process.stdin)
        self.replies = cast(BinaryIO, self.process.stdout)
        # Ends the child if its Plugin is dropped without unload(), and at exit.
        self._finalizer = weakref.finalize(self, _stop, self.process, self.requests, self.replies)
        try:
            self.send((config, memory_limit))
            reply = self.receive()
        except (OSError, EOFError, pickle.UnpicklingError) as error:
            self.stop()
            raise errors.LibraryLoadError(
                f"llvmplug's worker process failed to start (exit status "
                f"{self.process.returncode}); its stderr says why"
            ) from error
        if reply[0] != "ready":
            self.stop()
            raise reply[1]
        self.pid: int = reply[1]["pid"]
        self.loaded_path = Path(reply[1]["loaded_path"])

    def send(self, message: Any) -> None:
        pickle.dump(message, self.requests, protocol=pickle.HIGHEST_PROTOCOL)
        self.requests.flush()

    def receive(self) -> tuple[Any, ...]:
        return cast(tuple[Any, ...], _ReplyUnpickler(self.replies).load())

    def kill(self) -> None:
        try:
            self.process.kill()
        except OSError:
            pass  # already gone

    def stop(self) -> None:
        self._finalizer()

    def crashed(self) -> errors.WorkerCrashedError:
        """The error for a child that died; reaps it."""
        self.stop()
        code = self.process.returncode
        name = _signal_name(code)
        how = f"was killed by {name}" if name else f"exited with status {code}"
        return errors.WorkerCrashedError(
            f"llvmplug's worker process (pid {self.pid}) {how} during the call; "
            "the next call starts a fresh one",
            returncode=code,
            signal=name,
        )


class ProcessPlugin(Plugin):
    """A Plugin whose LLVM lives in a child process (``Plugin(isolation="process")``).

    Same API as :class:`Plugin`. Differences:

    - A crash of LLVM (or of the child for any reason: a signal, the OOM
      killer) raises :class:`WorkerCrashedError` naming the signal; the next
      call starts a fresh child.
    - ``compile(..., timeout=seconds)`` kills a compile that runs longer and
      raises :class:`CompileTimeoutError`; the next call starts a fresh child.
      The timeout counts from when the request reaches the child, not the
      wait behind other threads' calls on the same Plugin.
    - Options given to :meth:`set_options` are re-applied to every replacement
      child, so a crash or timeout does not silently change the configuration;
      :meth:`reload` starts a child with LLVM's defaults, as in process.
    - Every child holds its own LLVM, so process Plugins never conflict with
      each other or with in-process ones; ``private`` is passed to the child.
    - ``memory_limit`` (bytes, Linux) caps the child's address space
      (RLIMIT_AS): a compile that would take all the machine's memory fails
      with :class:`InternalError` ("out of memory in LLVM") or, if the
      allocation fails outside LLVM's handler, :class:`WorkerCrashedError`,
      instead of meeting the OOM killer. Leave room for the interpreter and
      the shim (about 300 MB of address space); 1 GiB or more is sensible.

    Calls on one ProcessPlugin run one at a time; use :class:`llvmplug.Pool`
    for parallel children.
    """

    def __init__(
        self,
        *,
        private: bool = False,
        path: str | os.PathLike[str] | None = None,
        reload_after_fatal: bool = True,
        isolation: str | None = "process",
        memory_limit: int | None = None,
        options: str = "safe",
    ) -> None:
        for name, flag in (("private", private), ("reload_after_fatal", reload_after_fatal)):
            if not isinstance(flag, bool):
                raise errors.ArgumentTypeError(f"{name} must be a bool, not {type(flag).__name__}")
        self._options_policy = _option_policy(options)  # policy-branch hook
        self._private = private
        self._source = Path(path) if path is not None else None
        self._reload_after_fatal = reload_after_fatal
        if memory_limit is not None:
            if isinstance(memory_limit, bool) or not isinstance(memory_limit, int):
                raise errors.ArgumentTypeError(f"memory_limit must be an int (bytes), not {type(memory_limit).__name__}")
            if memory_limit <= 0:
                raise errors.ArgumentError(f"memory_limit must be positive, not {memory_limit}")
            if sys.platform != "linux":
                raise errors.ArgumentError("memory_limit is implemented on Linux only (RLIMIT_AS)")
        self._config = {
            "private": private,
            "path": None if path is None else str(Path(path).resolve()),
            "reload_after_fatal": reload_after_fatal,
            "options": options,  # policy-branch hook
        }
        self._memory_limit = memory_limit
        self._poisoned = False
        self._sticky_flags: list[str] = []
        self._lock = threading.Lock()  # one request in flight per child
        self._child: _Child | None = _Child(self._config, memory_limit)
        self._loaded = True

    # -- lifecycle ---------------------------------------------------------

    def _calling(self) -> Any:  # type: ignore[override]
        # Anything Plugin gains that talks to an in-process library lands
        # here until it is forwarded to the child too.
        raise errors.ArgumentError("this method is not available with isolation='process'")

    def _discard_child(self) -> None:
        child, self._child = self._child, None
        if child is not None:
            child.stop()

    def _ensure_child(self) -> _Child:
        if not self._loaded:
            raise errors.PluginUnloadedError("this Plugin was unloaded; call reload() first")
        if self._child is None:
            child = _Child(self._config, self._memory_limit)
            self._child = child
            for line in self._sticky_flags:
                self._exchange(child, "set_options", (line,), {}, None)
        return self._child

    def unload(self) -> None:
        """Stop the child process. Idempotent; waits for a call in progress."""
        with self._lock:
            self._loaded = False
            self._discard_child()

    close = unload

    def reload(self) -> None:
        """Replace the child by a fresh one with LLVM's default options."""
        with self._lock:
            self._discard_child()
            self._sticky_flags = []
            self._poisoned = False
            self._loaded = True
            self._child = _Child(self._config, self._memory_limit)

    @property
    def loaded(self) -> bool:
        """Whether the Plugin serves calls (its child starts on demand after a crash)."""
        return self._loaded

    @property
    def loaded_path(self) -> Path | None:
        """The shim file the current child mapped, if a child is running."""
        child = self._child
        return child.loaded_path if child is not None else None

    @property
    def worker_pid(self) -> int | None:
        """The current child's process id, or ``None`` before one is (re)started."""
        child = self._child
        return child.pid if child is not None else None

    def __repr__(self) -> str:
        state = f"pid {self.worker_pid}" if self._loaded else "unloaded"
        return f"<llvmplug.Plugin isolation='process' {state} {self.path}>"

    # -- calls -------------------------------------------------------------

    def _exchange(
        self, child: _Child, method: str, args: tuple[Any, ...], kwargs: dict[str, Any], timeout: float | None
    ) -> Any:
        """One request and its reply; the caller holds ``self._lock``."""
        expired = threading.Event()
        timer = None
        if timeout is not None:

            def expire() -> None:
                expired.set()
                child.kill()

            timer = threading.Timer(timeout, expire)
            timer.daemon = True
        reply = None
        try:
            child.send((method, args, kwargs))
            if timer is not None:
                timer.start()
            reply = child.receive()
        except (OSError, EOFError, pickle.UnpicklingError):
            pass  # the child died; told apart below
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
                raise errors.CompileTimeoutError(
                    f"the compile did not finish within {timeout} s; its worker process "
                    f"(pid {child.pid}) was killed and the next call starts a fresh one"
                )
        if reply is None:
            self._child = None
            raise child.crashed()
        if reply[0] == "error":
            if isinstance(reply[1], errors.FatalError):
                self._poisoned = not self._reload_after_fatal
            raise reply[1]
        return reply

    def _call(self, method: str, *args: Any, timeout: float | None = None, **kwargs: Any) -> Any:
        with self._lock:
            child = self._ensure_child()
            reply = self._exchange(child, method, args, kwargs, timeout)
        for message in reply[2]:
            warnings.warn(message, errors.LLVMPlugWarning, stacklevel=3)
        return reply[1]

    def compile(
        self,
        module: Module,
        target: str | None = None,
        flags: Flags = (),
        *,
        output: str = "obj",
        timeout: float | None = None,
    ) -> bytes:
        """Compile in the child; see :meth:`Plugin.compile`.

        Args:
            timeout: seconds the compile may take; past it the child is
                killed and :class:`CompileTimeoutError` raised.

        Raises:
            WorkerCrashedError: the child died during the compile.
            CompileTimeoutError: the compile took longer than ``timeout``.
        """
        if timeout is not None:
            if isinstance(timeout, bool) or not isinstance(timeout, (int, float)):
                raise errors.ArgumentTypeError(f"timeout must be a number of seconds, not {type(timeout).__name__}")
            if not timeout > 0:
                raise errors.ArgumentError(f"timeout must be positive, not {timeout!r}")
        data = _module_bytes(module)
        triple = None if target is None else _text(target, "target")
        if output not in OUTPUTS:
            raise errors.ArgumentError(f"output must be one of {', '.join(OUTPUTS)}, not {output!r}")
        line = flags_string(flags)
        result: bytes = self._call("compile", data, triple, line, output=output, timeout=timeout)
        return result

    def info(self) -> dict[str, Any]:
        """The child's LLVM version, ABI version, host and targets."""
        result: dict[str, Any] = self._call("info")
        return result

    def set_options(self, flags: Flags) -> None:
        """Set sticky LLVM options in the child (and in every replacement child)."""
        line = flags_string(flags)
        with self._lock:
            child = self._ensure_child()
            self._exchange(child, "set_options", (line,), {}, None)
            self._sticky_flags.append(line)

    def clear_options(self) -> None:
        """Drop the child's sticky options (see :meth:`Plugin.clear_options`)."""
        with self._lock:
            child = self._ensure_child()
            self._exchange(child, "clear_options", (), {}, None)
            self._sticky_flags = []

    def options(self, pattern: str | None = None) -> list[dict[str, Any]]:
        """The child's LLVM options; see :meth:`Plugin.options`."""
        if pattern is not None:
            _text(pattern, "pattern")
        result: list[dict[str, Any]] = self._call("options", pattern)
        return result
