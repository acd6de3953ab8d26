"""One projection per read model: each with its own tracking position, each rebuilt alone.

The game list, the boards, the ratings, the deadline index and the inbox are kept by projections of
their own (``projections.tracked``), fed by one runner that reads each batch once. These tests
set one read model back and check that it catches up to what it was, while the others are left
as they are: were the positions shared, or a projection not to skip what it holds, the game list
would apply its events twice (and set every game aside) or the others would stay empty.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from eventsourcing.persistence import Tracking

from projections import set_aside
from projections.board_projection import BoardProjection
from projections.deadline_projection import DeadlineProjection
from projections.games import GameProjection
from projections.inbox_projection import InboxProjection
from projections.rating_projection import RatingProjection
from projections.ratings import RatingBook
from projections.views import READ_MODEL_TABLES, READ_MODELS, tracking_name
from services.common.ports import NullWork
from tests.conftest import make_settings
from tests.support.rated_games import fresh_views, play_table, rebuild
from wiring import bootstrap

PLAYERS = [("a", "greedy"), ("b", "random")]
HOUR = {"kind": "per_move", "seconds": 3600, "timeout_policy": "auto"}
MARKERS = {
    "games": ("UPDATE {p}dh_games SET creator = 'kept'", ()),
    "boards": ("UPDATE {p}dh_boards SET state = 'kept'", ()),
    "ratings": ("UPDATE {p}dh_rating_games SET verdict = 'kept'", ()),
    "deadlines": ("UPDATE {p}dh_deadlines SET updated_at = 'kept'", ()),
}
"""A change to each read model's tables that a rebuild of it would undo. (The inbox's only table
is its record of games set aside: it writes the account feed, which a rebuild never rewrites,
``test_inbox_projection``.)"""


def _sqlite(tmp: Path) -> Any:
    return bootstrap(make_settings("sqlite", tmp), work=NullWork())


def _tables(views: Any, model: str) -> dict[str, list[dict[str, Any]]]:
    dump = views.dump()
    return {table: dump[table] for table in READ_MODEL_TABLES[model]}


@pytest.fixture
def played(tmp_path: Path) -> Iterator[Path]:
    """A SQLite deployment's data directory with three finished games, one just created, and one
    timed game awaiting a server bot."""
    platform = _sqlite(tmp_path)
    try:
        rng = random.Random(7)
        for _ in range(3):
            play_table(platform, "seven-dragons", PLAYERS, rng)
        platform.games.create_game("a", "seven-dragons", None, None, 2)
        _timed_bot_game(platform)
        platform.wait_for_projections()
    finally:
        platform.close()
    yield tmp_path


def _timed_bot_game(platform: Any) -> str:
    """A game with a clock, started and awaiting a server bot (no worker plays it here)."""
    gid = str(platform.games.create_game("a", "seven-dragons", None, None, 2, time_control=HOUR).id)
    for player_id, bot in PLAYERS:
        platform.games.take_seat(gid, player_id, player_id, "bot", bot=bot)
    return gid


@pytest.mark.parametrize("model", ["boards", "ratings", "deadlines", "inbox"])
def test_each_read_model_has_its_own_position(played: Path, model: str) -> None:
    reader = bootstrap(make_settings("sqlite", played), projections=False, work=NullWork())
    try:
        head = reader.store.recorder.max_notification_id()
        assert reader.views.positions() == dict.fromkeys(READ_MODELS, head)
        assert len({tracking_name(m) for m in READ_MODELS}) == len(READ_MODELS) == 5
        reader.views.write([("DELETE FROM tracking WHERE application_name = ?", (tracking_name(model),))])
        assert reader.tracked() == head  # before a runner of this version starts: the position they shared
        reader.views.drop_views(model)
        assert reader.views.positions() == {**dict.fromkeys(READ_MODELS, head), model: 0}
        assert reader.tracked() == 0  # the lag /healthz shows is the read model furthest behind
    finally:
        reader.close()


@pytest.mark.parametrize("rebuilt", READ_MODELS)
def test_a_read_model_set_back_catches_up_alone_and_the_others_are_untouched(played: Path, rebuilt: str) -> None:
    kept = [m for m in READ_MODELS if m != rebuilt]
    reader = bootstrap(make_settings("sqlite", played), projections=False, work=NullWork())
    try:
        before = reader.views.dump()
        assert any(r["next_deadline"] and r["bots_awaited"] for r in before["dh_deadlines"])  # something due
        assert len(before["dh_boards"]) == 4 and all(r["state"] for r in before["dh_boards"])  # 3 ended, 1 running
        head = reader.store.recorder.max_notification_id()
        reader.views.drop_views(rebuilt)
        reader.views.write([MARKERS[m] for m in kept if m in MARKERS])  # a rebuild of the others would undo them
        kept_before = {m: _tables(reader.views, m) for m in kept}
        assert not any(_tables(reader.views, rebuilt).values())
    finally:
        reader.close()
    platform = _sqlite(played)  # its runner starts from the lowest position
    try:
        platform.wait_for_projections()
        platform.close()  # writes out the boards
        after = bootstrap(make_settings("sqlite", played), projections=False, work=NullWork())
        try:
            assert _tables(after.views, rebuilt) == {t: before[t] for t in READ_MODEL_TABLES[rebuilt]}
            assert {m: _tables(after.views, m) for m in kept} == kept_before
            assert all(after.views.set_aside_games(t) == [] for t in set_aside.READ_MODEL_TABLES.values())
            assert after.views.positions() == dict.fromkeys(READ_MODELS, head)
        finally:
            after.close()
    finally:
        platform.close()


def test_the_runner_builds_each_projection_with_what_it_needs(platform: Any) -> None:
    """No projection is given its event store or feed after it is built."""
    games, boards, ratings, deadlines, inbox = platform.runner.projections
    assert isinstance(games, GameProjection) and isinstance(ratings, RatingProjection)
    assert isinstance(boards, BoardProjection) and isinstance(deadlines, DeadlineProjection)
    assert isinstance(inbox, InboxProjection) and inbox.feed is platform.feed
    assert boards.memory.app is platform.runner.app is inbox.app is platform.store
    assert type(games) is GameProjection


def test_a_projection_skips_the_events_its_position_has_passed(platform: Any) -> None:
    play_table(platform, "seven-dragons", PLAYERS, random.Random(3))
    store = platform.store
    notes = store.recorder.select_notifications(1, 1000)
    items = [(store.mapper.to_domain_event(n), Tracking(store.name, n.id)) for n in notes]
    views = fresh_views()
    RatingProjection(views).process_batch(items)
    once = views.dump()
    again = RatingProjection(views)
    assert again.position() == notes[-1].id
    again.process_batch(items[: len(items) // 2])
    again.process_batch(items)
    assert views.dump() == once and len(once["dh_rating_history"]) == 2


def test_the_ratings_start_from_the_position_they_shared_with_the_game_list() -> None:
    """The first start of this version: the rating tables were written with the game list's
    position, so the ratings take it; with none recorded they start from the first event."""
    upgraded = fresh_views()
    upgraded.start_position(tracking_name("games"), 42)
    assert RatingProjection(upgraded).position() == 42
    assert RatingProjection(fresh_views()).position() == 0
    upgraded.drop_views("ratings")
    assert RatingProjection(upgraded).position() == 0


def test_a_game_the_ratings_cannot_apply_is_set_aside_by_them_alone(platform: Any, monkeypatch: Any) -> None:
    created = RatingBook.created

    def poisoned(self: RatingBook, gid: str, game: str, *args: Any) -> Any:
        if game == "tarasque":
            raise ValueError("no rating for this game")
        return created(self, gid, game, *args)

    monkeypatch.setattr(RatingBook, "created", poisoned)
    bad = str(platform.games.create_game("a", "tarasque", None, None, 2).id)
    play_table(platform, "seven-dragons", PLAYERS, random.Random(5))
    platform.wait_for_projections()
    (aside,) = platform.views.set_aside_games(set_aside.RATINGS_TABLE)
    assert aside["game_id"] == bad and "no rating for this game" in aside["error"]
    assert platform.views.set_aside_games() == []
    assert platform.views.game_summary(bad) is not None  # the game list has it
    assert len(platform.views.dump()["dh_rating_history"]) == 2  # the other game is rated
    check = set_aside.SetAsideCheck(platform.views)()
    assert check.detail["count"] == 1 and check.detail["games"][0]["read_model"] == "ratings"


def test_a_game_begun_before_the_ratings_kept_seats_takes_them_from_its_summary(platform: Any) -> None:
    """Its seats were kept by the game list alone, which projects each batch first: a seat taken
    after the upgrade is then in the summary already, and counts once."""
    from tests.support.rated_games import projections

    gid = str(platform.games.create_game("a", "seven-dragons", None, None, 3).id)
    platform.games.take_seat(gid, "a", "a", "human")
    store, views = platform.store, fresh_views()

    def project(first: int, built: list[Any]) -> int:
        notes = store.recorder.select_notifications(first, 1000)
        items = [(store.mapper.to_domain_event(n), Tracking(store.name, n.id)) for n in notes]
        for projection in built:
            projection.process_batch(items)
        return notes[-1].id + 1

    after = project(1, projections(views, store, None))
    views.write([("DELETE FROM {p}dh_rating_seats", ())])  # as before this version
    platform.games.take_seat(gid, "b", "b", "human")
    project(after, projections(views, store, None))
    assert [s["player_id"] for s in views.rating_seats(gid) or []] == ["a", "b"]


def test_a_game_rated_across_a_restart_of_the_runner_is_rated_as_in_one_go(platform: Any) -> None:
    """A new runner's ratings know the seats of a game begun before it from ``dh_rating_seats``."""
    from tests.support.rated_games import projections, rating_tables, rebuild

    play_table(platform, "seven-dragons", [("a", "greedy"), ("b", "random"), ("c", "random")], random.Random(9))
    store, views = platform.store, fresh_views()
    notes = store.recorder.select_notifications(1, 10_000)
    items = [(store.mapper.to_domain_event(n), Tracking(store.name, n.id)) for n in notes]
    half = len(items) // 2
    for part in (items[:half], items[half:]):  # each part by projections built afresh, as by a new runner
        for projection in projections(views, store, None):
            projection.process_batch(part)
    rated = rating_tables(views)
    assert rated == rating_tables(rebuild(store)) and len(rated["dh_rating_history"]) == 3


