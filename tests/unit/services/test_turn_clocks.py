"""Clocks over the four games: a turn is the span during which a seat stays awaited.

Random games are driven through the ``GameService`` (in memory, on a ``FakeClock``)
with per-move and bank clocks under each timeout policy. Between saves the clock
moves on; players move or let their deadline pass. A model kept by the test from
what it saw after each save (which seats were awaited, and when) says what the
README promises: each turn has one deadline, its start plus its budget; each missed
deadline writes exactly one ``TurnTimedOut``, followed by the decisions the policy
plays for that turn, after which the seat is no longer awaited; each bank turn that
ends while the game goes on is charged by exactly one ``ClockSettled`` increment.
"""

from __future__ import annotations

import random
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from domain.kernel import choose_move, find_game
from services.audits.records import game_record
from services.audits.verification import verify_record
from services.common.clock import FakeClock
from services.play.aggregate import Game
from tests.support.names import fresh
from tests.support.runs import count

GAMES = (("tarasque", 2), ("seven-dragons", 3), ("mekong", 2), ("drachenreiter", 2))
PER_MOVE = {"kind": "per_move", "seconds": 60}
BANK = {"kind": "bank", "initial": 90, "increment": 20, "cap": 150}
POLICIES = ("auto", "skip", "forfeit")
START = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
CAUSES = ("MoveMade", "Resigned", "Joined", "TurnTimedOut", "PolicyPlayed")


@dataclass
class Model:
    """What the README says the clocks are, kept from the outside: per seat, the start of
    its running turn and its bank; and how many bank turns ended while the game went on."""

    tc: dict[str, Any]
    starts: dict[int, datetime] = field(default_factory=dict)
    banks: dict[int, float] = field(default_factory=dict)
    ended_turns: dict[int, int] = field(default_factory=dict)

    def budget(self, seat: int) -> float:
        if self.tc["kind"] == "per_move":
            return float(self.tc["seconds"])
        return self.banks.setdefault(seat, float(self.tc["initial"]))

    def after_save(self, game: Game, now: datetime) -> None:
        """Turns end for seats no longer awaited and start for newly awaited ones, at ``now``."""
        awaited = set(game.awaiting) if game.status == "active" else set()
        for seat in sorted(set(self.starts) - awaited):
            started = self.starts.pop(seat)
            if game.status == "active":
                self.ended_turns[seat] = self.ended_turns.get(seat, 0) + 1
                if self.tc["kind"] == "bank":
                    used = (now - started).total_seconds()
                    self.banks[seat] = min(
                        float(self.tc["cap"]), max(0.0, self.budget(seat) - used) + float(self.tc["increment"])
                    )
        for seat in sorted(awaited - set(self.starts)):
            self.starts[seat] = now

    def deadline(self, seat: int) -> datetime:
        return self.starts[seat] + timedelta(seconds=self.budget(seat))


def _stand_in(seat: int) -> Any:
    """The default bot, deciding on the seat's observation (as ``workers.bot_turns`` does)."""

    def choose(game: Game) -> Any:
        ruleset = game.ruleset
        return choose_move(
            ruleset, ruleset.bot(ruleset.default_bot), game.state, seat, random.Random(f"{game.version}:{seat}"), 0.05
        )

    return choose


def _events(platform: Any, gid: str, after: int = 0) -> list[Any]:
    return list(platform.games.stored_events(gid, after))


def _table(platform: Any, slug: str, seats: int, tc: dict[str, Any], number: int = 1) -> tuple[str, list[str]]:
    """A game of ``seats`` humans; its id (hence its seed, under the test server key) is fixed by ``number``."""
    ids = [platform.accounts.register(fresh(f"p{i}"), "human")[0].id for i in range(seats)]
    game = platform.games.create_game(
        ids[0], slug, None, None, seats, time_control=tc, game_id=uuid.UUID(int=number, version=4)
    )
    for pid in ids:
        platform.games.take_seat(str(game.id), pid, pid[:4], "human")
    return str(game.id), ids


def _check_deadlines(platform: Any, game: Game, model: Model) -> None:
    """Every awaited seat's deadline is its turn's start plus its budget: one deadline per turn."""
    for seat in game.awaiting:
        if seat in game.left:
            continue
        assert platform.timers.deadline(game, seat) == model.deadline(seat), (
            f"seat {seat}'s deadline moved within its turn (version {game.version})"
        )


