"""The pipe protocol between a process Plugin and its worker (:mod:`llvmplug._worker`).

Each message is a frame: a header (magic, request number, payload length)
and a pickle. The parent sends ``(Plugin settings, memory limit)`` as request
0, then ``(method, args)`` requests; the child answers each with the same
number: ``("ready", details)`` for request 0, then ``("ok", value, warnings,
poisoned)`` or ``("error", exception, poisoned)``. A watched compile's reply
comes after ``("progress", dict)`` frames with its number, one per change
(:mod:`llvmplug.progress`). EOF on the request pipe ends the child.

The parent believes nothing it has not checked: a frame with the wrong magic
or number, a pickle that names anything but an llvmplug exception class (the
child runs LLVM on input that may be hostile, and pickle can name any
callable), or a reply of the wrong shape for its method is a
:class:`ProtocolError`, and the child is replaced.
"""

from __future__ import annotations

import io
import pickle
import struct

from . import errors

TYPE_CHECKING = False  # typing only for type checkers: its import slows a fresh process (issue 27)
if TYPE_CHECKING:
    from typing import Any, BinaryIO

MAGIC = b"LPW2"
HEADER = struct.Struct("!4sIQ")

# The child's exit status when it ran out of its memory_limit outside a call
# (reading a request, writing a reply).
EXIT_OUT_OF_MEMORY = 3


class ProtocolError(Exception):
    """A frame or reply the parent cannot believe."""


class _ReplyUnpickler(pickle.Unpickler):
    """Plain data and llvmplug's exceptions, nothing else."""

    def find_class(self, module: str, name: str) -> Any:
        if module == errors.__name__:
            found = getattr(errors, name, None)
            if isinstance(found, type) and issubclass(found, errors.LLVMPlugError):
                return found
        raise pickle.UnpicklingError(f"llvmplug's worker sent a forbidden object: {module}.{name}")


# The streams are unbuffered (raw FileIO): a buffered stream has a lock, which
# a thread blocked reading it holds across a fork, and the forked child must
# be able to close its copy of the pipe.


def send(stream: BinaryIO, number: int, message: Any) -> None:
    payload = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    data = memoryview(HEADER.pack(MAGIC, number, len(payload)) + payload)
    while data:
        written = stream.write(data)
        data = data[written or 0 :]


def _read(stream: BinaryIO, size: int) -> bytes:
    chunks = []
    while size:
        chunk = stream.read(size)
        if not chunk:
            raise EOFError("the pipe closed mid-frame")
        chunks.append(chunk)
        size -= len(chunk)
    return b"".join(chunks)


def read_frame(stream: BinaryIO) -> tuple[int, bytes]:
    """The next frame's number and payload (for the worker, which trusts its parent)."""
    magic, number, size = HEADER.unpack(_read(stream, HEADER.size))
    if magic != MAGIC:
        raise ProtocolError(f"bad frame magic {magic!r}")
    return number, _read(stream, size)


def receive(stream: BinaryIO, number: int) -> Any:
    """The reply to request ``number``, unpickled with the restricted unpickler."""
    header = _read(stream, HEADER.size)
    magic, found, size = HEADER.unpack(header)
    if magic != MAGIC:
        raise ProtocolError(f"bytes that are not a reply frame: {header!r}")
    if found != number:
        raise ProtocolError(f"a reply to request {found} when {number} was asked")
    payload = _read(stream, size)
    try:
        return _ReplyUnpickler(io.BytesIO(payload)).load()
    except Exception as error:  # noqa: BLE001 - whatever a bad pickle raises, it is a bad reply
        raise ProtocolError(f"an unreadable reply ({type(error).__name__}: {error})") from None


def _is_warnings(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


def _value_ok(method: str, args: tuple[Any, ...], value: Any) -> bool:
    if method in ("compile", "compile_modules"):  # (outputs, timings text or None)
        if not (isinstance(value, tuple) and len(value) == 2 and (value[1] is None or isinstance(value[1], str))):
            return False
        data = value[0]
        if not (isinstance(data, list) and all(type(item) is bytes for item in data)):
            return False
        if method == "compile":
            return 1 <= len(data) <= max(args[3], 1)
        return len(data) == len(args[0])  # one output per module
    if method in ("info", "target_info"):
        return isinstance(value, dict)
    if method in ("options", "passes"):
        return isinstance(value, list) and all(isinstance(item, dict) for item in value)
    return value is None  # set_options, clear_options


def check_reply(method: str, args: tuple[Any, ...], reply: Any) -> None:
    """Raise :class:`ProtocolError` unless ``reply`` is a well-formed answer to ``method``."""
    if not isinstance(reply, tuple) or not reply or not isinstance(reply[-1], bool):
        raise ProtocolError(f"a malformed reply to {method}")
    if reply[0] == "error" and len(reply) == 3:
        if type(reply[1]).__module__ == errors.__name__ and isinstance(reply[1], errors.LLVMPlugError):
            return
        raise ProtocolError(f"an error that is not llvmplug's: {type(reply[1]).__name__}")
    if reply[0] == "ok" and len(reply) == 4 and _is_warnings(reply[2]) and _value_ok(method, args, reply[1]):
        return
    raise ProtocolError(f"a reply of the wrong shape for {method}")
