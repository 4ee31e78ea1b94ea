"""Argument checks shared by Plugin, Pool and the CLI: written once, raising once.

Every public entry point turns its arguments into the plain values the
backends take (bytes, one flags line, ints) here, so that a backend never sees
a value it must check again.
"""

from __future__ import annotations

import math
import os
import shlex
import sys
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Union

from . import errors

Module = Union[str, bytes, bytearray, memoryview]
Flags = Union[str, Sequence[str]]

OUTPUTS = ("obj", "asm", "bc", "ll")
PART_OUTPUTS = ("obj", "asm")  # what split code generation can produce
TOGETHER_OUTPUTS = ("obj", "asm", "bc")  # compile_modules: bc stops before code generation
ISOLATIONS = ("none", "process")
POLICIES = ("safe", "all")

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


def module_bytes(module: Any, what: str = "module") -> bytes:
    """IR text or bitcode as bytes."""
    if isinstance(module, str):
        data = utf8(module, what)
    elif isinstance(module, (bytes, bytearray, memoryview)):
        data = bytes(module)
    else:
        raise errors.ArgumentTypeError(
            f"{what} must be IR text (str) or IR/bitcode (bytes), not {type(module).__name__}"
        )
    if not data:
        raise errors.ArgumentError(f"{what} is empty")
    return data


def link_modules(link: Any) -> list[bytes]:
    """The modules to link in."""
    if isinstance(link, (str, bytes, bytearray, memoryview)) or not isinstance(link, Sequence):
        raise errors.ArgumentTypeError(
            f"link must be a sequence of modules (IR text or bitcode), not {type(link).__name__}"
        )
    return [module_bytes(m, f"link[{i}]") for i, m in enumerate(link)]


def modules(module: Any, link: Any) -> list[bytes]:
    """The module to compile followed by the modules to link into it."""
    return [module_bytes(module)] + link_modules(link)


def flags_string(flags: Any) -> str:
    """One flags string from a string or a sequence of separate flags.

    A sequence is quoted so that LLVM's GNU-style tokenizer (inside the shim)
    gives back exactly its items.
    """
    if isinstance(flags, str):
        return text(flags, "flags")
    if isinstance(flags, (bytes, bytearray)) or not isinstance(flags, Sequence):
        raise errors.ArgumentTypeError(
            f"flags must be a str or a sequence of str, not {type(flags).__name__}"
        )
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


def target(value: Any) -> str:
    """A target triple; ``None`` is the empty string (the module's or host's triple)."""
    return "" if value is None else text(value, "target")


def compile_line(output: str, flags: Any, outputs: Sequence[str] = OUTPUTS) -> str:
    """The flags line of one compile: the output kind first, so a -filetype= in flags wins."""
    choice(output, "output", outputs)
    return f"-filetype={output} {flags_string(flags)}"


def module_list(values: Any) -> list[bytes]:
    """The translation units of compile_modules: a non-empty sequence of modules."""
    if isinstance(values, (str, bytes, bytearray, memoryview)) or not isinstance(values, Sequence):
        raise errors.ArgumentTypeError(
            f"modules must be a sequence of modules (IR text or bitcode), not {type(values).__name__}")
    if not values:
        raise errors.ArgumentError("modules is empty: give at least one module")
    return [module_bytes(m, f"modules[{i}]") for i, m in enumerate(values)]


def parts(value: Any) -> int:
    """How many parts split code generation may make; ``None`` is one per CPU."""
    if value is None:
        return os.cpu_count() or 1
    if isinstance(value, bool) or not isinstance(value, int):
        raise errors.ArgumentTypeError(f"parts must be an int or None, not {type(value).__name__}")
    if not 1 <= value <= 0xFFFFFFFF:  # an unsigned int in the C ABI
        raise errors.ArgumentError(f"parts must be between 1 and {0xFFFFFFFF}, not {value}")
    return value


def timeout(value: Any, isolation: str) -> float | None:
    """Seconds a compile may take: finite, positive, and only where a compile can be stopped."""
    if value is None:
        return None
    if isolation != "process":
        raise errors.ArgumentError(
            "timeout needs Plugin(isolation='process'): a compile running in this "
            "process cannot be interrupted"
        )
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise errors.ArgumentTypeError(f"timeout must be a number of seconds, not {type(value).__name__}")
    if not (math.isfinite(value) and 0 < value <= threading.TIMEOUT_MAX):
        raise errors.ArgumentError(
            f"timeout must be a finite positive number of seconds (at most {threading.TIMEOUT_MAX:.0f}), "
            f"not {value!r}"
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
