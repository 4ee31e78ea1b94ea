"""Plugin: one loaded copy of LLVM, with per-call, sticky and reset options."""

from __future__ import annotations

import contextlib
import json
import os
import shlex
import threading
import warnings
import weakref
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, Union

from . import _abi, _loader, errors

Module = Union[str, bytes, bytearray, memoryview]
Flags = Union[str, Sequence[str]]

OUTPUTS = ("obj", "asm", "bc", "ll")


def _text(value: Any, what: str) -> str:
    if not isinstance(value, str):
        raise errors.ArgumentTypeError(f"{what} must be a str, not {type(value).__name__}")
    if "\0" in value:
        raise errors.ArgumentError(f"{what} contains a NUL character")
    _utf8(value, what)
    return value


def _utf8(value: str, what: str) -> bytes:
    # A str can hold lone surrogates (from os.fsdecode, say), which UTF-8 cannot.
    try:
        return value.encode("utf-8")
    except UnicodeEncodeError as error:
        raise errors.ArgumentError(
            f"{what} cannot be encoded as UTF-8: {error.reason} at index {error.start}"
        ) from None


def _module_bytes(module: Any) -> bytes:
    if isinstance(module, str):
        data = _utf8(module, "module")
    elif isinstance(module, (bytes, bytearray, memoryview)):
        data = bytes(module)
    else:
        raise errors.ArgumentTypeError(
            f"module must be IR text (str) or IR/bitcode (bytes), not {type(module).__name__}"
        )
    if not data:
        raise errors.ArgumentError("module is empty")
    return data


def flags_string(flags: Any) -> str:
    """One flags string from a string or a sequence of separate flags.

    A sequence is quoted so that LLVM's GNU-style tokenizer (inside the shim)
    gives back exactly its items.
    """
    if isinstance(flags, str):
        return _text(flags, "flags")
    if isinstance(flags, (bytes, bytearray)) or not isinstance(flags, Sequence):
        raise errors.ArgumentTypeError(
            f"flags must be a str or a sequence of str, not {type(flags).__name__}"
        )
    return shlex.join(_text(flag, "each flag") for flag in flags)


