"""An aggregate's id as the store holds it: a UUID that keeps the text it was read from.

The read models key every row by the game's id as text, so each of them turned each event's
``originator_id`` back into text: ``UUID.__str__`` formats the 128-bit integer anew each time,
and five read models over every event made it 8% of the projection process's busy time (py-spy,
``http_load.py``). The SQLite store holds the id as that very text, so the UUID read from it keeps
it, and ``str`` hands it back."""

from __future__ import annotations

from typing import Any
from uuid import UUID


class StoredUUID(UUID):
    """A UUID read from its canonical text (``str(uuid)``), which ``str`` returns as it was read."""

    __slots__ = ("_text",)
    _text: str

    def __init__(self, text: str) -> None:
        super().__init__(text)
        canonical = text if len(text) == 36 and text == text.lower() else UUID.__str__(self)
        object.__setattr__(self, "_text", canonical)

    def __str__(self) -> str:
        return self._text

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return StoredUUID, (self._text,)
