"""The ``llvmplug`` logger: what an operator may want in a long-running service's logs.

Records: copies loaded, reloaded and swapped (a standby swapped in), copies
poisoned and replaced, worker processes started, crashed, timed out and
replaced, and every failed write of a :class:`llvmplug.Cache` (the
LLVMPlugWarning says so once per Cache; the log says it each time). Nothing
is printed by default: the logger has a NullHandler, so Python's last-resort
handler stays quiet until the application configures logging, e.g.
``logging.getLogger("llvmplug").setLevel(logging.INFO)`` with a handler.

``logging`` is imported on the first record, not with llvmplug (it costs
about as much as the rest of ``import llvmplug``); the NullHandler is in
place before that record is made.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing only for type checkers: its import slows a fresh process (issue 27)
if TYPE_CHECKING:
    from typing import Any


NAME = "llvmplug"

_logger: Any = None


def logger() -> Any:
    """The ``llvmplug`` logger, with its NullHandler."""
    global _logger
    if _logger is None:
        import logging

        found = logging.getLogger(NAME)
        if not any(isinstance(handler, logging.NullHandler) for handler in found.handlers):
            found.addHandler(logging.NullHandler())
        _logger = found
    return _logger


def debug(message: str, *args: Any) -> None:
    logger().debug(message, *args)


def info(message: str, *args: Any) -> None:
    logger().info(message, *args)


def warning(message: str, *args: Any) -> None:
    logger().warning(message, *args)


def exception(message: str, *args: Any) -> None:
    logger().exception(message, *args)
