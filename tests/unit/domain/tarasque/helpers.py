"""Builders for Tarasque tests: states in any position, scripted dice, decide-and-fold."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any, TypeVar

from domain.kernel import Command, Event, Rng
from domain.tarasque import RULESET
from domain.tarasque.state import Board, Phase, TarasqueState, Turn
from domain.tarasque.tiles import DECKS, EGGS, SIDES

T = TypeVar("T")
RULES = RULESET
FACES = DECKS["dragon-dice"].faces


class ScriptedRng(Rng):
    """An ``Rng`` whose rolls are given in advance (shuffles stay seeded)."""

    def __init__(self, *rolls: Sequence[str]) -> None:
        super().__init__(b"scripted", "test")
        self.rolls = [tuple(r) for r in rolls]

    def roll(self, faces: Sequence[T], count: int) -> tuple[T, ...]:
        values = self.rolls.pop(0)
        assert len(values) == count, f"scripted roll {values} for {count} dice"
        return values  # type: ignore[return-value]


def base(**sides: Sequence[str]) -> tuple[tuple[str, ...], ...]:
    """A dragon base from ``s2=[...]``, ``s3=[...]``... (missing sides are empty)."""
    return tuple(tuple(sides.get(f"s{s}", ())) for s in SIDES)


def make(
    *,
    variant: str = "dragon-dice",
    seats: int = 3,
    middle: Sequence[str] = (),
    pile: Sequence[str] | None = None,
    removed: Sequence[str] = (),
    bases: dict[int, Any] | None = None,
    lairs: dict[int, Sequence[Sequence[str]]] | None = None,
    eggs: Sequence[int] | None = None,
    left: Sequence[int] = (),
    rest_removed: bool = False,
    **turn: Any,
) -> TarasqueState:
    """A state in any position. Tiles not placed anywhere go to the pile (in deck order)
    unless ``pile`` is given, then to ``removed`` if ``rest_removed`` (else nowhere);
    ``turn`` fields default to seat 0, round 2, phase TAKE."""
    deck = DECKS[variant]
    all_bases = [base() for _ in range(seats)]
    for s, b in (bases or {}).items():
        all_bases[s] = b
    all_lairs: list[tuple[tuple[str, ...], ...]] = [() for _ in range(seats)]
    for s, rows in (lairs or {}).items():
        all_lairs[s] = tuple(tuple(r) for r in rows)
    placed = set(middle) | set(removed)
    placed |= {t for b in all_bases for side in b for t in side}
    placed |= {t for rows in all_lairs for r in rows for t in r}
    if turn.get("pending"):
        placed.add(turn["pending"])
    rest = [t for t in deck.tiles if t not in placed and (pile is None or t not in pile)]
    if pile is None:
        pile = rest
    elif rest_removed:
        removed = (*removed, *rest)
    egg_counts = tuple(eggs) if eggs is not None else (1,) * seats
    board = Board(
        pile=tuple(pile),
        middle=tuple(middle),
        removed=tuple(removed),
        bases=tuple(all_bases),
        lairs=tuple(all_lairs),
        eggs=egg_counts,
        supply=EGGS - sum(egg_counts),
    )
    defaults: dict[str, Any] = {"seat": 0, "round": 2, "phase": Phase.TAKE}
    defaults.update(turn)
    return TarasqueState(variant, seats, board, Turn(**defaults), tuple(left))


def aside(variant: str = "dragon-dice", **counts: int) -> tuple[int, ...]:
    """A per-face count tuple from ``red=3, blue=2`` (numbered faces: ``n3=2``)."""
    deck = DECKS[variant]
    return tuple(counts.get(f, counts.get(f"n{f}", 0)) for f in deck.faces)


def play(
    state: TarasqueState, seat: int, command: Command, rng: Rng | None = None
) -> tuple[list[Event], TarasqueState]:
    """``decide`` then fold: the events and the state after them."""
    events = RULES.decide(state, seat, command, rng or Rng(b"test", "v0"))
    return events, RULES.fold(state, events)


def types(events: Sequence[Event]) -> list[str]:
    return [e.TYPE for e in events]


def with_turn(state: TarasqueState, **changes: Any) -> TarasqueState:
    return replace(state, turn=replace(state.turn, **changes))


def tiles_everywhere(state: TarasqueState) -> list[str]:
    """Every tile's place, as a flat list: pile, middle, removed, bases, lairs, pending."""
    b = state.board
    out = [*b.pile, *b.middle, *b.removed]
    out += [t for base_ in b.bases for side in base_ for t in side]
    out += [t for rows in b.lairs for r in rows for t in r]
    if state.turn.pending is not None:
        out.append(state.turn.pending)
    return out


def new_game(variant: str = "dragon-dice", seats: int = 3, seed: bytes = b"seed") -> tuple[TarasqueState, list[Event]]:
    return RULES.new_game(RULES.configure(variant, None, seats), Rng(seed, "setup"))