def test_the_deadlines_start_from_the_position_they_shared_with_the_game_list_and_its_clocks(
    deployment: Any,
) -> None:
    """The first start of this version: the deadlines take the game list's position, and for each
    game it holds the deadlines its clock gives, just as projected; not a game the game list set
    aside (its row stops before its last events). With no position: from the first event."""
    from datetime import timedelta

    from services.common import clock

    platform = deployment
    _timed_bot_game(platform)
    play_table(platform, "seven-dragons", PLAYERS, random.Random(11))
    platform.games.create_game("a", "seven-dragons", None, None, 2, starts_at=clock.now() + timedelta(hours=2))
    aside = str(platform.games.create_game("a", "seven-dragons", None, None, 2, time_control=HOUR).id)
    views = rebuild(platform.store, platform.views)
    exact, position = views.dump()["dh_deadlines"], views.max_tracking_id(tracking_name("games"))
    assert {(r["status"], bool(r["next_deadline"]), r["bots_awaited"]) for r in exact} == {
        ("active", True, 1), ("finished", False, 0), ("scheduled", True, 0), ("open", False, 0)
    }  # fmt: skip
    views.write(
        [
            ("DELETE FROM {p}dh_deadlines", ()),
            (f"DELETE FROM {views._tracking_table()} WHERE application_name = ?", (tracking_name("deadlines"),)),
            set_aside.marks({aside: (1, "ValueError: as the game list once failed")}, {}, "2026-01-01")[0],
        ]
    )  # the read models as the version before this one left them
    assert DeadlineProjection(views).position() == position
    assert views.dump()["dh_deadlines"] == [r for r in exact if r["game_id"] != aside]
    views.drop_views("deadlines")
    assert DeadlineProjection(views).position() == 0
    assert DeadlineProjection(fresh_views()).position() == 0


