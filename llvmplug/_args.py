"""Argument checks shared by Plugin, Pool and the CLI: written once, raising once.

Every public entry point turns its arguments into the plain values the
backends take (bytes, one flags line, ints) here, so that a backend never sees
a value it must check again. A compile's arguments become one :class:`Request`,
whichever entry point received them (``llvmplug.compile``, ``Plugin``,
``Pool``, ``fingerprint``): one set of checks and meanings for all.
"""

from __future__ import annotations

import math
import os
import shlex
import sys
import threading
from collections.abc import Sequence
from pathlib import Path

from . import _inputs, _store, errors
from ._record import Record

TYPE_CHECKING = False  # typing only for type checkers: its import slows a fresh process (issue 27)
if TYPE_CHECKING:
    from typing import Any

# What a module and flags may be given as; X | Y is a runtime type from Python 3.10 on.
if sys.version_info >= (3, 10):
    Module = str | bytes | bytearray | memoryview
    Flags = str | Sequence[str]
else:
    from typing import Union

    Module = Union[str, bytes, bytearray, memoryview]
    Flags = Union[str, Sequence[str]]

OUTPUTS = ("obj", "asm", "bc", "ll")
PART_OUTPUTS = ("obj", "asm")  # what split code generation can produce
TOGETHER_OUTPUTS = ("obj", "asm", "bc")  # compile_modules: bc stops before code generation
ISOLATIONS = ("none", "process")
POLICIES = ("safe", "all")

# The default of a keyword whose absence must be told from any value (None included).
UNSET: Any = type("Unset", (), {"__repr__": lambda self: "<unset>"})()

# RLIMIT_AS is a signed 64-bit quantity in the kernel's interface (and
# RLIM_INFINITY is all ones): anything from 2**63 on is not a limit.
MAX_MEMORY_LIMIT = 2**63 - 1


def text(value: Any, what: str) -> str:
    """``value`` if it is a str that can cross the C boundary (no NUL, valid UTF-8)."""
    if not isinstance(value, str):
        raise errors.ArgumentTypeError(f"{what} must be a str, not {type(value).__name__}")
    if "\0" in value:
        raise errors.ArgumentError(f"{what} contains a NUL character")
    utf8(value, what)
    return value


def utf8(value: str, what: str) -> bytes:
    """``value`` as UTF-8; a str can hold lone surrogates (from os.fsdecode, say), which UTF-8 cannot."""
    try:
        return value.encode("utf-8")
    except UnicodeEncodeError as error:
        raise errors.ArgumentError(
            f"{what} cannot be encoded as UTF-8: {error.reason} at index {error.start}"
        ) from None


def boolean(value: Any, what: str) -> bool:
    if not isinstance(value, bool):
        raise errors.ArgumentTypeError(f"{what} must be a bool, not {type(value).__name__}")
    return value


def choice(value: Any, what: str, names: Sequence[str]) -> str:
    """``value`` if it is one of ``names``; the error lists them all."""
    if not isinstance(value, str):
        raise errors.ArgumentTypeError(f"{what} must be one of {', '.join(names)}, not {value!r}")
    if value not in names:
        listed = ", ".join(names)
        raise errors.ArgumentError(f"{what} must be one of {listed}, not {value!r}")
    return value


def module_bytes(module: Any, what: str = "module", wrong: type[errors.LLVMPlugError] = errors.ParseError) -> bytes:
    """IR text or bitcode as bytes.

    Input that cannot be a module (a path, a binary file, C source; see
    _inputs) is ``wrong``, the error the shim gives for that input (a
    ParseError; a LinkError for a link module), saying what it looks like.
    """
    if isinstance(module, str):
        data = utf8(module, what)
    elif isinstance(module, (bytes, bytearray, memoryview)):
        data = bytes(module)
    elif isinstance(module, os.PathLike):
        raise errors.ArgumentTypeError(
            f"{what} is a path ({module!r}), not a module: give the file's contents, e.g. Path(...).read_bytes()"
        )
    else:
        raise errors.ArgumentTypeError(
            f"{what} must be IR text (str) or IR/bitcode (bytes), not {type(module).__name__}"
        )
    if not data:
        raise errors.ArgumentError(f"{what} is empty")
    problem = _inputs.not_a_module(data)
    if problem is not None:
        raise wrong(f"{what} {problem}")
    return data


def flags_string(flags: Any) -> str:
    """One flags string from a string or a sequence of separate flags.

    A sequence is quoted so that LLVM's GNU-style tokenizer (inside the shim)
    gives back exactly its items.
    """
    if isinstance(flags, str):
        return text(flags, "flags")
    if isinstance(flags, (bytes, bytearray)) or not isinstance(flags, Sequence):
        raise errors.ArgumentTypeError(f"flags must be a str or a sequence of str, not {type(flags).__name__}")
    return shlex.join(text(flag, "each flag") for flag in flags)


def shim_path(value: Any) -> Path | None:
    """The shim to load: an absolute path (never one resolved through the current directory)."""
    if value is None:
        return None
    if not isinstance(value, (str, os.PathLike)):
        raise errors.ArgumentTypeError(f"path must be a str or a path, not {type(value).__name__}")
    path = Path(value)
    if not path.is_absolute():
        raise errors.ArgumentError(f"the shim must be loaded by absolute path, not {path}")
    return path


def triple(value: Any) -> str:
    """A target triple; ``None`` is the empty string (the module's or host's triple)."""
    if value is None:
        return ""
    if text(value, "target") == "":
        raise errors.ArgumentError(
            "target is an empty string: give a triple, or None for the module's own (else the host's)"
        )
    return value


