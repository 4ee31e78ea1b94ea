"""Exceptions raised by llvmplug.

Every error from the shim arrives as one subclass of :class:`LLVMPlugError`,
chosen by the status code the C ABI returned, carrying LLVM's diagnostic text.
"""

from __future__ import annotations

import os
import re
import sys
import warnings


class LLVMPlugError(Exception):
    """Base class of every llvmplug error.

    Attributes:
        message: the diagnostic text (LLVM's, where LLVM produced it).
    """

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class ArgumentError(LLVMPlugError, ValueError):
    """An argument is missing, empty or malformed (a NUL in a string, say)."""


class ArgumentTypeError(ArgumentError, TypeError):
    """An argument has the wrong Python type."""


class ParseError(LLVMPlugError):
    """The module is neither valid LLVM IR text nor valid bitcode."""


class VerifyError(LLVMPlugError):
    """The module parsed but LLVM's verifier rejects it."""


class TargetError(LLVMPlugError):
    """Unknown target triple, CPU or CPU feature."""


class OptionError(LLVMPlugError):
    """Unknown LLVM option, bad option value, or bad ``-passes`` pipeline."""


class CodegenError(LLVMPlugError):
    """LLVM reported an error diagnostic while optimising or generating code."""


class FatalError(LLVMPlugError):
    """LLVM hit a fatal error; the loaded copy of LLVM must be reloaded."""


class InternalError(LLVMPlugError):
    """Out of memory, or an unexpected failure inside the shim."""


class LinkError(LLVMPlugError):
    """A module to link in is unparsable, for another target, or conflicts with the main module."""


class LimitError(LLVMPlugError):
    """The input exceeds a stated limit of llvmplug (such as its nesting depth)."""


class LibraryLoadError(LLVMPlugError):
    """The shim library is missing, cannot be loaded, or speaks another ABI."""


class PluginUnloadedError(LLVMPlugError):
    """The Plugin was unloaded; reload() it or create a new one."""


class WorkerCrashedError(LLVMPlugError):
    """The child process of a ``Plugin(isolation="process")`` died during a call.

    A crash inside LLVM (segfault, abort), a kill by a signal or by the
    out-of-memory killer. The next call starts a fresh child.

    Attributes:
        returncode: the child's exit status (negative: killed by that signal).
        signal: the signal's name (``"SIGSEGV"``), or ``None``.
    """

    def __init__(self, message: str, returncode: int | None = None, signal: str | None = None) -> None:
        super().__init__(message)
        self.returncode = returncode
        self.signal = signal


class CompileTimeoutError(LLVMPlugError, TimeoutError):
    """A compile ran past its ``timeout``; the child process serving it was killed and will be replaced."""


class LLVMPlugWarning(UserWarning):
    """LLVM reported warnings or remarks for a compile that succeeded."""


# Keyed by the llvmplug_status values of csrc/llvmplug.h; tests check that
# every status in the header has an entry.
_BY_STATUS: dict[int, type[LLVMPlugError]] = {
    1: ArgumentError,
    2: ParseError,
    3: VerifyError,
    4: TargetError,
    5: OptionError,
    6: CodegenError,
    7: FatalError,
    8: PluginUnloadedError,
    9: InternalError,
    10: LinkError,
    11: LimitError,
}


# How the API turns the kernel's sandbox off (csrc/runtime/sandbox.cpp); the CLI says "--no-sandbox".
SANDBOX_OFF = "Plugin(sandbox=False)"


def _abridge(match: re.Match[str]) -> str:
    word = match.group()
    return f"{word[:100]}...({len(word) - 120} characters left out)...{word[-20:]}"


def error_for(status: int, message: str) -> LLVMPlugError:
    """The exception for a status code of the C ABI."""
    kind = _BY_STATUS.get(status, InternalError)
    # LLVM quotes what it rejects; a megabyte-long flag would make a
    # megabyte-long message. No real name or value is that long.
    message = re.sub(r"\S{1024,}", _abridge, message)
    return kind(message or f"llvmplug call failed with status {status}")


_PACKAGE = os.path.dirname(os.path.abspath(__file__)) + os.sep


def warn(message: str, category: type[Warning] = LLVMPlugWarning) -> None:
    """Warn, pointing at the caller's line: the first frame outside the llvmplug package.

    A fixed stacklevel is right for one path only: llvmplug.compile reaches
    the same warning through one more frame than Plugin.compile, and Python
    then names llvmplug/__init__.py (and shows the warning once for every
    caller, the location being the same). LLVM's diagnostics end in a newline,
    which would print as a blank line.
    """
    frame = sys._getframe(1)  # noqa: SLF001 - the documented way to walk the stack cheaply
    level = 2
    while frame.f_back is not None and os.path.abspath(frame.f_code.co_filename).startswith(_PACKAGE):
        frame = frame.f_back
        level += 1
    warnings.warn(message.rstrip("\n"), category, stacklevel=level)