def test_the_sweep_reads_the_deadline_index_alone(platform: Any) -> None:
    """The games due and the bots stalled come from ``dh_deadlines``: set back, it finds none,
    while the game list still holds the game."""
    gid = _timed_bot_game(platform)
    platform.wait_for_projections()
    views, far, past = platform.views, "9999", "0000"
    assert [r["game_id"] for r in views.due_games(far, past, past)] == [gid]
    assert [r["game_id"] for r in views.stalled_bot_games(None)] == [gid]
    views.drop_views("deadlines")
    assert views.game_summary(gid) is not None
    assert views.due_games(far, past, past) == [] == views.stalled_bot_games(None)


def test_deadlines_kept_across_a_restart_of_the_runner_are_as_in_one_go(platform: Any) -> None:
    """A new runner's deadlines know the clock of a game begun before it from its ``dh_deadlines`` row."""
    from tests.support.rated_games import play_out

    play_out(platform, _timed_bot_game(platform))
    _timed_bot_game(platform)
    store, views = platform.store, fresh_views()
    notes = store.recorder.select_notifications(1, 10_000)
    items = [(store.mapper.to_domain_event(n), Tracking(store.name, n.id)) for n in notes]
    for k in range(0, len(items), 7):  # each part by a projection built afresh, as by a new runner
        DeadlineProjection(views).process_batch(items[k : k + 7])
    kept = views.dump()["dh_deadlines"]
    assert kept == rebuild(store).dump()["dh_deadlines"] and len(kept) == 2
    assert {r["status"] for r in kept} == {"finished", "active"}


