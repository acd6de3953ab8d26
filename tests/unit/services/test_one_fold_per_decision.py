"""A decision is folded once: the decider's own fold is what the aggregate records.

``decide`` folds each event as it emits it (to decide what follows automatically);
the aggregate used to evolve the same events again to hash the states and find who
is awaited. Now it takes the states the decider folded (``domain.kernel.Folded``).
"""

from __future__ import annotations

import random
import threading
from typing import Any

import pytest

from domain.kernel import Emitter, all_games, choose_move
from tests.support.names import fresh

GAMES = [pytest.param(g, id=g.slug) for g in all_games()]


class EvolveCounter:
    """Counts, on this thread (the read models fold on their own), the decider's folds
    (``Emitter.emit``) and the calls of the ruleset's ``evolve`` outside them: the platform's."""

    def __init__(self, ruleset: Any, monkeypatch: pytest.MonkeyPatch) -> None:
        self.emits = self.platform_folds = 0
        self.thread = threading.get_ident()
        self.emitting = False
        evolve, emit = ruleset.evolve, Emitter.emit

        def counted_evolve(state: Any, event: Any) -> Any:
            if threading.get_ident() == self.thread and not self.emitting:
                self.platform_folds += 1
            return evolve(state, event)

        def counted_emit(emitter: Any, event: Any) -> Any:
            if threading.get_ident() != self.thread:
                return emit(emitter, event)
            self.emits += 1
            self.emitting = True
            try:
                return emit(emitter, event)
            finally:
                self.emitting = False

        monkeypatch.setattr(ruleset, "evolve", counted_evolve)
        monkeypatch.setattr(Emitter, "emit", counted_emit)

    def reset(self) -> None:
        self.emits = self.platform_folds = 0

    @property
    def folds(self) -> int:
        return self.emits + self.platform_folds


@pytest.mark.parametrize("ruleset", GAMES)
def test_a_decision_evolves_each_of_its_events_once(
    platform: Any, ruleset: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = random.Random(3)
    seats = ruleset.variants[0].min_seats
    ids = [platform.accounts.register(fresh(f"p{i}"), "human")[0].id for i in range(seats)]
    gid = str(platform.games.create_game(ids[0], ruleset.slug, None, None, seats).id)
    counter = EvolveCounter(ruleset, monkeypatch)
    for pid in ids:
        platform.games.take_seat(gid, pid, pid[:4], "human")
    started = platform.games.load(gid).version
    assert counter.folds == _rule_events(platform, gid, 0)  # the opening events, folded once
    for _ in range(12):
        game = platform.games.load(gid)
        if game.status != "active":
            break
        seat = game.awaiting[0]
        command = choose_move(ruleset, ruleset.bot("random"), game.state, seat, rng)
        counter.reset()
        platform.games.submit_move(gid, game.holder(seat), ruleset.commands.dump(command), seat=seat)
        assert counter.folds == _rule_events(platform, gid, game.version), "an event was evolved twice"
    assert platform.games.load(gid).version > started


def _rule_events(platform: Any, gid: str, after: int) -> int:
    return sum(1 for e in platform.games.stored_events(gid, after=after) if hasattr(e, "KIND"))
