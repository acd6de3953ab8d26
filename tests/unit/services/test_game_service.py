"""The write side through its use cases, on the in-memory store (Dice Race stands in for a game)."""

from __future__ import annotations

from typing import Any

import pytest

from domain.kernel import IllegalMove, MalformedMove, NotYourTurn, Rng
from services.common.errors import (
    CommandReused,
    InvalidRequest,
    NotAcceptingMoves,
    NotAPlayer,
    NotCreator,
    SeatUnavailable,
    StaleVersion,
)
from services.play.aggregate import Game
from tests.support.names import fresh


def _table(platform: Any, players: int = 2) -> tuple[str, list[str]]:
    ids = [platform.accounts.register(fresh(f"p{i}"), "human")[0].id for i in range(players)]
    game = platform.games.create_game(ids[0], "dice-race", None, None, players)
    for pid in ids:
        platform.games.take_seat(str(game.id), pid, pid[:4], "human")
    return str(game.id), ids


def _versions(platform: Any, gid: str) -> list[int]:
    return [e.originator_version for e in platform.games.stored_events(gid)]


def test_a_game_starts_by_itself_when_its_last_seat_fills(platform: Any) -> None:
    gid, _ = _table(platform)
    game = platform.games.load(gid)
    assert game.status == "active"
    assert game.awaiting == [0, 1]
    kinds = [type(e).__name__ for e in platform.games.stored_events(gid)]
    assert kinds[:4] == ["Created", "SeatTaken", "SeatTaken", "Started"]
    assert kinds[4:] == ["SecretDealt", "SecretDealt"]


def test_a_move_records_its_cause_then_the_rule_events_with_hashes(platform: Any) -> None:
    gid, ids = _table(platform)
    result = platform.games.submit_move(gid, ids[0], {"type": "bid", "amount": 2})
    types = [e["type"] for e in result["events"]]
    assert types == ["MoveMade", "BidPlaced"]
    stored = list(platform.games.stored_events(gid))[-1]
    assert isinstance(stored, Game.RuleEvent) and len(stored.state_hash) == 64
    assert stored.awaiting == [1]


def test_a_stale_expected_version_is_refused_before_the_move_is_judged(platform: Any) -> None:
    gid, ids = _table(platform)
    before = _versions(platform, gid)
    with pytest.raises(StaleVersion):
        platform.games.submit_move(gid, ids[0], {"type": "no-such-move"}, expected_version=1)
    assert _versions(platform, gid) == before


def test_an_illegal_move_writes_nothing_and_names_its_rule(platform: Any) -> None:
    gid, ids = _table(platform)
    before = _versions(platform, gid)
    with pytest.raises(IllegalMove) as err:
        platform.games.submit_move(gid, ids[0], {"type": "bid", "amount": 7})
    assert err.value.rule.id == "dice-race.bid"
    with pytest.raises(MalformedMove):
        platform.games.submit_move(gid, ids[0], {"type": "bid", "amount": "2"})
    assert _versions(platform, gid) == before


def test_moving_out_of_turn_is_refused(platform: Any) -> None:
    gid, ids = _table(platform)
    platform.games.submit_move(gid, ids[0], {"type": "bid", "amount": 0})
    with pytest.raises(NotYourTurn):
        platform.games.submit_move(gid, ids[0], {"type": "bid", "amount": 1})


def test_a_repeated_command_id_returns_the_first_result_and_writes_nothing(platform: Any) -> None:
    gid, ids = _table(platform)
    first = platform.games.submit_move(gid, ids[0], {"type": "bid", "amount": 1}, command_id="c-1")
    again = platform.games.submit_move(gid, ids[0], {"type": "bid", "amount": 1}, command_id="c-1")
    assert again["version"] == first["version"] and again["events"] == first["events"]
    assert again["replayed"] is True
    assert _versions(platform, gid)[-1] == first["version"]
    with pytest.raises(CommandReused):
        platform.games.submit_move(gid, ids[0], {"type": "bid", "amount": 2}, command_id="c-1")


