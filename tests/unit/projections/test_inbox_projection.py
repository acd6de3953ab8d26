"""The inbox: a read model of its own that tells each seated account what its games do, once.

Its entries must be those the platform's own runner writes, whatever the batches it is fed and
however often a runner restarts (it then recalls a running game from the event store); a rebuild of
it alone adds what the feed misses and tells no one twice; and a game it cannot apply is set aside
by it alone, then told when the code can.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from eventsourcing.persistence import Tracking

from projections import set_aside, turn_notices
from projections.inbox_projection import InboxProjection
from projections.views import tracking_name
from services.accounts.account_feed import Entry
from services.common.ports import NullWork
from tests.conftest import make_settings
from tests.support.rated_games import fresh_views, play_out, play_table
from wiring import bootstrap

PLAYERS = [("a", "greedy"), ("b", "random")]
HOUR = {"kind": "per_move", "seconds": 3600, "timeout_policy": "auto"}


class Told:
    """Where the inbox's entries go in these tests: kept once per dedupe key, as the feed keeps them."""

    def __init__(self) -> None:
        self.entries: dict[str, Entry] = {}

    def append(self, entries: Sequence[Entry]) -> int:
        new = [e for e in entries if e.dedupe not in self.entries]
        self.entries.update((e.dedupe, e) for e in new)
        return len(new)


def _items(store: Any) -> list[Any]:
    notes = store.recorder.select_notifications(1, 10_000)
    return [(store.mapper.to_domain_event(n), Tracking(store.name, n.id)) for n in notes]


def _timed_game(platform: Any) -> str:
    gid = str(platform.games.create_game("a", "seven-dragons", None, None, 2, time_control=HOUR).id)
    for player_id, bot in PLAYERS:
        platform.games.take_seat(gid, player_id, player_id, "bot", bot=bot)
    return gid


def _feed_rows(platform: Any) -> list[dict[str, Any]]:
    return list(platform.feed.db.query("SELECT cursor, dedupe, payload FROM dh_account_events ORDER BY cursor"))


def test_the_inbox_tells_what_the_platform_told_whatever_the_batches_and_restarts(platform: Any) -> None:
    """Its entries are a function of the events alone: fed in one batch, or in small ones each
    by a projection built afresh (a new runner, which recalls the running games from the store),
    it tells exactly what the platform's own runner told, under the same keys."""
    play_table(platform, "seven-dragons", PLAYERS, random.Random(4))
    play_out(platform, _timed_game(platform))
    running = _timed_game(platform)
    platform.wait_for_projections()
    items = _items(platform.store)
    in_one_go = Told()
    InboxProjection(fresh_views(), platform.store, in_one_go).process_batch(items)
    in_parts, views = Told(), fresh_views()
    for k in range(0, len(items), 5):
        InboxProjection(views, platform.store, in_parts).process_batch(items[k : k + 5])
    assert in_parts.entries == in_one_go.entries
    assert sorted(in_one_go.entries) == sorted(r["dedupe"] for r in _feed_rows(platform))
    kinds = {(e.type, e.game_id == running) for e in in_one_go.entries.values()}
    assert {("game_started", False), ("your_turn", False), ("game_finished", False), ("your_turn", True)} <= kinds
    assert any(e.payload["deadline"] for e in in_one_go.entries.values() if e.type == "your_turn")  # timed games


def test_a_turn_on_a_bank_clock_is_told_at_the_version_its_save_ends_at(platform: Any) -> None:
    """A bank clock charges the turn that ended with a ``ClockSettled`` after the decision's events:
    a ``your_turn`` gives the version the game is at once that save is stored, which a client
    plays at, not the version of the event that began the turn (its key keeps that one)."""
    bank = {"kind": "bank", "initial": 3600, "increment": 60, "cap": 7200, "timeout_policy": "auto"}
    gid = str(platform.games.create_game("a", "seven-dragons", None, None, 2, time_control=bank).id)
    for player_id, bot in PLAYERS:
        platform.games.take_seat(gid, player_id, player_id, "bot", bot=bot)
    play_out(platform, gid)
    told = Told()
    InboxProjection(fresh_views(), platform.store, told).process_batch(_items(platform.store))
    events = {e.originator_version: type(e).__name__ for e in platform.games.stored_events(gid)}
    turns = [e for e in told.entries.values() if e.type == "your_turn"]
    assert turns and "ClockSettled" in events.values()
    for entry in turns:
        version = entry.payload["version"]
        assert events.get(version + 1) != "ClockSettled", entry
        assert version - int(entry.dedupe.split(":")[2]) in (0, 1)
    assert any(events[e.payload["version"]] == "ClockSettled" for e in turns)


