"""Faster making and copying of frozen, slotted dataclasses, for the records made in bulk.

A frozen dataclass's ``__init__`` assigns each field through ``object.__setattr__``
(frozen classes forbid plain assignment), and ``dataclasses.replace`` adds a walk
over the fields and a keyword dictionary on top: about 3 µs to copy the 19 fields
of the state, which ``evolve`` does at every event, and 0.5 µs to make a command,
which a listing does hundreds of times. The functions written here store straight
into the slots instead, two to four times faster, with the same result:

* ``replacer(cls)``: ``replace(old, **changes)``, like ``dataclasses.replace``;
* ``builder(cls)``: ``build(*values)``, all fields in order, like ``cls(*values)``.

They are written once per class, the way ``dataclasses`` writes ``__init__``
(source text, ``exec``), and only for classes where skipping ``__init__`` changes
nothing: frozen, slotted, every field set by ``__init__``, no ``__post_init__``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields, is_dataclass
from typing import Any, TypeVar

T = TypeVar("T")

_SAME: Any = object()
"""Default of every keyword of a replacer: keep the old value."""


def _names(cls: type) -> list[str]:
    params = getattr(cls, "__dataclass_params__", None)  # what @dataclass was given; no public accessor
    if not is_dataclass(cls) or params is None or not params.frozen or "__slots__" not in cls.__dict__:
        raise TypeError(f"{cls.__name__} is not a frozen slotted dataclass")
    if hasattr(cls, "__post_init__") or not all(f.init for f in fields(cls)):
        raise TypeError(f"{cls.__name__} sets fields outside __init__")
    return [f.name for f in fields(cls)]


def _write(cls: type, name: str, signature: str, value: Callable[[str], str]) -> Callable[..., Any]:
    """Writes ``def name(signature)`` making a new ``cls`` whose field ``n`` is ``value(n)``."""
    names = _names(cls)
    source = (
        f"def {name}({signature}):\n"
        "    new = _new(_cls)\n" + "".join(f"    _set_{n}(new, {value(n)})\n" for n in names) + "    return new\n"
    )
    scope: dict[str, Any] = {"_SAME": _SAME, "_new": object.__new__, "_cls": cls}
    scope.update({f"_set_{n}": cls.__dict__[n].__set__ for n in names})
    exec(source, scope)
    made: Callable[..., Any] = scope[name]
    made.__qualname__ = f"{name}[{cls.__name__}]"
    return made


def replacer(cls: type[T]) -> Callable[..., T]:
    """``replace(old, **changes)`` for ``cls``: a copy of ``old`` with ``changes``."""
    names = _names(cls)
    return _write(
        cls,
        "replace",
        f"old, *, {', '.join(f'{n}=_SAME' for n in names)}",
        lambda n: f"old.{n} if {n} is _SAME else {n}",
    )


def builder(cls: type[T]) -> Callable[..., T]:
    """``build(*values)`` for ``cls``: every field, in order, given."""
    return _write(cls, "build", ", ".join(_names(cls)), lambda n: n)
