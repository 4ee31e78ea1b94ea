"""Fields and Record: llvmplug's records (Timings; a compile's Request, CacheStats, Progress), without dataclasses."""

from __future__ import annotations

TYPE_CHECKING = False  # typing only for type checkers: its import slows a fresh process (issue 27)
if TYPE_CHECKING:
    from typing import Any


class Fields:
    """A record whose fields are its ``__slots__``: compared and shown field by field (mutable, unhashable).

    What ``@dataclass`` made of :class:`Timings` and ``@dataclass(frozen=True)``
    (see :class:`Record`) of the others, without importing dataclasses (and
    inspect with it), which cost a fresh process a noticeable part of its way
    to its first object (issue 27).
    """

    __slots__: tuple[str, ...] = ()
    _unshown: tuple[str, ...] = ()  # fields left out of repr()

    def _values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self.__slots__)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._values() == other._values()

    # Defining __eq__ leaves __hash__ None: unhashable, as a mutable dataclass with eq.

    def __repr__(self) -> str:
        shown = (f"{name}={getattr(self, name)!r}" for name in self.__slots__ if name not in self._unshown)
        return f"{type(self).__name__}({', '.join(shown)})"


class Record(Fields):
    """An immutable :class:`Fields`, hashed field by field, made with every field given."""

    __slots__: tuple[str, ...] = ()

    def __init__(self, *values: Any, **named: Any) -> None:
        fields = self.__slots__
        if len(values) > len(fields) or set(named) - set(fields[len(values) :]):
            raise TypeError(f"{type(self).__name__}() takes the fields {', '.join(fields)}, once each")
        given = {**dict(zip(fields, values)), **named}
        if len(given) != len(fields):
            missing = [name for name in fields if name not in given]
            raise TypeError(f"{type(self).__name__}() missing {', '.join(missing)}")
        for name in fields:
            object.__setattr__(self, name, given[name])

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"cannot assign to field {name!r} of a {type(self).__name__}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r} of a {type(self).__name__}")

    def __hash__(self) -> int:
        return hash(self._values())
