"""The child process behind ``Plugin(isolation="process")``.

Started by :mod:`llvmplug._backend_process` as ``python -c`` (never forked: a
fork would copy the parent's threads' locks and its loaded LLVMs), it holds
one in-process backend and serves calls from its parent over two dedicated
pipes whose descriptors are its command-line arguments (see
:mod:`llvmplug._protocol`). Its stdin is /dev/null and its stdout its
parent's stderr, so nothing LLVM prints can reach the protocol.

With the sandbox (the default), once the shim is loaded and before the
first request, the child confines itself for good (Linux: no_new_privs,
Landlock, seccomp, no core dumps; see csrc/sandbox.h): from then on it can
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
from typing import Any, BinaryIO

from . import _protocol, errors
from ._backend_local import LocalBackend

# What the parent may call; anything else is a bug in the parent.
METHODS = frozenset({"compile", "compile_modules", "info", "target_info", "set_options", "clear_options",
                     "options", "passes"})


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


def _serve(backend: LocalBackend, method: str, args: tuple[Any, ...],
           confinement: dict[str, Any] | None) -> tuple[Any, ...]:
    if method not in METHODS:
        return ("error", errors.InternalError(f"llvmplug worker: no method {method!r}"), backend.poisoned)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            value = getattr(backend, method)(*args)
    except errors.LLVMPlugError as error:
        return ("error", error, backend.poisoned)
    except Exception as error:  # noqa: BLE001 - reported to the parent, which raises it
        return ("error", errors.InternalError(f"llvmplug worker: {type(error).__name__}: {error}"),
                backend.poisoned)
    messages: list[str] = []
    if method in ("compile", "compile_modules"):
        value, messages = value
    elif method == "info":
        value["sandbox"]["process"] = confinement
    return ("ok", value, messages, backend.poisoned)


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
                # replaced (llvmplug/_loader.py); after confinement no module
                # file can be read.
                import ctypes  # noqa: F401
                import fcntl  # noqa: F401
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
    while True:
        try:
            number, payload = _protocol.read_frame(requests)
        except EOFError:
            break
        method, args = pickle.loads(payload)
        _protocol.send(replies, number, _serve(backend, method, args, confinement))
    backend.unload()


if __name__ == "__main__":
    main()
