"""The rolling part of a turn, searched whole: every roll still to come, every way to set dice aside.

``greedy`` values dice still in hand as if the player kept rolling for one symbol
(``strategy.Valuation.prospect``). ``TurnSearch`` computes instead the exact expectation, under
the best play to come, of what the dice set aside will take at the end of the rolling
(``Valuation.harvest``, greedy's own judgement of tiles): each roll's outcomes with their
probabilities, and after each outcome every legal way to set dice aside (one or more symbols,
any number of each, the egg on one of them), to roll again or to stop.

What the seat cannot see plays no part: the dice are public, and the tiles that count (the middle
and the other bases) do not change while the player rolls. The search is exact, so it needs no
time budget: a roll's value is remembered by what decides it (the dice set aside per valid symbol,
the dice in hand, whether the egg may still be used), so a turn's decisions share one table.
Dice showing an invalid symbol are counted together, which keeps a roll's outcomes few (84 for
six dice and three valid symbols, against 462 faces' multisets).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from math import factorial

from domain.kernel import Command
from domain.tarasque.commands import Roll, SetAside, Stop
from domain.tarasque.queries import egg_available, targets
from domain.tarasque.state import Phase, TarasqueState
from domain.tarasque.strategy import EGG_VALUE, Valuation

Dice = tuple[int, ...]
"""Counts per valid symbol, in the deck's face order."""


@cache
def outcomes(dice: int, valid: int, faces: int) -> tuple[tuple[Dice, float], ...]:
    """Each outcome of rolling ``dice`` dice of ``faces`` faces, as counts per valid symbol (the
    invalid ones lumped out), with its probability."""
    out: list[tuple[Dice, float]] = []
    blank = (faces - valid) / faces
    for counts in _compositions(dice, valid + 1):
        *shown, blanks = counts
        ways = factorial(dice)
        for n in counts:
            ways //= factorial(n)
        out.append((tuple(shown), ways * (1 / faces) ** (dice - blanks) * blank**blanks))
    return tuple(out)


def _compositions(total: int, parts: int) -> Iterator[tuple[int, ...]]:
    if parts == 1:
        yield (total,)
        return
    for first in range(total + 1):
        for rest in _compositions(total - first, parts - 1):
            yield (first, *rest)


class TurnSearch:
    """The value of the rolling to come for the active ``seat`` of ``state``, and its best move."""

    def __init__(self, state: TarasqueState, seat: int) -> None:
        self.state = state
        self.value = Valuation(state, seat)
        valid = targets(state)
        self.symbols = tuple(s for s in state.deck.faces if s in valid)
        self.faces = len(state.deck.faces)
        pools = self.value.pools()
        self.pools: Dice = tuple(pools[s] for s in self.symbols)
        self._fixed = sum(self.value.plan(s, n) for s, n in pools.items() if s not in valid)
        self._harvests: dict[Dice, float] = {}
        self._rolls: dict[tuple[Dice, int, bool], float] = {}
        self._choices: dict[tuple[Dice, int, bool, Dice, bool], float] = {}

    # ------------------------------------------------------------ values

    def harvest(self, pools: Dice) -> float:
        """What the dice set aside will take (greedy's judgement; ``Valuation.plan`` is 0 below the
        two dice a tile needs)."""
        found = self._harvests.get(pools)
        if found is None:
            plan = self.value.plan
            found = self._fixed + sum(plan(s, n) for s, n in zip(self.symbols, pools, strict=True))
            self._harvests[pools] = found
        return found

    def rolling(self, pools: Dice, dice: int, egg: bool) -> float:
        """The expected value of rolling the ``dice`` in hand, then playing on at best."""
        key = (pools, dice, egg)
        found = self._rolls.get(key)
        if found is None:
            found = 0.0
            for shown, chance in outcomes(dice, len(self.symbols), self.faces):
                if any(shown):
                    found += chance * self.choosing(pools, dice, egg, shown, True)
                else:  # no valid die: the rolling ends
                    found += chance * self.harvest(pools)
            self._rolls[key] = found
        return found

    def choosing(self, pools: Dice, dice: int, egg: bool, shown: Dice, must: bool) -> float:
        """The best value after a roll: ``shown`` the valid dice still selectable from it, ``must``
        while none has been set aside from it yet."""
        key = (pools, dice, egg, shown, must)
        found = self._choices.get(key)
        if found is None:
            found = float("-inf") if must else self._roll_or_stop(pools, dice, egg)
            for i, n in enumerate(shown):
                if n:
                    rest = (*shown[:i], 0, *shown[i + 1 :])
                    for count in range(1, n + 1):
                        for on_egg in (False, True) if egg else (False,):
                            found = max(found, self._after(pools, dice, egg, rest, i, count, on_egg))
            self._choices[key] = found
        return found

    def _roll_or_stop(self, pools: Dice, dice: int, egg: bool) -> float:
        stop = self.harvest(pools)
        return max(stop, self.rolling(pools, dice, egg)) if dice else stop

    def _after(self, pools: Dice, dice: int, egg: bool, rest: Dice, i: int, count: int, on_egg: bool) -> float:
        """The value once ``count`` dice of symbol ``i`` are set aside (one on the egg if ``on_egg``)."""
        grown = (*pools[:i], pools[i] + count + on_egg, *pools[i + 1 :])
        left = dice - count
        value = self.choosing(grown, left, egg and not on_egg, rest, False) if left else self.harvest(grown)
        return value - EGG_VALUE if on_egg else value

    # ------------------------------------------------------------ the decision

    def score(self, command: Command) -> float:
        """The value of a legal move of the rolling (``SetAside``, ``Roll``, ``Stop``)."""
        turn = self.state.turn
        egg = egg_available(self.state)
        if isinstance(command, Roll):
            return self.rolling(self.pools, turn.dice, egg)
        if isinstance(command, Stop):
            return self.harvest(self.pools)
        assert isinstance(command, SetAside)
        shown = self._shown()
        i = self.symbols.index(command.symbol)
        rest = (*shown[:i], 0, *shown[i + 1 :])
        return self._after(self.pools, turn.dice, egg, rest, i, command.count, command.egg)

    def _shown(self) -> Dice:
        turn = self.state.turn
        return tuple(0 if s in turn.chosen else turn.showing.count(s) for s in self.symbols)


def rolling(state: TarasqueState) -> bool:
    """Whether the active seat's decision is one of the rolling (set dice aside, roll, stop)."""
    return state.turn.phase in (Phase.SELECT, Phase.CONTINUE)
