"""A system library: functions found by name without a dynamic loader.

Runtimes for targets with no ``dlopen``/``dlsym`` (bare-metal microcontrollers,
TVM's C runtime with its "system library") find generated functions through a
table linked into the program instead. :func:`system_library` builds that
table as an object file for any target: it holds a name -> address table and
a lookup function, and references the functions as external symbols, so the
linker resolves them to the objects that define them.

In C the result reads as::

    void *PREFIX_lookup(const char *name);   /* NULL when name is unknown */
    extern const struct { const char *name; void *address; } PREFIX_table[];
    /* PREFIX_table ends with an entry whose name is NULL. */

The lookup compares bytes itself and calls nothing, so it links on targets
without a C library.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from . import _default
from .errors import ArgumentError, ArgumentTypeError

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def _escaped(data: bytes) -> str:
    """``data`` for a quoted IR string: printable ASCII as is, other bytes (and ``"``, ``\\``) as ``\\XX``."""
    return "".join(chr(b) if 32 <= b < 127 and chr(b) not in '"\\' else f"\\{b:02X}" for b in data)


def _llvm_name(name: str) -> str:
    return f'@"{_escaped(name.encode())}"'


def _c_string(name: str) -> tuple[str, int]:
    data = name.encode() + b"\0"
    return f'c"{_escaped(data)}"', len(data)


def system_library_ir(functions: Sequence[str], prefix: str = "llvmplug_syslib") -> str:
    """The LLVM IR of :func:`system_library` (target-neutral: no triple, no data layout)."""
    if isinstance(functions, (str, bytes)) or not isinstance(functions, Sequence):
        raise ArgumentTypeError(f"functions must be a sequence of function names, not {type(functions).__name__}")
    names = list(functions)
    if not names:
        raise ArgumentError("a system library needs at least one function name")
    for name in names:
        if not isinstance(name, str):
            raise ArgumentTypeError(f"function names are str, not {type(name).__name__}: {name!r}")
        if not name or "\0" in name:
            raise ArgumentError(f"invalid function name {name!r} (empty or with a NUL)")
        try:
            name.encode()
        except UnicodeEncodeError:
            raise ArgumentError(f"invalid function name {name!r}: not encodable as UTF-8 (a lone surrogate)") from None
        # LLVM reserves "llvm." for intrinsics, which have no address; its IR
        # parser frees one it renames while the table still points at it
        # (old llvmplug: a SIGSEGV for llvm.x86.sse2.pmulu.dq).
        if name.startswith("llvm."):
            raise ArgumentError(
                f"invalid function name {name!r}: names starting with 'llvm.' are "
                "LLVM's intrinsics, which have no address"
            )
    duplicates = sorted({name for name in names if names.count(name) > 1})
    if duplicates:
        raise ArgumentError(f"function names given twice: {', '.join(duplicates)}")
    if not isinstance(prefix, str) or not _IDENTIFIER.match(prefix):
        raise ArgumentError(f"prefix must be a C identifier, not {prefix!r}")
    ours = {f"{prefix}_lookup", f"{prefix}_table"}
    clash = ours.intersection(names)
    if clash:
        raise ArgumentError(f"{', '.join(sorted(clash))} is the system library's own symbol; choose another prefix")

    count = len(names) + 1  # the NULL sentinel ends the table
    lines = ["; a system library made by llvmplug.system_library"]
    entries = []
    # The name strings are unnamed globals (@0, @1, ...), which no function
    # name can collide with (a function named ".name.0" once could).
    for index, name in enumerate(names):
        literal, size = _c_string(name)
        lines.append(f"@{index} = private unnamed_addr constant [{size} x i8] {literal}")
        # The real signature does not matter: only the address is taken.
        lines.append(f"declare void {_llvm_name(name)}()")
        entries.append(f"{{ ptr, ptr }} {{ ptr @{index}, ptr {_llvm_name(name)} }}")
    entries.append("{ ptr, ptr } zeroinitializer")
    table = f"@{prefix}_table"
    lines.append(f"{table} = constant [{count} x {{ ptr, ptr }}] [{', '.join(entries)}]")
    # "no-builtins": the byte loop must not turn into a call to strcmp, which
    # a bare-metal program may not have.
    lines.append(f"""
define ptr @{prefix}_lookup(ptr %name) #0 {{
entry:
  br label %scan
scan:
  %i = phi i32 [ 0, %entry ], [ %i.next, %next ]
  %slot = getelementptr inbounds [{count} x {{ ptr, ptr }}], ptr {table}, i32 0, i32 %i, i32 0
  %candidate = load ptr, ptr %slot
  %end = icmp eq ptr %candidate, null
  br i1 %end, label %missing, label %compare
compare:
  %j = phi i32 [ 0, %scan ], [ %j.next, %same ]
  %a.at = getelementptr inbounds i8, ptr %candidate, i32 %j
  %b.at = getelementptr inbounds i8, ptr %name, i32 %j
  %a = load i8, ptr %a.at
  %b = load i8, ptr %b.at
  %differ = icmp ne i8 %a, %b
  br i1 %differ, label %next, label %equal
equal:
  %last = icmp eq i8 %a, 0
  br i1 %last, label %found, label %same
same:
  %j.next = add i32 %j, 1
  br label %compare
found:
  %address.at = getelementptr inbounds [{count} x {{ ptr, ptr }}], ptr {table}, i32 0, i32 %i, i32 1
  %address = load ptr, ptr %address.at
  ret ptr %address
next:
  %i.next = add i32 %i, 1
  br label %scan
missing:
  ret ptr null
}}

attributes #0 = {{ nounwind "no-builtins" }}
""")
    return "\n".join(lines)


def system_library(
    functions: Sequence[str], target: str | None = None, flags=(), *, prefix: str = "llvmplug_syslib", plugin=None
) -> bytes:
    """An object file with a name -> address table of ``functions`` and ``PREFIX_lookup(name)``.

    ``target`` and ``flags`` are as for :func:`llvmplug.compile` (``None``: the
    host); link the object with the objects that define the functions. Nothing
    in it needs a C library or a dynamic loader.
    """
    ir = system_library_ir(functions, prefix)
    if plugin is None:
        plugin = _default.default_plugin()
    return plugin.compile(ir, target, flags)
