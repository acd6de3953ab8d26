"""One projection per read model: each with its own tracking position, each rebuilt alone.

The game list (with its boards and deadline index) and the ratings are kept by projections of
their own (``projections.tracked``), fed by one runner that reads each batch once. These tests
set one read model back and check that it catches up to what it was, while the other is left
as it is: were the positions shared, or a projection not to skip what it holds, the game list
would apply its events twice (and set every game aside) or the ratings would stay empty.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from eventsourcing.persistence import Tracking

from projections import set_aside
from projections.games import GameProjection
from projections.rating_projection import RatingProjection
from projections.ratings import RatingBook
from projections.views import READ_MODEL_TABLES, tracking_name
from services.common.ports import NullWork
from tests.conftest import make_settings
from tests.support.rated_games import fresh_views, play_table
from wiring import bootstrap

PLAYERS = [("a", "greedy"), ("b", "random")]


def _sqlite(tmp: Path) -> Any:
    return bootstrap(make_settings("sqlite", tmp), work=NullWork())


def _tables(views: Any, model: str) -> dict[str, list[dict[str, Any]]]:
    dump = views.dump()
    return {table: dump[table] for table in READ_MODEL_TABLES[model]}


@pytest.fixture
def played(tmp_path: Path) -> Iterator[Path]:
    """A SQLite deployment's data directory with three finished games and one just created."""
    platform = _sqlite(tmp_path)
    try:
        rng = random.Random(7)
        for _ in range(3):
            play_table(platform, "seven-dragons", PLAYERS, rng)
        platform.games.create_game("a", "seven-dragons", None, None, 2)
        platform.wait_for_projections()
    finally:
        platform.close()
    yield tmp_path


def test_each_read_model_has_its_own_position(played: Path) -> None:
    reader = bootstrap(make_settings("sqlite", played), projections=False, work=NullWork())
    try:
        head = reader.store.recorder.max_notification_id()
        assert reader.views.positions() == {"games": head, "ratings": head}
        assert tracking_name("games") != tracking_name("ratings")
        reader.views.write([("DELETE FROM tracking WHERE application_name = ?", (tracking_name("ratings"),))])
        assert reader.tracked() == head  # before a runner of this version starts: the position they shared
        reader.views.drop_views("ratings")
        assert reader.views.positions() == {"games": head, "ratings": 0}
        assert reader.tracked() == 0  # the lag /healthz shows is the read model furthest behind
    finally:
        reader.close()


@pytest.mark.parametrize(("rebuilt", "kept"), [("ratings", "games"), ("games", "ratings")])
def test_a_read_model_set_back_catches_up_alone_and_the_other_is_untouched(
    played: Path, rebuilt: str, kept: str
) -> None:
    reader = bootstrap(make_settings("sqlite", played), projections=False, work=NullWork())
    try:
        before = reader.views.dump()
        head = reader.store.recorder.max_notification_id()
        reader.views.drop_views(rebuilt)
        marker = {
            "games": ("UPDATE {p}dh_rating_games SET verdict = 'kept'", ()),
            "ratings": ("UPDATE {p}dh_games SET creator = 'kept'", ()),
        }[rebuilt]
        reader.views.write([marker])  # a rebuild of the other would undo it
        kept_before = _tables(reader.views, kept)
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
            assert _tables(after.views, kept) == kept_before
            assert after.views.set_aside_games() == [] == after.views.set_aside_games(set_aside.RATINGS_TABLE)
            assert after.views.positions() == {"games": head, "ratings": head}
        finally:
            after.close()
    finally:
        platform.close()


def test_the_runner_builds_each_projection_with_what_it_needs(platform: Any) -> None:
    """No projection is given its event store or feed after it is built."""
    games, ratings = platform.runner.projections
    assert isinstance(games, GameProjection) and isinstance(ratings, RatingProjection)
    assert games.memory.app is platform.runner.app is platform.store and games.feed is platform.feed
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
