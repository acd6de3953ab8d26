"""What the services and the forms' schemas say, in a person's words for the pages.

The API answers with messages for programs: they name a game by its id ("game 205bd073-... is
finished"), a field by its wire name ("time_control: initial: Not a valid integer.") and a list
entry by its index ("invite: 0: ..."). A page says the same in words: the thing named rather than
its id, the form's own label rather than the field's name, and a sentence with its full stop.
"""

from __future__ import annotations

import re
from typing import Any

from domain.kernel.wording import ordinal, sentence, upper_first

FIELD_WORDS = {
    "game": "the game",
    "variant": "the variant",
    "players": "the number of players",
    "options": "the game's options",
    "time_control": "the clock",
    "kind": "its kind",
    "seconds": "its seconds per move",
    "initial": "its starting time",
    "increment": "its time added per move",
    "cap": "its most time kept",
    "timeout_policy": "what happens at the deadline",
    "starts_at": "the start",
    "invite": "the players invited",
    "name": "the name",
    "password": "the password",
    "capacity": "the places",
    "notice_seconds": "the notice before each round",
    "rounds": "the rounds",
    "seats": "the seats",
    "rated": "rated or casual",
    "reason": "the reason",
    "claim": "what you claim",
    "move": "the move",
    "bot": "the server bot",
    "fill_bot": "the server bot",
}
"""Each field a page's form sends, as the form's reader knows it."""

_ID = r"'?[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}'?"
_THINGS = "(game|player|tournament|dispute|invitation)"
_NAMED = (
    (re.compile(rf"\b(?:you have )?no invitation {_ID}"), "there is no such invitation"),
    (re.compile(rf"\b(?:there is )?no (game|player|tournament|dispute|invitation) {_ID}"), r"there is no such \1"),
    (re.compile(rf"\b(game|player|tournament|dispute|invitation) {_ID}"), r"this \1"),
    (re.compile(rf"\b(?:there is )?no {_THINGS} (?!such\b)[^\s'“]\S*$"), r"there is no such \1"),
    (re.compile(_ID), "it"),
    (re.compile(r"'([^']{1,80})'"), r"“\1”"),
)
"""Ids replaced by what they name (an address's word that names nothing: "no player nobody" is
"there is no such player"); a name quoted as code (``'nope'``) quoted as in a sentence."""


def said(message: str) -> str:
    """A service's message as a page says it: no id, a capital and a full stop."""
    for pattern, words in _NAMED:
        message = pattern.sub(words, message)
    return sentence(upper_first(message.strip()))


def form_messages(messages: Any, path: tuple[str, ...] = ()) -> list[str]:
    """marshmallow's messages (a dict of lists, nested) as sentences naming the form's fields."""
    if isinstance(messages, str):
        return [_about(path, messages)]
    if isinstance(messages, list):
        return [_about(path, str(m)) for m in messages]
    out: list[str] = []
    for field, value in messages.items():
        out += form_messages(value, (*path, str(field)))
    return out


def _about(path: tuple[str, ...], message: str) -> str:
    named = [_field(p) for p in path if p != "_schema"]
    return said(f"{upper_first(', '.join(named))}: {message}" if named else message)


def _field(name: str) -> str:
    if name.isdigit():
        return f"the {ordinal(int(name) + 1)}"
    return FIELD_WORDS.get(name, name.replace("_", " "))
