"""Tarasque's bots, from the weakest: ``random`` (uniform over legal moves), ``beginner``,
``greedy`` and ``search``.

``beginner`` plays as ``greedy`` but pushes its luck (it rolls again whenever it may) and
overlooks the position one move in four (a random move).

``search`` plays as ``greedy`` but searches its rolling decisions whole: the exact expectation,
over every roll still to come and every way to set dice aside, of what the dice will take
(``turn_search``). It replaced the kernel's information-set MCTS here on 2026-11-30: that search,
whose rollouts are whole games of ``greedy``, ran some hundred iterations in 2 s and played
``greedy``'s move at 97% of its decisions; this one won 57% of its games against ``greedy``.

``greedy`` scores every legal move with ``strategy.Valuation`` and plays the
best (the first listed among equals, so it is deterministic):

* removing a middle tile (2 players): the one worth most to the opponent and least to itself;
* storing a tile: the row where it adds most, counting the room the row has to grow;
* setting dice aside, rolling or stopping: the expected harvest of the dice,
  looking ahead by expectation over the dice still in hand;
* taking tiles: the best split of each symbol's dice, valuing safety at the
  base (a higher side is harder to steal), stealing (the victim loses the
  tile but gains an egg) and the six-dice extra turn;
* at the end of the turn: a lair move if it gains more than an egg is worth.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from domain.kernel import BeginnerBot, Command, RandomBot, Ruleset
from domain.tarasque.commands import EndTurn, MoveLairTile, RemoveTile, Roll, SetAside, Stop, StoreTile, TakeTile
from domain.tarasque.lair import move
from domain.tarasque.legal import legal_moves
from domain.tarasque.queries import egg_available, locate, pool
from domain.tarasque.state import Lair, TarasqueState
from domain.tarasque.strategy import EGG_VALUE, Valuation
from domain.tarasque.turn_search import TurnSearch, rolling

TAKING_FIRST = 100.0
"""Taking tiles always comes before the egg move or ending the turn (a tile is always worth taking)."""
TIE_BREAK = 1e-9
"""Rolling again never loses the dice set aside, so among equals the bot rolls on."""


class RandomTarasqueBot(RandomBot[TarasqueState]):
    """Uniform over the listed legal moves."""

    def __init__(self, rules: Ruleset[TarasqueState]) -> None:
        super().__init__(rules)


SLIP = 0.25
"""Designed: how often the beginner overlooks the position."""


class GreedyBot:
    """Plays the legal move the valuation rates best."""

    def choose(self, state: TarasqueState, seat: int, rng: random.Random, budget: float | None = None) -> Command:
        moves = legal_moves(state, seat)
        if not moves:
            raise LookupError(f"seat {seat} has no legal move")
        if len(moves) == 1:
            return moves[0]
        score = self.scorer(state, seat)
        scores = [score(m) for m in moves]
        return moves[scores.index(max(scores))]

    def scorer(self, state: TarasqueState, seat: int) -> Callable[[Command], float]:
        """How this bot rates each move of the decision at ``state``."""
        return _Judge(state, seat).score


class _Judge:
    """Scores the moves of one decision."""

    def __init__(self, state: TarasqueState, seat: int) -> None:
        self.state = state
        self.seat = seat
        self.value = Valuation(state, seat)
        self.turn = state.turn

    def score(self, command: Command) -> float:
        return _SCORERS[type(command)](self, command)

    def remove(self, cmd: RemoveTile) -> float:
        theirs = max((self.value.gain(o, cmd.tile) for o in self.value.opponents), default=0.0)
        return theirs - self.value.gain(self.seat, cmd.tile)

    def store(self, cmd: StoreTile) -> float:
        rows = self.state.board.lairs[self.seat]
        return dict(self.value.placements(rows, cmd.tile))[cmd.row]

    def set_aside(self, cmd: SetAside) -> float:
        pools = self.value.pools()
        pools[cmd.symbol] += cmd.count + cmd.egg
        egg_left = egg_available(self.state) and not cmd.egg
        cost = EGG_VALUE if cmd.egg else 0.0
        return self.value.prospect(pools, self.turn.dice - cmd.count, egg_left) - cost

    def roll(self, cmd: Roll) -> float:
        return self.value.prospect(self.value.pools(), self.turn.dice, egg_available(self.state)) + TIE_BREAK

    def stop(self, cmd: Stop) -> float:
        return self.value.harvest(self.value.pools()) - TIE_BREAK

    def take(self, cmd: TakeTile) -> float:
        where = locate(self.state, cmd.tile)
        assert where is not None
        symbol = self.state.deck.symbol[cmd.tile]
        others = tuple(c for c in self.value.candidates(symbol) if c[0] != cmd.tile)
        rest = self.value.best(others, pool(self.state, symbol) - cmd.dice)
        return TAKING_FIRST + self.value.take_value(cmd.tile, cmd.dice, where[0]) + rest

    def move_in_lair(self, cmd: MoveLairTile) -> float:
        rows = self.state.board.lairs[self.seat]
        after = move(rows, cmd.tile, len(rows) if cmd.row is None else cmd.row)
        return self._worth(after) - self._worth(rows) - EGG_VALUE

    def end(self, cmd: EndTurn) -> float:
        return 0.0

    def _worth(self, rows: Lair) -> float:
        return sum(self.value.row_value(r) for r in rows)


_SCORERS: dict[type, Callable[[_Judge, Any], float]] = {
    RemoveTile: _Judge.remove,
    StoreTile: _Judge.store,
    SetAside: _Judge.set_aside,
    Roll: _Judge.roll,
    Stop: _Judge.stop,
    TakeTile: _Judge.take,
    MoveLairTile: _Judge.move_in_lair,
    EndTurn: _Judge.end,
}


def _pushes_luck(state: TarasqueState, seat: int, moves: Sequence[Command], rng: random.Random) -> Command | None:
    """The beginner's habit: it rolls again whenever it may."""
    return Roll() if Roll() in moves else None


class BeginnerTarasqueBot(BeginnerBot[TarasqueState]):
    """``greedy`` that pushes its luck and sometimes overlooks the position (see the module doc)."""

    def __init__(self, rules: Ruleset[TarasqueState]) -> None:
        super().__init__(rules, GreedyBot(), RandomTarasqueBot(rules), SLIP, _pushes_luck)


class SearchTarasqueBot(GreedyBot):
    """Level 4: ``greedy``, but its rolling decisions come from the whole rolling searched
    (``turn_search.TurnSearch``: every roll still to come, every way to set dice aside). Exact, so
    it needs no budget and draws nothing: the same observation gives the same move."""

    def scorer(self, state: TarasqueState, seat: int) -> Callable[[Command], float]:
        return TurnSearch(state, seat).score if rolling(state) else super().scorer(state, seat)


__all__ = ["BeginnerTarasqueBot", "GreedyBot", "RandomTarasqueBot", "SearchTarasqueBot"]
