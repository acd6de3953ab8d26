"""The four ways to play: the full game and the three variants for young players.

* ``full``: the whole game.
* ``single-action``: the full game with one action type (Trade Goals by
  default), the Silver Dragon optional.
* ``basic``: dragon cards and goals, no actions, no Silver, no Rainbow; the
  first card turned up starts the layout; each seat may have its own target.
* ``connections``: dragon cards only, no goals; each turn the top card is
  turned up and placed, or set aside if it fits nowhere; the last placer wins.

Every variant that places dragons has ``strict_edges`` (every touching edge
must match), off by default.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from domain.kernel import GameConfig, OptionError, Variant
from domain.seven_dragons.cards import Action
from domain.seven_dragons.state import Table

MIN_SEATS = 2
MAX_SEATS = 5
TARGET = 7
"""Dragons to connect to win: the game's name."""
MIN_TARGET = 3
"""Designed: the lowest target a young player may have (the rulebook's youngest age is 3)."""

_STRICT = {
    "label": "Every touching edge must match",
    "doc": "Every panel touching another card across an edge must match it (off: one matching panel is enough).",
}


@dataclass(frozen=True, slots=True)
class FullOptions:
    strict_edges: bool = field(default=False, metadata=_STRICT)


@dataclass(frozen=True, slots=True)
class SingleActionOptions:
    action: Action = field(
        default=Action.TRADE_GOALS,
        metadata={"label": "The action in the deck", "doc": "The one action type the deck holds."},
    )
    silver: bool = field(
        default=True,
        metadata={"label": "Start with the Silver Dragon", "doc": "Whether the Silver Dragon starts the layout."},
    )
    strict_edges: bool = field(default=False, metadata=_STRICT)


@dataclass(frozen=True, slots=True)
class BasicOptions:
    targets: tuple[int, ...] = field(
        default=(),
        metadata={
            "label": "Dragons to connect, per player",
            "doc": f"How many dragons each player must connect, {MIN_TARGET} to {TARGET} (a young player may aim "
            f"for their age); {TARGET} for everyone unless chosen.",
            "range": (MIN_TARGET, TARGET),
            "per_seat": True,
            "seat_default": TARGET,
        },
    )
    strict_edges: bool = field(default=False, metadata=_STRICT)

    def __post_init__(self) -> None:
        for t in self.targets:
            if not MIN_TARGET <= t <= TARGET:
                raise OptionError("targets", f"a target is {MIN_TARGET} to {TARGET}, not {t}")

    def check_seats(self, seats: int) -> None:
        if self.targets and len(self.targets) != seats:
            raise OptionError("targets", f"give one target per seat ({seats}), not {len(self.targets)}")


@dataclass(frozen=True, slots=True)
class ConnectionsOptions:
    strict_edges: bool = field(default=False, metadata=_STRICT)


VARIANTS: tuple[Variant, ...] = (
    Variant("full", "Full game", MIN_SEATS, MAX_SEATS, FullOptions,
            "The full game: 51 dragons, 15 actions, the Silver Dragon and five secret goals."),
    Variant("single-action", "Single-action dragons", MIN_SEATS, MAX_SEATS, SingleActionOptions,
            "The full game with one action type, Trade Goals by default; the Silver Dragon is optional."),
    Variant("basic", "Basic dragons", MIN_SEATS, MAX_SEATS, BasicOptions,
            "Dragons and goals only; a young player may aim for their age instead of seven."),
    Variant("connections", "Dragon connections", MIN_SEATS, MAX_SEATS, ConnectionsOptions,
            "Turn up the top card and place it; whoever places the last card wins."),
)  # fmt: skip


def table_for(config: GameConfig) -> Table:
    """The rules in force for a configured game."""
    opts = config.options
    if config.variant == "single-action":
        return Table(config.variant, (opts.action,), opts.silver, True, True, False, opts.strict_edges)
    if config.variant == "basic":
        return Table(config.variant, (), False, False, True, False, opts.strict_edges)
    if config.variant == "connections":
        return Table(config.variant, (), False, False, False, True, opts.strict_edges)
    return Table(config.variant, tuple(Action), True, True, True, False, opts.strict_edges)


def targets_for(config: GameConfig) -> tuple[int, ...]:
    """Each seat's target: 7, or the basic variant's per-seat list."""
    given = getattr(config.options, "targets", ())
    return tuple(given) if given else (TARGET,) * config.seats