class Plugin:
    """One loaded copy of the llvmplug shim: an LLVM of its own.

    ``Plugin()`` loads the package's shim (the copy that :func:`llvmplug.compile`
    also uses, so only one such Plugin can be loaded at a time);
    ``Plugin(private=True)`` loads a private copy of the file, whose LLVM
    options and state are independent of every other copy.

    A Plugin is safe to use from several threads: calls on one Plugin run one
    at a time (LLVM's options are global to a copy) with the GIL released, and
    :meth:`unload`/:meth:`reload` wait for calls in progress.

    After a :class:`FatalError`, a :class:`CodegenError` (LLVM is stopped at
    its first error diagnostic, because it may crash if left to carry on) or
    an :class:`InternalError` (such as LLVM running out of memory), LLVM's
    state in this copy is not trustworthy (the error unwound through LLVM
    frames that ran no destructors), so the
    Plugin marks itself :attr:`poisoned` and reloads itself before its next
    call, re-applying the options given to :meth:`set_options`. (Calls
    already under way on other threads when the error happens finish on the
    old copy.) ``reload_after_fatal=False`` turns that off: the Plugin then keeps using
    the suspect copy until you call :meth:`reload`.

    ``Plugin(isolation="process")`` gives the same API served by a child
    process (see :class:`llvmplug.process.ProcessPlugin`): a crash of LLVM
    becomes :class:`WorkerCrashedError` instead of ending this process, and
    ``compile(..., timeout=...)`` works.
    """

    def __new__(cls, *args: Any, isolation: str | None = None, **kwargs: Any) -> Plugin:
        if isolation not in (None, "none", "process"):
            raise errors.ArgumentError(
                f"isolation must be None (in process) or 'process', not {isolation!r}"
            )
        if isolation == "process":
            from .process import ProcessPlugin

            if cls is Plugin:
                return super().__new__(ProcessPlugin)
            if not issubclass(cls, ProcessPlugin):
                raise errors.ArgumentError(
                    f"{cls.__name__} runs in process; subclass llvmplug.process.ProcessPlugin "
                    "for isolation='process'"
                )
        return super().__new__(cls)

    def __init__(
        self,
        *,
        private: bool = False,
        path: str | os.PathLike[str] | None = None,
        reload_after_fatal: bool = True,
        isolation: str | None = None,
    ) -> None:
        for name, flag in (("private", private), ("reload_after_fatal", reload_after_fatal)):
            if not isinstance(flag, bool):
                raise errors.ArgumentTypeError(f"{name} must be a bool, not {type(flag).__name__}")
        self._private = private
        self._source = Path(path) if path is not None else None
        self._reload_after_fatal = reload_after_fatal
        self._poisoned = False  # a FatalError came out of the loaded copy
        self._sticky: list[bytes] = []  # set_options lines since the last load
        self._state = threading.Condition()
        self._active = 0  # calls in progress
        self._changing = False  # an unload/reload is in progress
        self._library: _loader.Library | None = None
        self._finalizer: weakref.finalize | None = None
        self._load()

    # -- lifecycle ---------------------------------------------------------

    def _load(self) -> None:
        library = _loader.Library(self._source, private=self._private)
        self._library = library
        self._finalizer = weakref.finalize(self, library.close)
        # At interpreter exit a daemon thread may still be inside the shim;
        # unmapping it then would crash the exit. The process exit unmaps it
        # anyway, and on POSIX a private copy's file is already gone. Windows
        # must FreeLibrary before it can delete the copy.
        self._finalizer.atexit = os.name == "nt"

    def _unload(self) -> None:
        finalizer, self._finalizer, self._library = self._finalizer, None, None
        self._poisoned = False
        if finalizer is not None:
            finalizer()

    def _recover(self) -> None:
        """Replace a poisoned copy by a fresh one with the same sticky options."""
        with self._changing_state():
            if not self._poisoned or self._library is None:
                return  # another thread recovered first, or unload() ran
            sticky = self._sticky
            self._unload()
            self._load()
            for line in sticky:
                _abi.call(self._library.lib, "llvmplug_set_options", line)
            self._sticky = sticky

    @contextlib.contextmanager
    def _changing_state(self) -> Iterator[None]:
        with self._state:
            while self._changing:
                self._state.wait()
            self._changing = True
            while self._active:
                self._state.wait()
        try:
            yield
        finally:
            with self._state:
                self._changing = False
                self._state.notify_all()

    @contextlib.contextmanager
    def _calling(self) -> Iterator[Any]:
        if self._poisoned and self._reload_after_fatal:
            self._recover()
        with self._state:
            while self._changing:
                self._state.wait()
            if self._library is None:
                raise errors.PluginUnloadedError("this Plugin was unloaded; call reload() first")
            self._active += 1
            lib = self._library.lib
        try:
            yield lib
        except (errors.FatalError, errors.CodegenError, errors.InternalError):
            # Each unwound through LLVM frames that ran no destructors.
            self._poisoned = True
            raise
        finally:
            with self._state:
                self._active -= 1
                if not self._active:
                    self._state.notify_all()

    def unload(self) -> None:
        """Shut this copy's LLVM down and unmap the library. Idempotent.

        Waits for calls in progress on other threads. Afterwards every method
        but :meth:`reload` raises :class:`PluginUnloadedError`.
        """
        with self._changing_state():
            self._unload()

    close = unload

    def reload(self) -> None:
        """Unload and load again: every LLVM option returns to its default."""
        with self._changing_state():
            self._unload()
            self._sticky = []
            self._load()

    @property
    def loaded(self) -> bool:
        """Whether the library is currently loaded."""
        return self._library is not None

    @property
    def poisoned(self) -> bool:
        """Whether an error that unwound through LLVM (fatal, codegen, internal) came out of the loaded copy."""
        return self._poisoned

    @property
    def private(self) -> bool:
        """Whether this Plugin holds a private copy of the shim."""
        return self._private

    @property
    def path(self) -> Path:
        """The file this Plugin loads (for a private Plugin, the original)."""
        return self._source if self._source is not None else _loader.library_path()

    @property
    def loaded_path(self) -> Path | None:
        """The file actually mapped: the private copy's path, if private."""
        library = self._library
        return library.path if library is not None else None

    def __enter__(self) -> Plugin:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.unload()

    def __repr__(self) -> str:
        state = "loaded" if self.loaded else "unloaded"
        kind = "private " if self._private else ""
        return f"<llvmplug.Plugin {kind}{state} {self.path}>"

    # -- calls -------------------------------------------------------------

    def compile(
        self,
        module: Module,
        target: str | None = None,
        flags: Flags = (),
        *,
        output: str = "obj",
        timeout: float | None = None,
    ) -> bytes:
        """Compile LLVM IR (text or bitcode) and return the output bytes.

        Args:
            module: LLVM IR text (``str`` or ``bytes``) or bitcode (``bytes``,
                raw or wrapped; detected by its magic number).
            target: a target triple; ``None`` uses the module's own triple, or
                the host's when the module has none.
            flags: llc-style flags, as one string or a sequence of flags:
                ``-O0``..``-O3`` (default ``-O2``), ``-passes=PIPELINE`` (``-passes=``
                skips IR optimisation), ``-mcpu=...``, ``-mattr=...``,
                ``-relocation-model=pic``, or any LLVM option, which applies to
                this call only.
            output: ``"obj"`` (object file), ``"asm"``, ``"bc"`` (bitcode) or
                ``"ll"`` (IR text). A ``-filetype=`` in ``flags`` takes precedence.
            timeout: seconds; only ``Plugin(isolation="process")`` can stop a
                compile, so in process anything but ``None`` is an ArgumentError.

        Raises:
            ArgumentError: bad argument values or types.
            ParseError, VerifyError, TargetError, OptionError, CodegenError,
            FatalError: what LLVM reported, with its message.
            PluginUnloadedError: the Plugin was unloaded.
        """
        if timeout is not None:
            raise errors.ArgumentError(
                "timeout needs Plugin(isolation='process'): a compile running in this "
                "process cannot be interrupted"
            )
        data = _module_bytes(module)
        triple = b"" if target is None else _text(target, "target").encode()
        if output not in OUTPUTS:
            raise errors.ArgumentError(f"output must be one of {', '.join(OUTPUTS)}, not {output!r}")
        line = f"-filetype={output} {flags_string(flags)}".encode()
        array, keep = _abi.buffers([data])
        with self._calling() as lib:
            result, message = _abi.call(lib, "llvmplug_compile", array, len(keep), triple, line, 0)
        if message:
            warnings.warn(message, errors.LLVMPlugWarning, stacklevel=2)
        return result

    # throughput-branch hook: the lead ports this onto the new Plugin.
    def compile_parts(
        self,
        module: Module,
        target: str | None = None,
        flags: Flags = (),
        *,
        parts: int | None = None,
        output: str = "obj",
    ) -> list[bytes]:
        """Compile one module into at most ``parts`` objects (or assembly files)
        generated in parallel; linking them together gives the whole program.

        ``parts=None`` uses one part per CPU. ``output`` must be ``"obj"`` or
        ``"asm"``. Otherwise as :meth:`compile`.
        """
        if parts is None:
            parts = os.cpu_count() or 1
        if isinstance(parts, bool) or not isinstance(parts, int):
            raise errors.ArgumentTypeError(f"parts must be an int, not {type(parts).__name__}")
        if not 1 <= parts <= 0xFFFFFFFF:
            raise errors.ArgumentError(f"parts must be at least 1, not {parts}")
        data = _module_bytes(module)
        triple = b"" if target is None else _text(target, "target").encode()
        if output not in OUTPUTS:
            raise errors.ArgumentError(f"output must be one of {', '.join(OUTPUTS)}, not {output!r}")
        line = f"-filetype={output} {flags_string(flags)}".encode()
        array, keep = _abi.buffers([data])
        with self._calling() as lib:
            results, message = _abi.call_parts(lib, "llvmplug_compile", array, len(keep), triple, line, parts)
        if message:
            warnings.warn(message, errors.LLVMPlugWarning, stacklevel=2)
        return results

    def info(self) -> dict[str, Any]:
        """LLVM version, ABI version, host triple/CPU/features and targets."""
        with self._calling() as lib:
            data, _ = _abi.call(lib, "llvmplug_info")
        return json.loads(data)

    def set_options(self, flags: Flags) -> None:
        """Set LLVM options for every later compile of this copy.

        They stay until set again or until :meth:`reload`. Per-call flags
        override them for one call. All flags are checked first: if one is
        bad, :class:`OptionError` is raised and nothing changes.
        """
        line = flags_string(flags).encode()
        with self._calling() as lib:
            _abi.call(lib, "llvmplug_set_options", line)
            self._sticky.append(line)

    def clear_options(self) -> None:
        """Drop every option set with :meth:`set_options`, without a reload.

        Each returns to LLVM's default. (Setting an option back to its default
        value is not the same: LLVM treats an option given explicitly, with
        any value, differently from one never given.)
        """
        with self._calling() as lib:
            _abi.call(lib, "llvmplug_clear_options")
            self._sticky = []

    def options(self, pattern: str | None = None) -> list[dict[str, Any]]:
        """LLVM's options: name, type, value, default, description, values, sticky.

        Args:
            pattern: a glob over option names (``"x86-*"``); ``None`` lists all.
        """
        glob = b"" if pattern is None else _text(pattern, "pattern").encode()
        with self._calling() as lib:
            data, _ = _abi.call(lib, "llvmplug_list_options", glob)
        return json.loads(data)