def test_a_stranger_cannot_move_and_a_finished_game_accepts_nothing(platform: Any) -> None:
    gid, ids = _table(platform)
    stranger = platform.accounts.register("x", "human")[0].id
    with pytest.raises(NotAPlayer):
        platform.games.submit_move(gid, stranger, {"type": "bid", "amount": 0})
    platform.games.resign(gid, ids[1])
    assert platform.games.load(gid).status == "finished"
    with pytest.raises(NotAcceptingMoves):
        platform.games.submit_move(gid, ids[0], {"type": "bid", "amount": 0})


def test_resigning_ends_a_two_seat_game_with_the_leaver_last_and_reveals_the_seed(platform: Any) -> None:
    gid, ids = _table(platform)
    platform.games.resign(gid, ids[0])
    game = platform.games.load(gid)
    assert game.status == "finished"
    assert game.outcome["places"] == [2, 1]
    assert game.seed == platform.seeds.of(game.id).hex()
    import hashlib

    assert hashlib.sha256(bytes.fromhex(game.seed)).hexdigest() == game.seed_commitment


def test_seats_are_checked(platform: Any) -> None:
    owner = platform.accounts.register("o", "human")[0].id
    game = platform.games.create_game(owner, "dice-race", None, None, 3)
    gid = str(game.id)
    platform.games.take_seat(gid, owner, "o", "human", seat=2)
    with pytest.raises(SeatUnavailable):
        platform.games.take_seat(gid, owner, "o", "human", seat=2)
    with pytest.raises(InvalidRequest):
        platform.games.take_seat(gid, owner, "o", "bot", bot="no-such-bot")
    with pytest.raises(NotCreator):
        platform.games.start(gid, "someone-else")
    with pytest.raises(SeatUnavailable):
        platform.games.start(gid, owner)  # one seated player is below the minimum of two


def test_the_creator_may_start_early_and_seats_are_renumbered(platform: Any) -> None:
    owner, other = (platform.accounts.register(n, "human")[0].id for n in "ab")
    game = platform.games.create_game(owner, "dice-race", None, None, 4)
    gid = str(game.id)
    platform.games.take_seat(gid, owner, "a", "human", seat=3)
    platform.games.take_seat(gid, other, "b", "human", seat=1)
    game = platform.games.start(gid, owner)
    assert [(s["seat"], s["player_id"]) for s in game.seats] == [(0, other), (1, owner)]
    assert game.status == "active"


def test_unknown_games_variants_and_seat_counts_are_refused_by_field(platform: Any) -> None:
    with pytest.raises(InvalidRequest) as err:
        platform.games.create_game("o", "no-such-game", None, None, 2)
    assert err.value.field == "game"
    with pytest.raises(InvalidRequest) as err:
        platform.games.create_game("o", "dice-race", None, None, 9)
    assert err.value.field == "players"
    with pytest.raises(InvalidRequest) as err:
        platform.games.create_game("o", "dice-race", None, {"goal": 1}, 2)
    assert err.value.field == "options.goal"
    with pytest.raises(InvalidRequest) as err:
        platform.games.create_game("o", "dice-race", "turbo", None, 2)
    assert err.value.field == "variant"


def test_a_bot_task_for_an_old_version_or_a_seat_not_awaited_writes_nothing(platform: Any) -> None:
    gid, _ids = _table(platform)
    game = platform.games.load(gid)
    chose = []

    def choose(g: Any) -> Any:
        chose.append(g.version)
        return g.ruleset.legal_moves(g.state, 0)[0]

    assert platform.games.play_for(gid, 0, game.version, choose) is True
    before = _versions(platform, gid)
    assert platform.games.play_for(gid, 0, game.version, choose) is False  # duplicate of the same task
    assert platform.games.play_for(gid, 0, game.version + 2, choose) is False  # seat 0 is not awaited now
    assert _versions(platform, gid) == before
    assert chose == [game.version]


