"""A background thread for a standby's work, started once rather than per job.

Thread.start() waits until the new thread runs, which on a busy machine costs
milliseconds: a reset that started a thread would pay them on the caller's path.
"""

from __future__ import annotations

import queue
import threading
from typing import Any, Callable


class Jobs:
    """Runs submitted functions, one at a time, on one daemon thread."""

    def __init__(self, name: str) -> None:
        self._queue: queue.SimpleQueue[Any] = queue.SimpleQueue()
        threading.Thread(target=_serve, args=(self._queue,), name=name, daemon=True).start()

    def submit(self, function: Callable[..., Any], *args: Any) -> threading.Event:
        """Queue ``function(*args)``; the Event is set when it has run (or failed)."""
        done = threading.Event()
        self._queue.put((function, args, done))
        return done

    def stop(self) -> None:
        """End the thread once the queued jobs have run."""
        self._queue.put(None)


def _serve(jobs: queue.SimpleQueue[Any]) -> None:
    while True:
        job = jobs.get()
        if job is None:
            return
        function, args, done = job
        try:
            function(*args)
        finally:
            done.set()
        job = function = args = done = None  # hold nothing of a backend between jobs