def _miss_deadline(platform: Any, fake_clock: FakeClock, gid: str, game: Game, seat: int) -> None:
    """Lets ``seat``'s deadline pass: one ``TurnTimedOut``, then the policy's decisions for that turn."""
    deadline = platform.timers.deadline(game, seat)
    fake_clock.set(max(fake_clock.now(), deadline) + timedelta(seconds=1))
    result, fired_at = platform.timers.fire_deadline(gid, seat, game.version, _stand_in(seat))
    assert (result, fired_at) == ("fired", deadline)
    causes = [e for e in _events(platform, gid, game.version) if type(e).__name__ in CAUSES]
    assert type(causes[0]).__name__ == "TurnTimedOut" and causes[0].deadline == deadline.isoformat()
    assert all(type(c).__name__ == "PolicyPlayed" and c.seat == seat for c in causes[1:]), "one TurnTimedOut"
    after = platform.games.load(gid)
    assert after.status != "active" or seat not in after.awaiting or seat in after.left, "the turn is over"
    assert platform.timers.fire_deadline(gid, seat, game.version, _stand_in(seat))[0] == "stale"


def _move(platform: Any, gid: str, game: Game, seat: int, rng: random.Random) -> None:
    ruleset = game.ruleset
    command = choose_move(ruleset, ruleset.bot("random"), game.state, seat, rng)
    platform.games.submit_move(gid, game.holder(seat), ruleset.commands.dump(command), seat=seat)


def play_timed_game(
    platform: Any, fake_clock: FakeClock, slug: str, seats: int, tc: dict[str, Any], seed: int, decisions: int = 60
) -> tuple[str, Model]:
    """Plays ``decisions`` saves of random moves and missed deadlines (one in five), then lets one
    deadline in two pass until the game ends; checks the model after every save; returns the game
    and model. (Missing every deadline would never end some games under ``skip``: a Tarasque turn
    whose tile taking is skipped takes no tile, and two players no longer remove tiles from a
    middle of fewer than 4.)"""
    rng = random.Random(seed)
    model = Model(tc)
    gid, _ids = _table(platform, slug, seats, tc, number=seed)
    model.after_save(platform.games.load(gid), fake_clock.now())
    for step in range(decisions + find_game(slug).max_decisions):
        game = platform.games.load(gid)
        if game.status != "active":
            break
        _check_deadlines(platform, game, model)
        awaited = [s for s in game.awaiting if s not in game.left]
        seat = rng.choice(awaited)
        if rng.random() < (0.5 if step >= decisions else 0.2):
            _miss_deadline(platform, fake_clock, gid, game, seat)
        else:
            fake_clock.advance(rng.choice((1, 7, 13)))
            _move(platform, gid, game, seat, rng)
        model.after_save(platform.games.load(gid), fake_clock.now())
    assert platform.games.load(gid).status != "active", "the game ended"
    return gid, model


def _settlements(platform: Any, gid: str) -> dict[int, list[float]]:
    out: dict[int, list[float]] = {}
    for e in _events(platform, gid):
        if isinstance(e, Game.ClockSettled):
            for seat, bank in e.banks.items():
                out.setdefault(int(seat), []).append(bank)
    return out


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize(("slug", "seats"), GAMES, ids=[g for g, _ in GAMES])
def test_a_per_move_turn_has_one_deadline_and_a_missed_one_one_timeout(
    platform: Any, fake_clock: FakeClock, slug: str, seats: int, policy: str
) -> None:
    gid, _model = play_timed_game(platform, fake_clock, slug, seats, {**PER_MOVE, "timeout_policy": policy}, seed=1)
    record = game_record(platform.games, gid)
    report = verify_record(record)
    assert report["ok"], report["verdict"]


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize(("slug", "seats"), GAMES, ids=[g for g, _ in GAMES])
def test_a_bank_is_charged_once_per_turn_with_one_increment(
    platform: Any, fake_clock: FakeClock, slug: str, seats: int, policy: str
) -> None:
    gid, model = play_timed_game(platform, fake_clock, slug, seats, {**BANK, "timeout_policy": policy}, seed=2)
    settled = _settlements(platform, gid)
    assert {s: len(b) for s, b in settled.items()} == model.ended_turns
    assert all(settled[s][-1] == round(model.banks[s], 3) for s in settled)
    report = verify_record(game_record(platform.games, gid))
    assert report["ok"], report["verdict"]


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(3, count(6, 9)))  # each clock and policy once; all six with --thorough
@pytest.mark.parametrize(("slug", "seats"), GAMES, ids=[g for g, _ in GAMES])
def test_clocks_hold_over_more_random_games(
    platform: Any, fake_clock: FakeClock, slug: str, seats: int, seed: int
) -> None:
    tc = {**(PER_MOVE if seed % 2 else BANK), "timeout_policy": POLICIES[seed % 3]}
    gid, model = play_timed_game(platform, fake_clock, slug, seats, tc, seed=seed, decisions=120)
    if tc["kind"] == "bank":
        assert {s: len(b) for s, b in _settlements(platform, gid).items()} == model.ended_turns
    report = verify_record(game_record(platform.games, gid))
    assert report["ok"], report["verdict"]


# ------------------------------------------------------------------ the two defects, reproduced


