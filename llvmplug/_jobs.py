"""A background thread for a standby's work, started once rather than per job.

Thread.start() waits until the new thread runs, which on a busy machine costs
milliseconds: a reset that started a thread would pay them on the caller's path.

The thread outlives every job: a job that raises ends itself, not the thread,
and its error is kept for whoever waits for that job (:meth:`Job.check`), so a
failing job surfaces as an error on the Plugin's next reset instead of leaving
that reset waiting for a job no thread will ever run.
"""

from __future__ import annotations

import queue
import threading

from . import errors

TYPE_CHECKING = False  # typing only for type checkers: its import slows a fresh process (issue 27)
if TYPE_CHECKING:
    from typing import Any, Callable


class Job:
    """One submitted function: whether it has run, and what it raised."""

    def __init__(self, name: str) -> None:
        self._name = name
        self._done = threading.Event()
        self.error: errors.InternalError | None = None

    def wait(self, timeout: float | None = None) -> bool:
        """Whether the job has run (or failed), waiting at most ``timeout`` seconds."""
        return self._done.wait(timeout)

    def check(self) -> None:
        """Wait for the job; raise :class:`InternalError` if it raised."""
        self._done.wait()
        if self.error is not None:
            raise self.error

    def _finish(self, error: BaseException | None) -> None:
        if error is not None:
            # Text, not the exception itself: its traceback would keep the
            # job's frames (and the backend they hold) alive with the Job.
            import traceback  # on first use: start-up (issue 27)

            where = traceback.extract_tb(error.__traceback__)[-1:]
            at = f" (at {where[0].filename}:{where[0].lineno})" if where else ""
            self.error = errors.InternalError(
                f"llvmplug's background job {self._name} failed: {type(error).__name__}: {error}{at}"
            )
        self._done.set()


class Jobs:
    """Runs submitted functions, one at a time, on one daemon thread."""

    def __init__(self, name: str) -> None:
        self._queue: queue.SimpleQueue[Any] = queue.SimpleQueue()
        threading.Thread(target=_serve, args=(self._queue,), name=name, daemon=True).start()

    def submit(self, function: Callable[..., Any], *args: Any) -> Job:
        """Queue ``function(*args)``; the Job tells when it has run and what it raised."""
        job = Job(getattr(function, "__name__", repr(function)))
        self._queue.put((function, args, job))
        return job

    def stop(self) -> None:
        """End the thread once the queued jobs have run."""
        self._queue.put(None)


def _serve(jobs: queue.SimpleQueue[Any]) -> None:
    while True:
        item = jobs.get()
        if item is None:
            return
        function, args, job = item
        failure = None
        try:
            function(*args)
        except BaseException as error:  # noqa: BLE001 - kept for the waiter; the thread must outlive it
            failure = error
        job._finish(failure)  # noqa: SLF001 - the Job's other half
        item = function = args = job = failure = None  # hold nothing of a backend between jobs
