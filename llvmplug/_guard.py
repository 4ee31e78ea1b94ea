"""The command line's guard: a compile in a forked child, so that LLVM's crash ends in one line.

In process, a module that reaches a bug in LLVM kills the process with a
signal (SIGSEGV, SIGABRT...), and a process dying from SIGSEGV cannot run
Python to say so: the shell would print a bare "Segmentation fault". So the
command forks before it loads LLVM: the child does the work, the parent
only waits. If the child dies from a signal, the parent is alive to print
one line naming the input and to exit with a status of its own; and a
Ctrl-C is answered at once by the parent (it kills the child), instead of
when LLVM returns to Python. A fork before anything is loaded is cheap next
to starting a child with an interpreter of its own (``--isolation process``).

Where there is no fork (Windows), the work runs in this process unguarded.
"""

from __future__ import annotations

import gc
import os
import signal
import sys
from collections.abc import Callable

# The command's exit statuses that the guard itself decides (cli.EXIT_STATUS documents them all).
CRASHED = 3
INTERRUPTED = 130  # 128 + SIGINT, as a shell reports a command stopped by Ctrl-C

# Set in the parent once the child did the work and was reaped: the parent
# has loaded nothing and holds nothing to release (see cli.run).
waited = False

# Signals that the parent passes on to the child (a build system's or `timeout`'s
# SIGTERM stops the compile too) and then dies from itself, as an unguarded command would.
_PASSED_ON = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))


def signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def run(work: Callable[[], int], crashed: Callable[[str], None], interrupted: Callable[[], None]) -> int:
    """``work()``'s exit status, run in a forked child.

    ``crashed(signal_name)`` reports a child killed by a signal (LLVM
    crashed, or the out-of-memory killer); ``interrupted()`` reports a
    Ctrl-C. Both print, the guard only decides the status.
    """
    global waited
    if not hasattr(os, "fork"):
        return work()
    for stream in (sys.stdout, sys.stderr):
        stream.flush()  # or the child would write the parent's buffered text again
    # What is imported so far is never collected: a collection in the child
    # would write to (and so copy) every page of it. Measured, this makes the
    # guard's cost disappear in the noise of a compile.
    gc.freeze()
    passed: list[int] = []
    child = 0

    def pass_on(number: int, frame: object) -> None:
        passed.append(number)
        if child:
            os.kill(child, number)

    for number in _PASSED_ON:  # before the fork: no window in which a SIGTERM leaves the child behind
        signal.signal(number, pass_on)
    child = os.fork()
    if child == 0:
        _child(work)
    for number in passed:  # arrived during the fork
        os.kill(child, number)
    try:
        status = _wait(child)
    except KeyboardInterrupt:
        os.kill(child, signal.SIGKILL)  # LLVM may be mid-compile: no need to wait for it
        _wait(child)
        waited = True
        interrupted()
        return INTERRUPTED
    waited = True
    killed_by = -os.waitstatus_to_exitcode(status) if os.WIFSIGNALED(status) else 0
    if killed_by in passed:
        signal.signal(killed_by, signal.SIG_DFL)
        os.kill(os.getpid(), killed_by)
    if killed_by:
        crashed(signal_name(killed_by))
        return CRASHED
    return os.waitstatus_to_exitcode(status)


def _wait(child: int) -> int:
    while True:
        pid, status = os.waitpid(child, 0)
        if pid == child and not os.WIFSTOPPED(status):
            return status


def _child(work: Callable[[], int]) -> None:
    """Run ``work`` and leave the process with its status; never returns."""
    # Ctrl-C reaches the whole process group; the parent answers it.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for number in _PASSED_ON:
        signal.signal(number, signal.SIG_DFL)
    status = 1
    try:
        status = work()
    except SystemExit as exit_:
        status = exit_.code if isinstance(exit_.code, int) else 1
    except BaseException:  # noqa: BLE001 - reported as the interpreter would, then the status
        import traceback

        traceback.print_exc()
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass  # a closed pipe or stream: the work has reported what it could
        os._exit(status)  # not sys.exit: the interpreter's exit handlers belong to the parent
