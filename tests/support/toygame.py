"""Dice Race: a tiny ruleset that exercises every platform mechanic, for tests only.

Rules (book ``platform``, as this game has no rulebook):

* Setup: a 6-card deck numbered 1 to 6 is shuffled; each seat is dealt one card
  face down, its *secret*, known only to its owner.
* Each round starts with a simultaneous, secret bid of 0 to 2 by every seat
  still in the race. When the last bid is in, all bids are revealed.
* Then each seat in order rolls one die and advances by the roll plus its bid;
  a roll equal to its secret card advances 3 more.
* A seat at 20 or more wins at once. A seat that leaves is out of the race.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from domain.kernel import (
    LEAVING,
    Codec,
    Command,
    Emitter,
    Event,
    GameConfig,
    GameOver,
    IllegalMove,
    NotYourTurn,
    OptionError,
    Outcome,
    RandomBot,
    Rng,
    RuleRef,
    Ruleset,
    Variant,
    Viewer,
)
from domain.kernel.narration import Narrator
from domain.kernel.wording import is_hidden, number

BID = RuleRef("dice-race.bid", "platform", "bid", "Every seat bids 0 to 2 in secret at the start of a round.")
ROLL = RuleRef("dice-race.roll", "platform", "roll", "Each seat in turn rolls a die and advances roll plus bid.")
DEAL = RuleRef("dice-race.deal", "platform", "deal", "Each seat is dealt one secret card from a shuffled deck.")
WIN = RuleRef("dice-race.win", "platform", "win", "A seat reaching the goal wins at once.")


@dataclass(frozen=True, slots=True)
class RaceOptions:
    goal: int = field(default=20, metadata={"label": "Goal", "doc": "How far the racers run.", "range": (5, 100)})

    def __post_init__(self) -> None:
        if not 5 <= self.goal <= 100:
            raise OptionError("goal", "goal must be between 5 and 100")


@dataclass(frozen=True, slots=True)
class Bid(Command):
    amount: int
    SECRET = ("amount",)


@dataclass(frozen=True, slots=True)
class Roll(Command):
    pass


@dataclass(frozen=True, slots=True)
class SecretDealt(Event):
    seat: int
    card: int
    RULE = DEAL
    SECRET = ("card",)
    OWNERS = ("seat",)


@dataclass(frozen=True, slots=True)
class BidPlaced(Event):
    seat: int
    amount: int
    RULE = BID
    SECRET = ("amount",)
    OWNERS = ("seat",)


@dataclass(frozen=True, slots=True)
class DieRolled(Event):
    seat: int
    value: int
    RULE = ROLL


@dataclass(frozen=True, slots=True)
class SeatLeft(Event):
    seat: int
    RULE = LEAVING


@dataclass(frozen=True, slots=True)
class RaceWon(Event):
    seat: int
    RULE = WIN


@dataclass(frozen=True, slots=True)
class RaceState:
    goal: int
    positions: tuple[int, ...]
    secrets: tuple[int, ...]
    bids: tuple[int | None, ...]
    phase: str  # "setup", "bid", "roll" or "over"
    turn: int
    left: tuple[int, ...] = ()
    winner: int | None = None


NARRATOR = Narrator(
    events={
        "SecretDealt": lambda d, a: (
            f"{a.names(d['seat'])} {a.names.was(d['seat'])} dealt "
            + ("a secret card" if is_hidden(d["card"]) else f"the secret card {d['card']}")
        ),
        "BidPlaced": lambda d, a: (
            f"{a.names(d['seat'])} bid " + ("in secret" if is_hidden(d["amount"]) else number(d["amount"]))
        ),
        "DieRolled": lambda d, a: f"{a.names(d['seat'])} rolled {number(d['value'])}",
        "SeatLeft": lambda d, a: f"{a.names(d['seat'])} left the race",
        "RaceWon": lambda d, a: f"{a.names(d['seat'])} reached the goal",
    },
    moves={
        "bid": lambda m, a, s: "bid in secret" if is_hidden(m["amount"]) else f"bid {number(m['amount'])}",
        "roll": lambda m, a, s: "roll the die",
    },
    reasons={"goal reached": "the goal was reached", "race won": "the race was won"},
)
"""Dice Race in words: every event and move (``domain/kernel/narration.py`` says how)."""


class DiceRace(Ruleset[RaceState]):
    slug = "dice-race"
    title = "Dice Race"
    engine_version = "1"
    variants = (Variant("standard", "Standard", 2, 4, RaceOptions),)
    commands = Codec([Bid, Roll])
    events = Codec([SecretDealt, BidPlaced, DieRolled, SeatLeft, RaceWon])
    state_type = RaceState
    rules = (BID, ROLL, DEAL, WIN, LEAVING)
    bots = {"random": lambda: RandomBot(DICE_RACE)}
    default_bot = "random"
    narrator = NARRATOR

    def initial(self, config: GameConfig) -> RaceState:
        n = config.seats
        return RaceState(config.options.goal, (0,) * n, (0,) * n, (None,) * n, "setup", 0)

    def setup(self, state: RaceState, rng: Rng) -> list[Event]:
        deck = rng.shuffle(range(1, 7))
        return [SecretDealt(s, deck[s]) for s in range(len(state.positions))]

    def decide(self, state: RaceState, seat: int, command: Command, rng: Rng) -> list[Event]:
        if state.phase == "over":
            raise GameOver("the race is over", WIN)
        if seat not in self.awaiting(state):
            raise NotYourTurn(f"seat {seat} is not awaited", ROLL)
        out = Emitter(self, state)
        if isinstance(command, Bid):
            if state.phase != "bid":
                raise IllegalMove("bids are made at the start of a round", BID)
            if not 0 <= command.amount <= 2:
                raise IllegalMove(f"a bid is 0 to 2, not {command.amount}", BID)
            out.emit(BidPlaced(seat, command.amount))
        elif isinstance(command, Roll):
            if state.phase != "roll":
                raise IllegalMove("every seat bids before anyone rolls", ROLL)
            out.emit(DieRolled(seat, rng.randint(1, 6)))
            if out.state.positions[seat] >= state.goal:
                out.emit(RaceWon(seat))
        return out.events

    def evolve(self, state: RaceState, event: Event) -> RaceState:
        match event:
            case SecretDealt(seat, card):
                secrets = _set(state.secrets, seat, card)
                phase = "bid" if seat == len(state.positions) - 1 else state.phase
                return replace(state, secrets=secrets, phase=phase)
            case BidPlaced(seat, amount):
                bids = _set(state.bids, seat, amount)
                done = all(b is not None for s, b in enumerate(bids) if s not in state.left)
                return replace(
                    state,
                    bids=bids,
                    phase="roll" if done else "bid",
                    turn=self._next(state, -1) if done else state.turn,
                )
            case DieRolled(seat, value):
                bonus = 3 if value == state.secrets[seat] else 0
                pos = _set(state.positions, seat, state.positions[seat] + value + (state.bids[seat] or 0) + bonus)
                return self._after_roll(replace(state, positions=pos), seat)
            case SeatLeft(seat):
                return self._after_leave(replace(state, left=(*state.left, seat)), seat)
            case RaceWon(seat):
                return replace(state, phase="over", winner=seat)
        raise TypeError(f"unknown event {event!r}")

    def _after_roll(self, state: RaceState, seat: int) -> RaceState:
        nxt = self._next(state, seat)
        if nxt <= seat:  # the round is over
            return replace(state, phase="bid", bids=(None,) * len(state.bids))
        return replace(state, turn=nxt)

    def _after_leave(self, state: RaceState, seat: int) -> RaceState:
        staying = [s for s in range(len(state.positions)) if s not in state.left]
        if len(staying) == 1:
            return replace(state, phase="over", winner=staying[0])
        if state.phase == "roll" and state.turn == seat:
            return self._after_roll(state, seat)
        if state.phase == "bid" and all(state.bids[s] is not None for s in staying):
            return replace(state, phase="roll", turn=self._next(state, -1))
        return state

    def _next(self, state: RaceState, seat: int) -> int:
        n = len(state.positions)
        for k in range(1, n + 1):
            s = (seat + k) % n
            if s not in state.left:
                return s
        return seat

    def legal_moves(self, state: RaceState, seat: int) -> Sequence[Command]:
        if seat not in self.awaiting(state):
            return []
        return [Bid(a) for a in range(3)] if state.phase == "bid" else [Roll()]

    def awaiting(self, state: RaceState) -> tuple[int, ...]:
        if state.phase == "bid":
            return tuple(s for s, b in enumerate(state.bids) if b is None and s not in state.left)
        if state.phase == "roll":
            return (state.turn,)
        return ()

    def view(self, state: RaceState, viewer: Viewer) -> dict[str, Any]:
        return {
            "goal": state.goal,
            "positions": list(state.positions),
            "phase": state.phase,
            "turn": state.turn,
            "left": list(state.left),
            "secrets": [c if viewer.sees(s) else None for s, c in enumerate(state.secrets)],
            "bids": [
                (b if viewer.sees(s) or state.phase != "bid" else ("placed" if b is not None else None))
                for s, b in enumerate(state.bids)
            ],
        }

    def outcome(self, state: RaceState) -> Outcome | None:
        if state.phase != "over":
            return None
        scores = [100.0 if s == state.winner else float(p) for s, p in enumerate(state.positions)]
        return Outcome.from_scores(scores, "goal reached" if not state.left else "race won", out=state.left)

    def leave(self, state: RaceState, seat: int, rng: Rng) -> list[Event]:
        return [SeatLeft(seat)]

    def skip(self, state: RaceState, seat: int, rng: Rng) -> list[Event] | None:
        return [BidPlaced(seat, 0)] if state.phase == "bid" else None

    def observe(self, state: RaceState, seat: int, rng: random.Random) -> RaceState:
        others = [c for c in range(1, 7) if c != state.secrets[seat]]
        rng.shuffle(others)
        secrets = tuple(c if s == seat else others[s] for s, c in enumerate(state.secrets))
        bids = tuple(
            b if s == seat or b is None or state.phase != "bid" else rng.randint(0, 2) for s, b in enumerate(state.bids)
        )
        return replace(state, secrets=secrets, bids=bids)


def _set(values: tuple[Any, ...], i: int, v: Any) -> tuple[Any, ...]:
    return (*values[:i], v, *values[i + 1 :])


DICE_RACE = DiceRace()
