"""Commands and events: frozen records with a wire name and a visibility rule.

A game declares its commands (moves, imperative: ``SetAside``) and events
(facts, past tense: ``DiceSetAside``) as frozen dataclasses deriving from
``Command`` and ``Event``. Their fields are JSON-native or built from such
values (see ``jsonable``).

Visibility is declared, not coded, so that redaction is done in one place:

* ``SECRET`` lists the fields that only their owners may see while the game runs;
* ``OWNERS`` (events) lists the fields holding the seat or seats that own them.
  An event with ``SECRET`` fields and no ``OWNERS`` is secret to everyone (a
  shuffled deck, say). A command's owner is always the seat that made it.

Once a game has finished, everything is revealed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import Field, fields
from typing import Any, ClassVar, Generic, TypeVar

from domain.kernel.decoding import DecodeError, decode
from domain.kernel.jsonable import encode
from domain.kernel.rules import RuleRef
from domain.kernel.viewer import Viewer


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


class Record:
    """Base of commands and events. Subclasses are frozen dataclasses."""

    TYPE: ClassVar[str]
    SECRET: ClassVar[tuple[str, ...]] = ()
    __dataclass_fields__: ClassVar[dict[str, Field[Any]]]
    """Set by ``@dataclass`` on each subclass; declared so that ``fields(record)`` type-checks."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "TYPE" not in cls.__dict__:
            cls.TYPE = cls._default_type_name()

    @classmethod
    def _default_type_name(cls) -> str:
        return cls.__name__

    def data(self) -> dict[str, Any]:
        """The record's fields in JSON-native form (without ``type``)."""
        return {f.name: encode(getattr(self, f.name)) for f in fields(self)}


def _hidden(value: object) -> dict[str, Any]:
    if isinstance(value, (tuple, list, frozenset, set, dict)):
        return {"hidden": len(value)}
    return {"hidden": True}


class Command(Record):
    """A move a seat submits. Wire name: the class name in snake case."""

    @classmethod
    def _default_type_name(cls) -> str:
        return _snake(cls.__name__)

    def visible_data(self, seat: int, viewer: Viewer) -> dict[str, Any]:
        """The move as ``viewer`` may see it, ``seat`` being the mover."""
        data = self.data()
        if viewer.sees(seat):
            return data
        for name in self.SECRET:
            data[name] = _hidden(getattr(self, name))
        return data


class Event(Record):
    """A fact the rules produced. Wire name: the class name.

    ``RULE`` cites the rule the event applies; every event class must set it.
    """

    RULE: ClassVar[RuleRef]
    OWNERS: ClassVar[tuple[str, ...]] = ()

    @classmethod
    def rule_for(cls, data: Mapping[str, Any]) -> RuleRef:
        """The rule an event of this type with ``data`` (its fields as JSON) applies: ``RULE``, unless
        the type overrides this where the rule depends on the event (why a race ended). Read from its
        public fields only, so that the steps of a running game cite it as the event does."""
        return cls.RULE

    def rule(self) -> RuleRef:
        """The rule this event applies."""
        return self.rule_for(self.data())

    def owners(self) -> frozenset[int]:
        out: set[int] = set()
        for name in self.OWNERS:
            value = getattr(self, name)
            if isinstance(value, int):
                out.add(value)
            elif value is not None:
                out.update(value)
        return frozenset(out)

    def visible_data(self, viewer: Viewer) -> dict[str, Any]:
        """The event's data as ``viewer`` may see it. Override for finer rules."""
        data = self.data()
        if not self.SECRET or viewer.omniscient:
            return data
        if viewer.seat is not None and viewer.seat in self.owners():
            return data
        for name in self.SECRET:
            data[name] = _hidden(getattr(self, name))
        return data


R = TypeVar("R", bound=Record)


class Codec(Generic[R]):
    """The set of record types of one kind (a game's commands, or its events)."""

    def __init__(self, classes: Iterable[type[R]]) -> None:
        self.by_type: dict[str, type[R]] = {}
        for cls in classes:
            if cls.TYPE in self.by_type:
                raise ValueError(f"duplicate record type {cls.TYPE!r}")
            self.by_type[cls.TYPE] = cls

    @property
    def types(self) -> tuple[str, ...]:
        return tuple(self.by_type)

    def load(self, obj: object) -> R:
        """A record from its flat JSON form ``{"type": ..., **fields}``."""
        if not isinstance(obj, dict):
            raise DecodeError("", "expected an object with a 'type'")
        name = obj.get("type")
        if not isinstance(name, str) or name not in self.by_type:
            allowed = ", ".join(sorted(self.by_type))
            raise DecodeError("type", f"unknown type {name!r}; expected one of: {allowed}")
        return decode(self.by_type[name], obj)

    def load_data(self, name: str, data: dict[str, Any]) -> R:
        """A record from a type name and its data (as stored)."""
        if name not in self.by_type:
            raise DecodeError("type", f"unknown type {name!r}")
        return decode(self.by_type[name], data)

    @staticmethod
    def dump(record: R) -> dict[str, Any]:
        """The flat JSON form, ``{"type": ..., **fields}``."""
        return {"type": record.TYPE, **record.data()}
