"""What a variant's options look like to a client: each field of its options dataclass, in words.

A variant's options are a frozen dataclass (``Variant.options``); each field says what it is
in its ``metadata``, read here and nowhere else:

* ``label``: the option in a few words, as a form labels it ("Start with the Silver Dragon");
  without one, the field's name in words;
* ``doc``: one sentence on what it changes;
* ``choices``: for text, the values allowed and each one's words (``{"ring": "The ring"}``);
  a field whose default is an ``Enum`` member lists its members without it, each in words
  (``TRADE_GOALS`` is "Trade goals"), unless ``choices`` words them;
* ``range``: the least and the most a number (or each number of a list) may be;
* ``per_seat``: a list with one value per seat, each ``seat_default`` unless chosen.

So a form offers each option with the right control: a checkbox for a yes-or-no, a list for
an enumeration, a number within its range, one number per seat.
"""

from __future__ import annotations

from dataclasses import MISSING, Field
from enum import Enum
from typing import Any

from domain.kernel.jsonable import encode


def describe(f: Field[Any]) -> dict[str, Any]:
    """One option as the catalogue lists it (``Variant.options_schema``)."""
    meta = f.metadata
    default = f.default if f.default is not MISSING else None
    out: dict[str, Any] = {
        "name": f.name,
        "type": str(f.type),
        "default": encode(default) if default is not None else None,
        "doc": meta.get("doc", ""),
        "label": meta.get("label") or words(f.name),
    }
    choices = _choices(default, meta.get("choices"))
    if choices:
        out["choices"] = choices
    if "range" in meta:
        out["minimum"], out["maximum"] = meta["range"]
    if meta.get("per_seat"):
        out["per_seat"] = True
        out["seat_default"] = meta.get("seat_default")
    return out


def _choices(default: Any, worded: dict[str, str] | None) -> list[dict[str, str]]:
    """The values a field may take, each with its words: an enumeration's members, or those
    its metadata lists."""
    if isinstance(default, Enum):
        named = worded or {}
        return [{"value": m.value, "label": named.get(m.value) or words(m.name)} for m in type(default)]
    return [{"value": value, "label": label} for value, label in (worded or {}).items()]


def words(name: str) -> str:
    """A code name as a person reads it: ``strict_edges`` is "Strict edges"."""
    text = name.replace("_", " ").replace("-", " ").strip().lower()
    return text[:1].upper() + text[1:]
