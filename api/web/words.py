"""Words for what the pages about people show: clocks, durations, options, variants and the
answers to invitations. Every game's options and variants are worded from the catalogue
(``Variant.options_schema``: each option's label and its choices' words), so no page names a game."""

from __future__ import annotations

from typing import Any

from domain.kernel import ConfigError, find_game
from domain.kernel.narration import display_name
from services.play.invitations import DECLINE_REASONS

UNITS = ((86400, "day"), (3600, "hour"), (60, "minute"), (1, "second"))


def duration(seconds: int | float) -> str:
    """``seconds`` in words, at most two units: "1 day", "2 hours 30 minutes", "45 seconds"."""
    left = int(seconds)
    parts: list[str] = []
    for size, unit in UNITS:
        if left >= size and len(parts) < 2:
            count, left = divmod(left, size)
            parts.append(f"{count} {unit}{'' if count == 1 else 's'}")
        elif parts:
            break
    return " ".join(parts) or "no time"


def clock_text(tc: dict[str, Any] | None) -> str:
    """A time control in words."""
    tc = tc or {}
    kind = tc.get("kind", "none")
    if kind == "per_move":
        return f"{duration(tc.get('seconds', 0))} a move"
    if kind == "bank":
        return (
            f"a time bank of {duration(tc.get('initial', 0))}, {duration(tc.get('increment', 0))} more a move, "
            f"at most {duration(tc.get('cap', 0))}"
        )
    return "no clock"


def server_bots(game: str) -> list[tuple[str, str]]:
    """A game's server bots to choose from, each ``(bot, words)``: its ladder from the weakest up,
    by level ("the server's Level 3 bot, which weighs every move by the harvest it expects"), then
    any bot off the ladder by its name, as the game's seats name them."""
    ruleset = find_game(game)
    ladder = [(r.bot, f"the server's Level {n} bot, which {r.about}") for n, r in enumerate(ruleset.ladder, 1)]
    listed = {bot for bot, _ in ladder}
    others = sorted(bot for bot in ruleset.bots if bot not in listed)
    return ladder + [(bot, f"the server's {display_name({'seat': 0, 'bot': bot})}") for bot in others]


def variant_title(game: str, variant: str | None) -> str:
    """The variant's title as the catalogue gives it (its name in words if the game is unknown)."""
    try:
        return find_game(game).variant(variant).title
    except ConfigError:
        return (variant or "").replace("-", " ")


def options_text(game: str, variant: str | None, options: dict[str, Any] | None) -> list[str]:
    """Each option that differs from its default, in words ("Track: The hook (closed circuit)")."""
    try:
        schema = find_game(game).variant(variant).options_schema()
    except ConfigError:
        return []
    out = []
    for o in schema:
        value = (options or {}).get(o["name"], o["default"])
        if value == o["default"] or value is None:
            continue
        out.append(f"{o['label']}: {_value_words(o, value)}")
    return out


def _value_words(option: dict[str, Any], value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    for choice in option.get("choices", ()):
        if choice["value"] == value:
            return str(choice["label"])
    if isinstance(value, list):
        return ", ".join(f"player {i + 1}: {v}" for i, v in enumerate(value))
    return str(value)


def decline_reasons() -> list[tuple[str, str]]:
    """The reasons an invitee may give, for a form's select."""
    return list(DECLINE_REASONS.items())
