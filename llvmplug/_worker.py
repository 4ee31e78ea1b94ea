"""The child process behind ``Plugin(isolation="process")``.

Started by :mod:`llvmplug.process` as ``python -c`` (never forked: a fork
would copy the parent's threads' locks and its loaded LLVMs), it holds one
in-process :class:`~llvmplug.Plugin` and serves calls from its parent.

Protocol: the parent writes pickled tuples to the child's stdin and reads
pickled tuples from its stdout; a pickle is self-delimiting, so no framing is
needed. The first message is ``(Plugin keyword arguments, memory limit)``; the child answers
``("ready", details)`` or ``("error", exception)``. Then each request is
``(method, args, kwargs)`` and each reply ``("ok", value, warnings)`` or
``("error", exception)``. EOF on stdin ends the child.
"""

from __future__ import annotations

import os
import pickle
import signal
import sys
import threading
import time
import warnings
from typing import Any, BinaryIO

from . import errors
from .plugin import Plugin

# What the parent may call; anything else is a bug in the parent.
METHODS = frozenset({"compile", "info", "set_options", "clear_options", "options"})


def _protocol_streams() -> tuple[BinaryIO, BinaryIO]:
    """Take stdin/stdout for the protocol; point fds 0 and 1 elsewhere.

    LLVM prints to stdout for some options; a stray byte there would corrupt
    the reply stream, so fd 1 becomes a copy of stderr.
    """
    requests = os.fdopen(os.dup(0), "rb")
    replies = os.fdopen(os.dup(1), "wb")
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.close(devnull)
    os.dup2(2, 1)
    sys.stdin = open(os.devnull)  # noqa: SIM115 - lives as long as the process
    sys.stdout = sys.stderr
    return requests, replies


def _send(stream: BinaryIO, message: tuple[Any, ...]) -> None:
    pickle.dump(message, stream, protocol=pickle.HIGHEST_PROTOCOL)
    stream.flush()


def _serve(plugin: Plugin, method: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Any, ...]:
    if method not in METHODS:
        return ("error", errors.InternalError(f"llvmplug worker: no method {method!r}"))
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", errors.LLVMPlugWarning)
            value = getattr(plugin, method)(*args, **kwargs)
    except errors.LLVMPlugError as error:
        return ("error", error)
    except Exception as error:  # noqa: BLE001 - reported to the parent, which raises it
        return ("error", errors.InternalError(f"llvmplug worker: {type(error).__name__}: {error}"))
    return ("ok", value, [str(w.message) for w in caught if issubclass(w.category, errors.LLVMPlugWarning)])


def _exit_with_parent(parent: int) -> None:
    """End this child once its parent is gone, even in the middle of a compile.

    EOF on stdin is only read between calls, so a parent killed during a long
    compile would otherwise leave the child compiling to the end. (Not
    PR_SET_PDEATHSIG: it fires when the parent *thread* that started the child
    exits, and children are started from whichever thread calls first.)
    """
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(1)


def main() -> None:
    # Ctrl-C in a terminal reaches the whole process group; the parent
    # decides what happens to its child (it kills it if a call is cut short).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if os.name == "posix":  # a POSIX child is re-parented when its parent dies
        threading.Thread(target=_exit_with_parent, args=(os.getppid(),), daemon=True).start()
    requests, replies = _protocol_streams()
    try:
        config, memory_limit = pickle.load(requests)
        if memory_limit is not None:
            import resource

            resource.setrlimit(resource.RLIMIT_AS, (memory_limit, memory_limit))
        plugin = Plugin(**config)
    except EOFError:
        return
    except errors.LLVMPlugError as error:
        _send(replies, ("error", error))
        return
    _send(replies, ("ready", {"pid": os.getpid(), "loaded_path": str(plugin.loaded_path)}))
    while True:
        try:
            method, args, kwargs = pickle.load(requests)
        except EOFError:
            break
        _send(replies, _serve(plugin, method, args, kwargs))
    plugin.unload()


if __name__ == "__main__":
    main()