def test_a_bot_task_overtaken_by_another_seats_move_still_plays_its_seats_decision(platform: Any) -> None:
    """Dice Race bids are simultaneous: both seats are awaited at the same version, and the task
    of the seat that bids second must not be wasted (nor sent again) because the first bid moved
    the game on. A duplicate of it, once played, writes nothing."""
    gid, _ids = _table(platform)
    start = platform.games.load(gid).version
    assert platform.games.load(gid).awaiting == [0, 1]

    def bid(seat: int) -> Any:
        return lambda g: g.ruleset.legal_moves(g.state, seat)[0]

    assert platform.games.play_for(gid, 1, start, bid(1)) is True
    assert platform.games.load(gid).version > start
    assert platform.games.play_for(gid, 0, start, bid(0)) is True  # overtaken, still its decision
    after = _versions(platform, gid)
    assert platform.games.play_for(gid, 0, start, bid(0)) is False  # seat 0 acted since: a duplicate
    assert platform.games.play_for(gid, 1, start, bid(1)) is False
    assert _versions(platform, gid) == after


def test_a_bot_that_was_overtaken_while_it_chose_chooses_again_on_the_new_game(platform: Any) -> None:
    gid, ids = _table(platform)
    start = platform.games.load(gid).version
    seen: list[int] = []

    def choose(g: Any) -> Any:
        seen.append(g.version)
        if len(seen) == 1:  # while seat 0's bot thinks, seat 1 bids
            platform.games.submit_move(gid, ids[1], {"type": "bid", "amount": 0})
        return g.ruleset.legal_moves(g.state, 0)[0]

    released: list[bool] = []
    assert platform.games.play_for(gid, 0, start, choose, before_save=lambda: released.append(True)) is True
    assert seen[0] == start and seen[1] > start
    assert released == [True]


def test_decisions_use_the_seeded_generator_of_their_version(platform: Any) -> None:
    gid, ids = _table(platform)
    platform.games.submit_move(gid, ids[0], {"type": "bid", "amount": 0})
    platform.games.submit_move(gid, ids[1], {"type": "bid", "amount": 0})
    game = platform.games.load(gid)
    roller = game.seat_info(game.awaiting[0])["player_id"]
    version = game.version
    result = platform.games.submit_move(gid, roller, {"type": "roll"})
    rolled = next(e for e in result["events"] if e["type"] == "DieRolled")["data"]["value"]
    assert rolled == Rng(platform.seeds.of(game.id), f"v{version}").randint(1, 6)


def test_snapshots_let_a_past_version_load_like_a_fold(platform: Any) -> None:
    platform.store.configure(snapshot_interval=5)
    gid, _ids = _table(platform)
    for _ in range(6):
        game = platform.games.load(gid)
        if game.status != "active":
            break
        seat = game.awaiting[0]
        move = game.ruleset.legal_moves(game.state, seat)[0]
        platform.games.submit_move(gid, game.seat_info(seat)["player_id"], game.ruleset.commands.dump(move), seat=seat)
    snaps = list(platform.store.snapshots.get(platform.games.load(gid).id))
    assert snaps, "no snapshot was taken"
    for v in range(1, platform.games.load(gid).version + 1):
        past = platform.games.load_at(gid, v)
        folded = None
        for e in list(platform.store.events.get(past.id, lte=v)):
            folded = e.mutate(folded)
        assert past.state == folded.state and past.version == folded.version == v


def test_a_write_from_another_process_is_seen_by_the_next_load(platform: Any) -> None:
    """With several writers (PostgreSQL deployments), a cached game is fast-forwarded from the store."""
    platform.uow.single_writer = False
    gid, ids = _table(platform)
    cached = platform.games.load(gid)
    other = platform.games.load(gid)
    other.record(
        Game.MoveMade,
        {"seat": 0, "player_id": ids[0], "move": {"type": "bid", "amount": 1}, "command_id": None},
        other.ruleset.decide(other.state, 0, other.ruleset.parse_move({"type": "bid", "amount": 1}), Rng(b"x", "y")),
    )
    platform.store.save(other)  # behind the cache's back
    assert platform.games.load(gid).version == cached.version + 2
