"""The child process behind ``Plugin(isolation="process")``.

Started by :mod:`llvmplug._backend_process` as ``python -c`` (never forked: a
fork would copy the parent's threads' locks and its loaded LLVMs), it holds
one in-process backend and serves calls from its parent over two dedicated
pipes whose descriptors are its command-line arguments (see
:mod:`llvmplug._protocol`). Its stdin is /dev/null and its stdout its
parent's stderr, so nothing LLVM prints can reach the protocol.

With the sandbox (the default), once the shim is loaded and before the
first request, the child confines itself for good (Linux: no_new_privs,
Landlock, seccomp, no core dumps; see csrc/runtime/sandbox.h): from then on it can
read the shim (to load a fresh copy after a fatal error) and /proc/cpuinfo,
and nothing else on the file system; it can run no program and open no
socket. Everything it still needs is imported or opened before that.
"""

from __future__ import annotations

import os
import pickle
import signal
import sys
import threading
import time
import warnings
from pathlib import Path

from . import _protocol, errors
from ._backend_local import LocalBackend

TYPE_CHECKING = False  # typing only for type checkers: its import slows a fresh process (issue 27)
if TYPE_CHECKING:
    from typing import Any, BinaryIO

# What the parent may call; anything else is a bug in the parent.
METHODS = frozenset(
    {"compile", "compile_modules", "info", "target_info", "set_options", "clear_options", "options", "passes"}
)


def _protocol_streams(argv: list[str]) -> tuple[BinaryIO, BinaryIO]:
    if len(argv) == 2:
        requests, replies = (int(fd) for fd in argv)
        for fd in (requests, replies):
            os.set_inheritable(fd, False)  # nothing LLVM starts may hold them
        return os.fdopen(requests, "rb", buffering=0), os.fdopen(replies, "wb", buffering=0)
    # Windows: the protocol came on stdin/stdout; move it off fds 0 and 1.
    requests_fd, replies_fd = os.dup(0), os.dup(1)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.close(devnull)
    os.dup2(2, 1)
    return os.fdopen(requests_fd, "rb", buffering=0), os.fdopen(replies_fd, "wb", buffering=0)


def _serve(
    backend: LocalBackend, method: str, args: tuple[Any, ...], confinement: dict[str, Any] | None, report: Any = None
) -> tuple[Any, ...]:
    """One call's reply. A compile's last two arguments say whether its timings are wanted and whether it
    is watched (``report`` then sends each Progress to the parent while it runs); ``info`` gains what
    confined this process (``confinement``)."""
    if method not in METHODS:
        return ("error", errors.InternalError(f"llvmplug worker: no method {method!r}"), backend.poisoned)
    timed: list[str] | None = None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if method in ("compile", "compile_modules"):
                *call, want_timings, watched = args
                timed = [] if want_timings else None
                data, messages = getattr(backend, method)(*call, timed=timed, watch=report if watched else None)
                return ("ok", (data, timed[0] if timed else None), messages, backend.poisoned)
            value = getattr(backend, method)(*args)
    except errors.LLVMPlugError as error:
        if timed:
            error._timings = timed[0]  # type: ignore[attr-defined] # what ran until it failed
        return ("error", error, backend.poisoned)
    except Exception as error:  # noqa: BLE001 - reported to the parent, which raises it
        return ("error", errors.InternalError(f"llvmplug worker: {type(error).__name__}: {error}"), backend.poisoned)
    if method == "info":
        value["sandbox"]["process"] = confinement
    return ("ok", value, [], backend.poisoned)


def _exit_with_parent(parent: int) -> None:
    """End this child once its parent is gone, even in the middle of a compile.

    EOF on the request pipe is only read between calls, so a parent killed
    during a long compile would otherwise leave the child compiling to the
    end. (Not PR_SET_PDEATHSIG: it fires when the parent *thread* that
    started the child exits, and children are started from whichever thread
    calls first.)
    """
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(1)


# Address space a compile needs beyond the mapped shim: the stack of LLVM's
# kept thread (BigStackBytes in csrc/runtime/threads.h, 32 MiB), LLVM's first
# allocations, and what confining the worker imports and starts before its
# first request (logging, the parent watcher's thread). Measured on x86-64
# Linux with the sandbox: a small module compiles with 52 MiB beyond the shim
# and what the worker had mapped before it, and runs out with 48.
_LLVM_HEADROOM = 64 << 20