def test_the_inbox_starts_from_the_position_it_shared_with_the_game_list() -> None:
    """The first start of this version: the game list wrote the feed up to its position, so the
    inbox starts there; with no position recorded, from the first event."""
    upgraded = fresh_views()
    upgraded.start_position(tracking_name("games"), 42)
    assert InboxProjection(upgraded, None, None).position() == 42
    assert InboxProjection(fresh_views(), None, None).position() == 0
    upgraded.drop_views("inbox")
    assert InboxProjection(upgraded, None, None).position() == 0


def test_the_inbox_rebuilt_alone_adds_what_the_feed_misses_and_tells_no_one_twice(tmp_path: Path) -> None:
    settings = make_settings("sqlite", tmp_path)
    platform = bootstrap(settings, work=NullWork())
    try:
        play_table(platform, "seven-dragons", PLAYERS, random.Random(7))
        platform.wait_for_projections()
    finally:
        platform.close()
    reader = bootstrap(settings, projections=False, work=NullWork())
    try:
        told = _feed_rows(reader)
        lost = told[1::2]
        for row in lost:
            reader.feed.db.execute("DELETE FROM dh_account_events WHERE dedupe = ?", (row["dedupe"],))
        reader.views.drop_views("inbox")
        games_before = reader.views.dump()["dh_games"]
    finally:
        reader.close()
    platform = bootstrap(settings, work=NullWork())  # its runner starts from the lowest position
    try:
        platform.wait_for_projections()
        after = _feed_rows(platform)
        kept = {r["dedupe"]: r["cursor"] for r in told if r not in lost}
        assert {r["dedupe"]: r["cursor"] for r in after if r["dedupe"] in kept} == kept  # none told again
        assert sorted(r["dedupe"] for r in after) == sorted(r["dedupe"] for r in told)  # the lost ones are back
        assert platform.views.dump()["dh_games"] == games_before
    finally:
        platform.close()


def test_a_game_the_inbox_cannot_apply_is_set_aside_by_it_alone_and_told_when_the_code_can(
    platform: Any, monkeypatch: Any
) -> None:
    tell = turn_notices.tell_seats

    def poisoned(memory: Any, notices: Any, e: Any, kind: str, facts: Any) -> None:
        if memory.game_meta(str(e.originator_id))["game"] == "tarasque":
            raise ValueError("no notice for this game")
        tell(memory, notices, e, kind, facts)

    monkeypatch.setattr(turn_notices, "tell_seats", poisoned)
    bad = play_table(platform, "tarasque", PLAYERS, random.Random(2))
    good = play_table(platform, "seven-dragons", PLAYERS, random.Random(3))
    items, views, told = _items(platform.store), fresh_views(), Told()
    InboxProjection(views, platform.store, told).process_batch(items)
    (aside,) = views.set_aside_games(set_aside.INBOX_TABLE)
    assert aside["game_id"] == str(bad.id) and "no notice for this game" in aside["error"]
    assert {e.game_id for e in told.entries.values()} == {str(good.id)}
    assert views.set_aside_games() == []  # the game list is another read model
    monkeypatch.undo()  # the upgrade: the code now tells it
    InboxProjection(views, platform.store, told).retry_set_aside(lambda gid: list(platform.games.stored_events(gid)))
    assert views.set_aside_games(set_aside.INBOX_TABLE) == []
    in_one_go = Told()
    InboxProjection(fresh_views(), platform.store, in_one_go).process_batch(items)
    assert told.entries == in_one_go.entries and {e.game_id for e in told.entries.values()} == {
        str(bad.id),
        str(good.id),
    }
