"""Progress of a compile while it runs: what the shim says it is doing, and a bar for a terminal.

The shim lists its compiles in progress (``llvmplug_progress``: the stage,
parts or modules done and to do, seconds so far), read without any lock a
compile holds. A call given ``progress=`` is watched: in process by a thread
that polls the shim a few times a second; with ``isolation="process"`` by the
child, which sends each change to the parent with the call's reply.

``progress=True`` draws :class:`ProgressBar` on stderr when stderr is a
terminal (and nothing otherwise); a callable receives each :class:`Progress`.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable

from . import _abi, _log, errors
from ._record import Record

TYPE_CHECKING = False  # typing only for type checkers: its import slows a fresh process (issue 27)
if TYPE_CHECKING:
    from typing import Any, TextIO

__all__ = ["Progress", "ProgressBar"]

# How often the shim is asked: often enough for a bar to move, rarely enough
# to cost nothing (a call is a few microseconds).
POLL_SECONDS = 0.1


class Progress(Record):
    """Where one compile stands (immutable; compared and shown field by field).

    Attributes:
        call: ``"compile"`` or ``"compile_modules"``.
        stage: what it is doing now (the stage names of :class:`llvmplug.Timings`).
        done: parts or modules finished (0 until the call works on several).
        total: parts or modules to make (0 until known).
        seconds: since the call began in the shim.
    """

    __slots__ = ("call", "stage", "done", "total", "seconds")
    call: str
    stage: str
    done: int
    total: int
    seconds: float

    @classmethod
    def _from(cls, entry: Any) -> Progress:
        """From one entry of the shim's (or a child's) report; anything else is a ValueError."""
        if not isinstance(entry, dict):
            raise ValueError("a progress entry is not an object")
        values = (entry.get("call"), entry.get("stage"), entry.get("done"), entry.get("total"), entry.get("seconds"))
        types: tuple[type | tuple[type, ...], ...] = (str, str, int, int, (int, float))
        if not all(isinstance(value, kind) and not isinstance(value, bool) for value, kind in zip(values, types)):
            raise ValueError(f"a malformed progress entry: {entry!r}")
        call, stage, done, total, seconds = values
        return cls(call, stage, done, total, float(seconds))  # type: ignore[arg-type]

    def _as_dict(self) -> dict[str, Any]:
        return {"call": self.call, "stage": self.stage, "done": self.done, "total": self.total, "seconds": self.seconds}


class ProgressBar:
    """A one-line display of a compile's progress, redrawn in place on a terminal.

    Args:
        stream: where to draw (default: stderr); nothing is drawn unless it is a terminal.
        label: what is being compiled (a file name, say), shown first.
        delay: seconds a compile runs before the bar appears (short ones never show it).
    """

    WIDTH = 24

    def __init__(self, stream: TextIO | None = None, label: str = "", delay: float = 0.5) -> None:
        self._stream = sys.stderr if stream is None else stream
        self._label = label
        self._delay = delay
        self._shown = 0  # characters on the line now
        self._lock = threading.Lock()

    @property
    def active(self) -> bool:
        """Whether it draws at all (its stream is a terminal)."""
        try:
            return bool(self._stream.isatty())
        except (AttributeError, ValueError):
            return False

    def __call__(self, progress: Progress) -> None:
        if progress.seconds < self._delay or not self.active:
            return
        line = self.render(progress)
        with self._lock:
            self._stream.write("\r" + line.ljust(self._shown))
            self._stream.flush()
            self._shown = len(line)

    def render(self, progress: Progress) -> str:
        """The line for ``progress`` (no control characters)."""
        label = f"{self._label}: " if self._label else ""
        head = f"llvmplug: {label}{progress.call} {progress.stage}"
        if progress.total > 1:
            filled = self.WIDTH * progress.done // progress.total
            kind = "modules" if progress.call == "compile_modules" else "parts"
            bar = "#" * filled + "-" * (self.WIDTH - filled)
            return f"{head} [{bar}] {progress.done}/{progress.total} {kind} {progress.seconds:.1f} s"
        return f"{head} {progress.seconds:.1f} s"

    def close(self) -> None:
        """Clear the line, so that what follows starts where the bar was."""
        with self._lock:
            if self._shown:
                self._stream.write("\r" + " " * self._shown + "\r")
                self._stream.flush()
                self._shown = 0


Callback = Callable[[Progress], None]


def check(value: Any) -> Callback | None:
    """What ``progress=`` asks for: a callable, True (a bar on a terminal's stderr), or nothing."""
    if value is None or value is False:
        return None
    if value is True:
        bar = ProgressBar()
        return bar if bar.active else None
    if callable(value):
        return value
    raise errors.ArgumentTypeError(f"progress must be a bool or a callable, not {type(value).__name__}")


def finish(callback: Callback | None) -> None:
    """Close a bar that ``callback`` drew (a no-op for other callbacks)."""
    close = getattr(callback, "close", None)
    if callable(close):
        close()


class Guarded:
    """``callback`` made safe to call from llvmplug's threads: an exception it raises is logged, once.

    A progress display must not break the compile it displays, nor leave a
    child's reply unread (process isolation).
    """

    def __init__(self, callback: Callback) -> None:
        self._callback: Callback | None = callback

    def __call__(self, progress: Progress) -> None:
        callback = self._callback
        if callback is None:
            return
        try:
            callback(progress)
        except Exception:  # noqa: BLE001 - whatever it raises, the compile goes on
            self._callback = None
            _log.exception("the progress callback %r raised; it is not called again", callback)


class Watcher:
    """Polls a loaded copy's ``llvmplug_progress`` for the call of one thread; hands each change to ``callback``.

    Runs on a thread of its own from :meth:`start` to :meth:`stop` (which
    waits for it). The copy must stay loaded meanwhile: the caller holds a
    call in progress on it.
    """

    def __init__(self, lib: Any, thread: int, callback: Callback) -> None:
        self._lib = lib
        self._thread = thread
        self._callback = Guarded(callback)
        self._stop = threading.Event()
        self._runner = threading.Thread(target=self._run, name="llvmplug-progress", daemon=True)

    def start(self) -> Watcher:
        self._runner.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._runner.join()

    def _run(self) -> None:
        import json  # on first use: a fresh process need not import it

        last = None
        while not self._stop.wait(POLL_SECONDS):
            try:
                data, _ = _abi.call(self._lib, "llvmplug_progress")
                entries = json.loads(data)
                mine = [Progress._from(entry) for entry in entries if entry.get("thread") == self._thread]
            except (errors.LLVMPlugError, ValueError, AttributeError) as error:
                _log.debug("reading the progress of a compile failed: %s", error)
                return
            if mine and mine[0] != last:
                last = mine[0]
                self._callback(last)