def test_a_game_whose_deadline_cannot_be_computed_is_set_aside_by_the_deadlines_alone_and_retried(
    platform: Any, monkeypatch: Any
) -> None:
    """Deadlines are computed once per game after the batch: the game whose deadline fails is the
    one set aside, not the game of the batch's last event, and the game list keeps it. A runner
    started with code that computes it brings its row back, as a projection in one go writes it."""
    from projections import deadline_index

    timing = deadline_index.timing

    def poisoned(tc: Any, held: Any, bots: Any) -> Any:
        if tc.get("seconds") == 7777:
            raise OverflowError("no deadline for this clock")
        return timing(tc, held, bots)

    monkeypatch.setattr(deadline_index, "timing", poisoned)
    bad = str(
        platform.games.create_game("a", "seven-dragons", None, None, 2, time_control={**HOUR, "seconds": 7777}).id
    )
    for player_id, bot in PLAYERS:
        platform.games.take_seat(bad, player_id, player_id, "bot", bot=bot)
    good = _timed_bot_game(platform)  # its events come last
    store, views = platform.store, fresh_views()
    notes = store.recorder.select_notifications(1, 10_000)
    DeadlineProjection(views).process_batch(
        [(store.mapper.to_domain_event(n), Tracking(store.name, n.id)) for n in notes]
    )
    assert [r["game_id"] for r in views.set_aside_games(set_aside.DEADLINES_TABLE)] == [bad]
    assert views.deadline_row(bad) is None and (views.deadline_row(good) or {}).get("next_deadline")
    platform.wait_for_projections()
    assert platform.views.game_summary(bad) is not None and platform.views.set_aside_games() == []
    monkeypatch.undo()  # the upgrade: the code now computes its deadline
    DeadlineProjection(views).retry_set_aside(lambda gid: list(platform.games.stored_events(gid)))
    assert views.set_aside_games(set_aside.DEADLINES_TABLE) == []
    in_one_go = fresh_views()
    notes = store.recorder.select_notifications(1, 10_000)
    DeadlineProjection(in_one_go).process_batch(
        [(store.mapper.to_domain_event(n), Tracking(store.name, n.id)) for n in notes]
    )
    assert views.deadline_row(bad) == in_one_go.deadline_row(bad) is not None
