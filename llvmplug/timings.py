"""Timings: how long a compile spent in each stage, as the shim measured it.

A long compile is otherwise silent, and LLVM's own ``-time-passes`` prints
(the safe policy refuses it). Every compile records its stages in the shim
at the cost of a few clock reads; they are read and parsed only for a call
given ``timings=`` (see ``llvmplug_result_timings`` in csrc/llvmplug.h).

    >>> t = llvmplug.Timings()
    >>> obj = llvmplug.compile(ir, timings=t)
    >>> print(t)              # a table: wait, parse, optimise, codegen...
    >>> t.stages["codegen"]   # seconds
"""

from __future__ import annotations

from . import errors
from ._record import Fields

TYPE_CHECKING = False  # typing only for type checkers: its import slows a fresh process (issue 27)
if TYPE_CHECKING:
    from typing import Any

__all__ = ["Timings"]


class Timings(Fields):
    """The stages of one compile; pass one as ``timings=`` and read it once the call returns or raises.

    Attributes:
        call: ``"compile"`` or ``"compile_modules"`` ("" until filled).
        seconds: the whole call, in the shim.
        stages: seconds per stage of the whole call, in the order they
            began: ``"wait"`` (for the copy: other compiles with other
            options, or one that runs alone), ``"parse"`` (parsing,
            verifying, choosing the target), ``"link"``, ``"check"``,
            ``"optimise"``, ``"codegen"`` (or ``"write"`` for bitcode and
            IR text), and for work in parallel ``"split"``,
            ``"summarise"``, ``"import"`` (ThinLTO's thin link) and
            ``"optimise+codegen"``.
        parts: the stages of each part (``compile_parts``) or module
            (``compile_modules``) worked on in parallel, in order.
        cached: the result came from a :class:`llvmplug.Cache`: nothing ran.

    A failed compile fills it too, up to the stage that failed.
    """

    # Fields, not a dataclass: start-up (_record.py).
    __slots__ = ("call", "seconds", "stages", "parts", "cached")

    def __init__(
        self,
        call: str = "",
        seconds: float = 0.0,
        stages: dict[str, float] | None = None,
        parts: list[dict[str, float]] | None = None,
        cached: bool = False,
    ) -> None:
        self.call = call
        self.seconds = seconds
        self.stages: dict[str, float] = {} if stages is None else stages
        self.parts: list[dict[str, float]] = [] if parts is None else parts
        self.cached = cached

    def _clear(self) -> None:
        self.call, self.seconds, self.stages, self.parts, self.cached = "", 0.0, {}, [], False

    def _fill(self, text: str) -> None:
        """Fill from the shim's JSON (llvmplug_result_timings); a malformed text is an InternalError."""
        self._clear()
        import json  # on first use: a fresh process need not import it

        try:
            data = json.loads(text)
            if not data:
                return
            self.call = str(data["call"])
            self.seconds = float(data["seconds"])
            self.stages = _stages(data["stages"])
            self.parts = [_stages(part["stages"]) for part in data["parts"]]
        except (ValueError, KeyError, TypeError) as error:
            raise errors.InternalError(f"the shim's timings are unreadable ({error}): {text[:200]!r}") from None

    def _fill_cached(self) -> None:
        self._clear()
        self.cached = True

    def __str__(self) -> str:
        """A table for people: each stage with its seconds and share, then the parts' spread."""
        if self.cached:
            return "served from the cache: nothing was compiled"
        if not self.call:
            return "no timings (the call did not reach the shim)"
        total = self.seconds or 1e-12
        lines = [f"{self.call}: {_seconds(self.seconds)} in all"]
        width = max((len(name) for name in self.stages), default=0)
        for name, seconds in self.stages.items():
            lines.append(f"  {name:<{width}}  {_seconds(seconds):>9}  {100 * seconds / total:5.1f}%")
        if self.parts:
            kind = "modules" if self.call == "compile_modules" else "parts"
            totals = [sum(part.values()) for part in self.parts]
            if len(self.parts) == 1:
                kind = kind[:-1]
            lines.append(
                f"  {len(self.parts)} {kind} in parallel: each {_seconds(min(totals))} to {_seconds(max(totals))}"
            )
            for name in dict.fromkeys(stage for part in self.parts for stage in part):
                spent = [part.get(name, 0.0) for part in self.parts]
                lines.append(f"    {name:<{width}}  {_seconds(sum(spent)):>9} summed, longest {_seconds(max(spent))}")
        return "\n".join(lines)


def _stages(entries: Any) -> dict[str, float]:
    stages: dict[str, float] = {}
    for entry in entries:
        stages[str(entry["stage"])] = stages.get(str(entry["stage"]), 0.0) + float(entry["seconds"])
    return stages


def _seconds(value: float) -> str:
    if value >= 1:
        return f"{value:.2f} s"
    if value >= 1e-3:
        return f"{value * 1e3:.1f} ms"
    return f"{value * 1e6:.0f} µs"


def check(value: Any) -> Timings | None:
    """``value`` if it is a :class:`Timings` or None; else ArgumentTypeError."""
    if value is not None and not isinstance(value, Timings):
        raise errors.ArgumentTypeError(f"timings must be an llvmplug.Timings or None, not {type(value).__name__}")
    return value
