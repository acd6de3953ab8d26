"""Rule citations and the errors that cite them.

Every event type and every refusal names the rule behind it, as a ``RuleRef``:
the rulebook file in ``shared/rules/``, a passage that can be found verbatim in
that file (so an arbiter can open the book at the right place), and the rule in
one line of plain English.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class RuleRef:
    """Where a rule is written, and what it says."""

    id: str
    """Stable identifier, for example ``"tarasque.rolling.set-aside"``."""
    book: str
    """File name of the rulebook under ``shared/rules/``, or ``"platform"``."""
    section: str
    """A short passage found verbatim in the book, locating the rule."""
    text: str
    """The rule in one line of English."""

    def to_json(self) -> dict[str, str]:
        return {"id": self.id, "book": self.book, "section": self.section, "text": self.text}


PLATFORM_BOOK = "platform"
"""Book name for rules the platform itself defines (seating, resigning, clocks)."""
DECISIONS_BOOK = "README.md"
"""Book name for the decisions that fill the rulebooks' gaps (``shared/rules/README.md``)."""

BOOK_TITLES: dict[str, str] = {
    PLATFORM_BOOK: "Dragonhall's own rules",
    DECISIONS_BOOK: "Dragonhall's decisions where the rulebooks are silent",
}
"""Each book's title as a person reads it (a page never shows a file name); a game's rulebook
module adds its own books with ``titled``."""


def titled(book: str, title: str) -> str:
    """Registers the title people read for ``book``, and returns the book's file name."""
    BOOK_TITLES[book] = title
    return book


def book_title(book: str) -> str:
    """The title of ``book`` (its file name, unchanged, for a book nobody titled)."""
    return BOOK_TITLES.get(book, book)


class RuleError(ValueError):
    """A command the rules refuse. Nothing is written when one is raised.

    The message names the command and what is wrong with it, and must never
    reveal hidden state (another seat's hand, goal, programmed cards or speed).
    """

    code = "rule_violation"

    def __init__(self, message: str, rule: RuleRef, **details: Any) -> None:
        super().__init__(message)
        self.message = message
        self.rule = rule
        self.details = details


class MalformedMove(RuleError):
    """The move does not have the shape of any command of the game."""

    code = "malformed_move"


class IllegalMove(RuleError):
    """A well-formed command that the rules forbid in the current position."""

    code = "illegal_move"


class NotYourTurn(IllegalMove):
    """The seat's decision is not awaited now."""

    code = "not_your_turn"


class GameOver(IllegalMove):
    """The game has ended; it accepts no more commands."""

    code = "game_over"


MOVE_SHAPE = RuleRef(
    "platform.move-shape",
    PLATFORM_BOOK,
    "moves",
    "A move is one of the game's commands, with exactly its fields and their types.",
)
TURN_ORDER = RuleRef(
    "platform.turn-order",
    PLATFORM_BOOK,
    "awaiting",
    "Only a seat whose decision is awaited may move.",
)
GAME_ENDED = RuleRef(
    "platform.game-ended",
    PLATFORM_BOOK,
    "outcome",
    "A finished game accepts no more moves.",
)
JOINING = RuleRef(
    "platform.joining",
    PLATFORM_BOOK,
    "seats",
    "A newcomer may join a running game only where the game's rules allow it.",
)
LEAVING = RuleRef(
    "platform.leaving",
    PLATFORM_BOOK,
    "resign",
    "A seat that resigns or forfeits leaves the game and ranks below those still playing.",
)
