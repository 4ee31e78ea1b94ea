"""Backend: what Plugin asks of the copy of LLVM it runs, in this process or in a child.

Plugin checks every argument once and hands plain values (bytes, one flags
line, ints) to one of two implementations: ``_backend_local.LocalBackend``
(the shim loaded here) and ``_backend_process.ProcessBackend`` (a child
process runs a LocalBackend). Neither imports Plugin; mypy checks that both
have this shape (tests/test_habits.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol


class Backend(Protocol):
    # -- lifecycle: idempotent unload; reload gives a fresh copy (options at their defaults)
    def unload(self) -> None: ...

    def reload(self) -> None: ...

    # -- state
    @property
    def loaded(self) -> bool: ...

    @property
    def poisoned(self) -> bool: ...

    @property
    def loaded_path(self) -> Path | None: ...

    @property
    def worker_pid(self) -> int | None: ...

    @property
    def sticky_options(self) -> tuple[str, ...]: ...

    # -- calls: (outputs, LLVM's warnings); ``timed`` receives the call's timings
    # (JSON), on failure too; ``watch`` is a progress callback.
    def compile(
        self,
        modules: list[bytes],
        target: str,
        line: str,
        parts: int,
        timeout: float | None = None,
        timed: list[str] | None = None,
        watch: Any = None,
    ) -> tuple[list[bytes], list[str]]: ...

    def compile_modules(
        self,
        modules: list[bytes],
        links: list[bytes],
        target: str,
        line: str,
        threads: int,
        timeout: float | None = None,
        timed: list[str] | None = None,
        watch: Any = None,
    ) -> tuple[list[bytes], list[str]]: ...

    def info(self) -> dict[str, Any]: ...

    def target_info(self, triple: str) -> dict[str, Any]: ...

    def set_options(self, line: str) -> None: ...

    def clear_options(self) -> None: ...

    def options(self, pattern: str) -> list[dict[str, Any]]: ...

    def passes(self, pattern: str) -> list[dict[str, Any]]: ...