def _check_memory_limit(limit: int, path: str | None) -> None:
    """ArgumentError if ``limit`` leaves no room to map the shim and compile: a clear error, not a failed mmap."""
    from . import _loader

    try:
        with open("/proc/self/statm") as statm:
            in_use = int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
        shim = os.path.getsize(path if path is not None else _loader.library_path())
    except (OSError, ValueError):
        return  # cannot tell: the limit is applied as given
    needed = in_use + shim + _LLVM_HEADROOM
    if limit < needed:
        mib = 1 << 20
        raise errors.ArgumentError(
            f"memory_limit={limit} ({limit / mib:.0f} MiB) is too small for the child process: it has "
            f"{in_use / mib:.0f} MiB of address space before the shim, the shim maps {shim / mib:.0f} MiB "
            f"and a compile needs about {_LLVM_HEADROOM // mib} MiB more (LLVM's thread stack and heap); give "
            f"at least {-(-needed // mib)} MiB (1 GiB or more leaves room for large modules)"
        )


def main() -> None:
    # Ctrl-C in a terminal reaches the whole process group; the parent
    # decides what happens to its child (it kills it if a call is cut short).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    parent = os.getppid()
    requests, replies = _protocol_streams(sys.argv[1:])
    sys.stdout = sys.stderr
    try:
        number, payload = _protocol.read_frame(requests)
        config, memory_limit = pickle.loads(payload)
        if memory_limit is not None:
            import resource

            _check_memory_limit(memory_limit, config["path"])
            resource.setrlimit(resource.RLIMIT_AS, (memory_limit, memory_limit))
        backend = LocalBackend(
            private=config["private"],
            path=None if config["path"] is None else Path(config["path"]),
            policy=config["policy"],
            reload_after_fatal=config["reload_after_fatal"],
            standby=False,
            sandbox=config["sandbox"],
        )
        confinement = None
        if config["sandbox"]:
            if sys.platform.startswith("linux"):
                # Imported on first use by the loader when a poisoned copy is
                # replaced (llvmplug/_loader.py: a memfd filled, sealed, and
                # its code mapped from the template); after confinement no
                # module file can be read.
                import ctypes  # noqa: F401
                import fcntl  # noqa: F401
            # Imported on first use by a watched call (progress), by the
            # first log record (_log) and by the first report read as JSON
            # (timings, progress, the confinement's own): the same reason.
            import json  # noqa: F401
            import logging  # noqa: F401

            from . import progress  # noqa: F401

            # Before any other thread starts: the threads this one starts later
            # inherit its confinement (Landlock has no way to reach the others).
            confinement = backend.confine_process()
    except EOFError:
        return
    except errors.LLVMPlugError as error:
        _protocol.send(replies, 0, ("error", error))
        return
    if os.name == "posix":  # a POSIX child is re-parented when its parent dies
        threading.Thread(target=_exit_with_parent, args=(parent,), daemon=True).start()
    _protocol.send(replies, number, ("ready", {"pid": os.getpid(), "loaded_path": str(backend.loaded_path)}))
    sending = threading.Lock()  # a progress frame (from the watcher's thread) and the reply never interleave
    try:
        while True:
            try:
                number, payload = _protocol.read_frame(requests)
            except EOFError:
                break
            method, args = pickle.loads(payload)

            def report(progress: Any, number: int = number) -> None:
                with sending:
                    _protocol.send(replies, number, ("progress", progress._as_dict()))

            reply = _serve(backend, method, args, confinement, report)
            with sending:
                _protocol.send(replies, number, reply)
    except MemoryError:
        # Out of memory_limit while reading a request or writing a reply (a
        # call's own MemoryError is its error): the protocol is cut mid-frame,
        # so end; the parent names the status. A traceback would only reach
        # the parent's stderr.
        os._exit(_protocol.EXIT_OUT_OF_MEMORY)
    try:
        backend.unload()
    except Exception:  # noqa: BLE001 - the process ends now and the kernel frees what unload would
        pass  # (under memory_limit, unloading can fail to start its thread after an out-of-memory call)


if __name__ == "__main__":
    main()