def _remove_a_tile_after(platform: Any, fake_clock: FakeClock, tc: dict[str, Any], seconds: float) -> str:
    """A 2-player Tarasque game (a fixed one) where seat 0 thinks ``seconds``, then removes a
    tile: ``TileRemoved`` leaves the seat unawaited for one event, then ``DiceRolled`` awaits it
    again, within one decision."""
    gid, ids = _table(platform, "tarasque", 2, tc, number=1)
    game = platform.games.load(gid)
    (remove, *_) = game.ruleset.legal_moves(game.state, 0)
    assert remove.TYPE == "remove_tile" and game.awaiting == [0]
    fake_clock.advance(seconds)
    platform.games.submit_move(gid, ids[0], game.ruleset.commands.dump(remove))
    rule_events = [e for e in _events(platform, gid, game.version) if isinstance(e, Game.RuleEvent)]
    assert [(e.KIND, e.awaiting) for e in rule_events] == [("TileRemoved", []), ("DiceRolled", [0])]
    return gid


def test_removing_a_tile_in_two_player_tarasque_does_not_restart_the_turn(platform: Any, fake_clock: FakeClock) -> None:
    gid = _remove_a_tile_after(platform, fake_clock, {**PER_MOVE, "timeout_policy": "auto"}, 50)
    game = platform.games.load(gid)
    assert platform.timers.deadline(game, 0) == START + timedelta(seconds=60), "one turn, one deadline: not 110 s"
    assert game.turns == {"0": START.isoformat()}


def test_removing_a_tile_in_two_player_tarasque_pays_the_bank_increment_once(
    platform: Any, fake_clock: FakeClock
) -> None:
    gid = _remove_a_tile_after(platform, fake_clock, {**BANK, "timeout_policy": "auto"}, 30)
    assert _settlements(platform, gid) == {}, "the turn goes on: nothing to settle yet"
    game = platform.games.load(gid)
    assert game.banks == {"0": 90.0, "1": 90.0}
    platform.wait_for_projections()
    summary = platform.views.game_summary(gid)
    assert summary["clock"]["turns"] == {"0": START.isoformat()} and summary["awaiting"] == [0]


@pytest.mark.parametrize(("slug", "seats"), GAMES, ids=[g for g, _ in GAMES])
def test_one_missed_deadline_writes_one_timeout_and_the_policy_plays_out_the_turn(
    platform: Any, fake_clock: FakeClock, slug: str, seats: int
) -> None:
    """In Tarasque a turn holds up to a dozen decisions; before, each was its own
    ``TurnTimedOut`` with the same deadline (2 in Mékong and Drachenreiter)."""
    gid, _ = _table(platform, slug, seats, {**PER_MOVE, "timeout_policy": "auto"})
    rng = random.Random(4)
    timed_out = 0
    multi = 0
    for _ in range(200):
        game = platform.games.load(gid)
        if game.status != "active":
            break
        seat = game.awaiting[0]
        if rng.random() < 0.5:
            _move(platform, gid, game, seat, rng)
            continue
        _miss_deadline(platform, fake_clock, gid, game, seat)
        timed_out += 1
        written = _events(platform, gid, game.version)
        multi += any(type(e).__name__ == "PolicyPlayed" for e in written)
    outs = [e for e in _events(platform, gid) if isinstance(e, Game.TurnTimedOut)]
    assert len(outs) == timed_out > 0
    if slug == "tarasque":
        assert multi, "a Tarasque turn holds several decisions, played out after one TurnTimedOut"


def test_a_game_stored_before_rule_events_closed_their_decision_folds_as_it_did(
    platform: Any, fake_clock: FakeClock
) -> None:
    """Its rule events lack ``closes``: each reads as closing, so its turns move at every rule
    event as they did when it was played (and the verifier follows them so)."""
    from dataclasses import replace

    from domain.kernel import Viewer
    from services.audits.records import events_json, header
    from services.audits.verification import verify

    gid = _remove_a_tile_after(platform, fake_clock, {**PER_MOVE, "timeout_policy": "auto"}, 50)
    mapper = platform.store.mapper
    legacy_id = uuid.uuid4()
    stored = []
    for event in _events(platform, gid):
        record = mapper.to_stored_event(event)
        state = mapper.transcoder.decode(record.state)
        state.pop("closes", None)
        stored.append(replace(record, originator_id=legacy_id, state=mapper.transcoder.encode(state)))
    platform.store.recorder.insert_events(stored)
    old = platform.games.load(str(legacy_id))
    assert old.turns == {"0": (START + timedelta(seconds=50)).isoformat()}, "restarted by DiceRolled, as it was"
    assert platform.games.load(gid).turns == {"0": START.isoformat()}
    seed = platform.seeds.of(uuid.UUID(gid))  # the copy keeps the original's seed commitment
    events = events_json(platform.games, str(legacy_id), Viewer.everyone())
    assert not any("closes" in e for e in events)
    report = verify(header(old, seed.hex()), events, seed)
    assert report["problems"] == [
        {"where": "end", "message": "the game never ended in this record", "version": len(events)}
    ], "every decision so far re-derives"