target = triple  # its name where no keyword argument called target shadows it


def module_list(values: Any) -> list[bytes]:
    """The translation units of compile_modules: a non-empty sequence of modules."""
    if isinstance(values, (str, bytes, bytearray, memoryview)) or not isinstance(values, Sequence):
        raise errors.ArgumentTypeError(
            f"modules must be a sequence of modules (IR text or bitcode), not {type(values).__name__}"
        )
    if not values:
        raise errors.ArgumentError("modules is empty: give at least one module")
    return [module_bytes(m, f"modules[{i}]") for i, m in enumerate(values)]


def count(value: Any, what: str) -> int:
    """A count of parts or threads (``what``: the caller's name for it); ``None`` is one per CPU."""
    if value is None:
        return os.cpu_count() or 1
    if isinstance(value, bool) or not isinstance(value, int):
        raise errors.ArgumentTypeError(f"{what} must be an int or None, not {type(value).__name__}")
    if not 1 <= value <= 0xFFFFFFFF:  # an unsigned int in the C ABI
        raise errors.ArgumentError(f"{what} must be between 1 and {0xFFFFFFFF}, not {value}")
    return value


def _timeout(value: Any, isolation: str) -> float | None:
    """Seconds a compile may take: finite, positive, and only where a compile can be stopped."""
    if value is None:
        return None
    if isolation != "process":
        raise errors.ArgumentError(
            "timeout needs Plugin(isolation='process'): a compile running in this process cannot be interrupted"
        )
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise errors.ArgumentTypeError(f"timeout must be a number of seconds, not {type(value).__name__}")
    if not (math.isfinite(value) and 0 < value <= threading.TIMEOUT_MAX):
        raise errors.ArgumentError(
            f"timeout must be a finite positive number of seconds (at most {threading.TIMEOUT_MAX:.0f}), not {value!r}"
        )
    return float(value)


def memory_limit(value: Any, isolation: str) -> int | None:
    """Bytes of address space for a child process (Linux RLIMIT_AS)."""
    if value is None:
        return None
    if isolation != "process":
        raise errors.ArgumentError("memory_limit needs isolation='process': threads share one address space")
    if isinstance(value, bool) or not isinstance(value, int):
        raise errors.ArgumentTypeError(f"memory_limit must be an int (bytes), not {type(value).__name__}")
    if not 0 < value <= MAX_MEMORY_LIMIT:
        raise errors.ArgumentError(f"memory_limit must be between 1 and 2**63 - 1 bytes, not {value}")
    if not sys.platform.startswith("linux"):
        raise errors.ArgumentError("memory_limit is implemented on Linux only (RLIMIT_AS)")
    return value


class Request(Record):
    """One compile, its arguments normalised and checked once.

    Attributes:
        module: the module to compile, as bytes.
        link: the modules to link into it, as bytes.
        target: the triple as given (``None``: the module's or the host's).
        flags: the flags as given (a str, or a tuple of str): the cache's
            key tells them apart, ``line`` is what the shim reads.
        output: ``"obj"``, ``"asm"``, ``"bc"`` or ``"ll"``.
        parts: how many parts split code generation may make; 0 for one output.
        cache: a Cache, ``None``, or ``PLUGIN_CACHE`` (the Plugin's own).
        timeout: seconds, or ``None``.
    """

    __slots__ = ("module", "link", "target", "flags", "output", "parts", "cache", "timeout")
    _unshown = ("module", "link")  # megabytes, in a repr
    module: bytes
    link: tuple[bytes, ...]
    target: str | None
    flags: str | tuple[str, ...]
    output: str
    parts: int
    cache: Any
    timeout: float | None

    @classmethod
    def make(
        cls,
        module: Any,
        target: Any = None,
        flags: Any = (),
        *,
        output: Any = "obj",
        link: Any = (),
        split: bool = False,
        parts: Any = None,
        cache: Any = None,
        timeout: Any = None,
        isolation: str = "none",
    ) -> Request:
        """Check and normalise a compile's arguments.

        ``split``: code generation in ``parts`` parts (``compile_parts``;
        ``None``: one per CPU); else one output, and ``parts`` must be
        ``None``. ``timeout`` is checked against ``isolation``: only a child
        process can be stopped.
        """
        seconds = _timeout(timeout, isolation)
        if isinstance(link, (str, bytes, bytearray, memoryview)) or not isinstance(link, Sequence):
            raise errors.ArgumentTypeError(
                f"link must be a sequence of modules (IR text or bitcode), not {type(link).__name__}"
            )
        data = module_bytes(module)
        linked = tuple(module_bytes(m, f"link[{i}]", errors.LinkError) for i, m in enumerate(link))
        triple(target)
        flags_string(flags)
        given_flags = flags if isinstance(flags, str) else tuple(flags)
        if not split and parts is not None:
            raise errors.ArgumentError("parts is for compile_parts; compile makes one output")
        parts_made = count(parts, "parts") if split else 0
        choice(output, "output", PART_OUTPUTS if parts_made else OUTPUTS)
        if cache is not _store.PLUGIN_CACHE:
            _store.check_cache(cache)
        return cls(data, linked, target, given_flags, output, parts_made, cache, seconds)

    @property
    def modules(self) -> list[bytes]:
        """The module to compile followed by the modules to link into it."""
        return [self.module, *self.link]

    @property
    def triple(self) -> str:
        """The target as the shim takes it ("" for the module's or the host's)."""
        return "" if self.target is None else self.target

    @property
    def line(self) -> str:
        """The flags line of this compile: the output kind first, so a -filetype= in flags wins."""
        return f"-filetype={self.output} {flags_string(self.flags)}"
