"""The finite numberings of a command's fields, of which ``rl.actions`` builds a game's action
space: ``Values`` (a list), ``Grid`` (a continuous value, sampled), ``Seq`` and ``Path`` (tuples of
another field's values), and ``Listed`` for a command type numbered by its place among the listed
commands of its type. ``inferred_spec`` numbers the fields whose type hints bound them."""

from __future__ import annotations

import dataclasses
import enum
import math
import types
from collections.abc import Iterable, Mapping
from typing import Any, Literal, Protocol, Union, get_args, get_origin, get_type_hints

from domain.kernel import Command


class Field(Protocol):
    """The finite numbering of one field's values."""

    size: int

    def index(self, value: Any) -> int | None:
        """The number of ``value``, or None when it is outside the field."""

    def value(self, index: int) -> Any:
        """The value numbered ``index`` (a grid point for a grid)."""


class Values:
    """A list of values, numbered in order (enums, bools, names, small ints, ``None``)."""

    def __init__(self, values: Iterable[Any]) -> None:
        self.values = tuple(values)
        self.size = len(self.values)
        self._index = {v: i for i, v in enumerate(self.values)}
        # Enum members (and None, True, False) are singletons: found by identity, as hashing
        # an Enum member runs Python code and a listing of programmes hashes a million of them.
        self._ids = {
            id(v): i for i, v in enumerate(self.values) if isinstance(v, enum.Enum) or v is None or isinstance(v, bool)
        }

    def index(self, value: Any) -> int | None:
        found = self._ids.get(id(value))
        return found if found is not None else self._index.get(value)

    def value(self, index: int) -> Any:
        return self.values[index]


class Grid:
    """A continuous value sampled every ``step`` from ``low`` to ``high``: a value snaps to
    the nearest point, and one beyond either end by more than half a step is outside."""

    def __init__(self, low: float, high: float, step: float) -> None:
        self.low, self.high, self.step = low, high, step
        self.size = round((high - low) / step) + 1

    def index(self, value: Any) -> int | None:
        i = math.floor((float(value) - self.low) / self.step + 0.5)
        return i if 0 <= i < self.size else None

    def value(self, index: int) -> Any:
        return self.low + index * self.step


class Seq:
    """A fixed-length tuple whose items each come from ``item``."""

    def __init__(self, item: Field, length: int) -> None:
        self.item, self.length = item, length
        self.size = item.size**length

    def index(self, value: Any) -> int | None:
        if len(value) != self.length:
            return None
        out = 0
        for v in value:
            i = self.item.index(v)
            if i is None:
                return None
            out = out * self.item.size + i
        return out

    def value(self, index: int) -> Any:
        items = []
        for _ in range(self.length):
            index, i = divmod(index, self.item.size)
            items.append(self.item.value(i))
        return tuple(reversed(items))


class Path:
    """A tuple of one to ``longest`` items, each from ``item`` (a path of steps)."""

    def __init__(self, item: Field, longest: int) -> None:
        self.item, self.longest = item, longest
        self._fixed = [Seq(item, n) for n in range(1, longest + 1)]
        self._starts = [0]
        for f in self._fixed:
            self._starts.append(self._starts[-1] + f.size)
        self.size = self._starts[-1]

    def index(self, value: Any) -> int | None:
        n = len(value)
        if not 1 <= n <= self.longest:
            return None
        i = self._fixed[n - 1].index(value)
        return None if i is None else self._starts[n - 1] + i

    def value(self, index: int) -> Any:
        for n, f in enumerate(self._fixed):
            if index < self._starts[n + 1]:
                return f.value(index - self._starts[n])
        raise IndexError(index)


@dataclasses.dataclass(frozen=True)
class Listed:
    """A command type numbered by its place among the listed commands of that type (at most
    ``size``): for choices with no stable finite numbering. Documented per game."""

    size: int


Spec = Mapping[str, Field] | Listed
"""How one command type is numbered: a ``Field`` per field, or ``Listed``."""


def inferred_spec(cls: type[Command]) -> dict[str, Field] | None:
    """The numbering the type hints alone give (bools, enums, literals, optional ones), or
    None when a field needs a declared one."""
    hints = get_type_hints(cls)
    out: dict[str, Field] = {}
    for f in dataclasses.fields(cls):
        values = _finite(hints[f.name])
        if values is None:
            return None
        out[f.name] = Values(values)
    return out


def _finite(tp: object) -> tuple[Any, ...] | None:
    if tp is bool:
        return (False, True)
    if tp is type(None) or tp is None:
        return (None,)
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return tuple(tp)
    origin = get_origin(tp)
    if origin is Literal:
        return get_args(tp)
    if origin in (Union, types.UnionType):
        out: list[Any] = []
        for arg in get_args(tp):
            part = _finite(arg)
            if part is None:
                return None
            out.extend(part)
        return tuple(out)
    return None
