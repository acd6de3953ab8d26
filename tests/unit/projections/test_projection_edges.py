"""The game and deadline projections take every event shape the commands accept, at the edges of what
they accept, and one shape past them never stops them.

Tables are made through the services with the extremes of each rule: starts at both ends of the
dates' range (``services.common.date_rules``) in the farthest UTC offsets, the longest time controls and
banks, every seat count, seat names of the longest and oddest text; then played to their end by
bots, or left scheduled. Their events reach a projection in batches of any size. Sometimes one
table's ``Created`` is swapped for one no command accepts any more (a start in year 10000 in UTC,
as a request once stored): the deadline index, which computes when it starts, sets that table
alone aside; the game list, which only shows the start, keeps it.

Each property: the projections never raise; every other table's rows hold its last version and
status, and none of them is set aside; the game list's projection remembers no game that ended.
On SQLite and on PostgreSQL."""

from __future__ import annotations

import dataclasses
import itertools
from datetime import timedelta, timezone
from typing import Any

from eventsourcing.persistence import Tracking
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from api.schema_fields import MAX_SECONDS
from projections import set_aside
from projections.deadline_projection import DeadlineProjection
from projections.games import GameProjection
from services.accounts.names import MAX_LENGTH
from services.common import clock, date_rules
from services.common.visibility import ENDED
from services.play.aggregate import Game
from tests.support.rated_games import play_out

DAY = 86_400
YEAR_10000 = "9999-12-31T23:59:59-14:00"
OFFSETS = [timezone(timedelta(hours=h)) for h in (-14, 0, 14)]
TIME_CONTROLS = [
    None,
    {"kind": "per_move", "seconds": 1, "timeout_policy": "auto"},
    {"kind": "per_move", "seconds": MAX_SECONDS, "timeout_policy": "forfeit"},
    {"kind": "bank", "initial": 60 * DAY, "increment": MAX_SECONDS, "cap": 60 * DAY, "timeout_policy": "skip"},
    {"kind": "bank", "initial": 1, "increment": 0, "cap": 1, "timeout_policy": "auto"},
]
NAMES = st.text(min_size=1, max_size=MAX_LENGTH).filter(lambda s: "\x00" not in s) | st.sampled_from(
    ["n" * MAX_LENGTH, "🐉" * MAX_LENGTH, "e\u0301" * (MAX_LENGTH // 2), "'; DROP TABLE dh_games; --"]
)
TABLE = st.fixed_dictionaries(
    {
        "seats": st.integers(2, 4),
        "time_control": st.sampled_from(TIME_CONTROLS),
        "starts_in": st.none() | st.sampled_from([1.0, date_rules.HORIZON.total_seconds() - 60]),
        "offset": st.sampled_from(OFFSETS),
        "names": st.lists(NAMES, min_size=4, max_size=4),
    }
)
_ids = itertools.count()


def _table(platform: Any, spec: dict[str, Any]) -> str:
    """A table made through the services as the spec says: scheduled, or played to its end."""
    n = next(_ids)
    players = [f"p{n}-{k}" for k in range(spec["seats"])]
    starts_at = None
    if spec["starts_in"] is not None:
        starts_at = (clock.now() + timedelta(seconds=spec["starts_in"])).astimezone(spec["offset"])
    table = platform.games.create_game(
        players[0], "dice-race", None, None, spec["seats"], time_control=spec["time_control"], starts_at=starts_at
    )
    gid = str(table.id)
    for k, pid in enumerate(players):
        platform.games.take_seat(gid, pid, spec["names"][k], "bot", bot="random")
    if starts_at is None:
        play_out(platform, gid)
    return gid


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    tables=st.lists(TABLE, min_size=1, max_size=4),
    poison=st.none() | st.integers(0, 3),
    batch=st.integers(1, 60),
)
def test_every_shape_the_commands_accept_is_projected_and_one_past_them_is_set_aside(
    deployment: Any, tables: list[dict[str, Any]], poison: int | None, batch: int
) -> None:
    store = deployment.store
    start = (store.recorder.max_notification_id() or 0) + 1
    gids = [_table(deployment, spec) for spec in tables]
    poisoned = gids[poison] if poison is not None and poison < len(gids) else None
    notes = store.recorder.select_notifications(start, 100_000)
    items = []
    for note in notes:
        event = store.mapper.to_domain_event(note)
        if str(event.originator_id) == poisoned and isinstance(event, Game.Created):
            event = dataclasses.replace(event, starts_at=YEAR_10000)  # past what any command accepts now
        items.append((event, Tracking(store.name, note.id)))

    projection, deadlines = GameProjection(deployment.views), DeadlineProjection(deployment.views)
    for k in range(0, len(items), batch):
        projection.process_batch(items[k : k + batch])
        deadlines.process_batch(items[k : k + batch])
    projection.flush()

    assert deployment.views.set_aside_games() == []
    ended = {gid for gid in gids if deployment.games.load(gid).status in ENDED}
    remembered = projection.memory.meta.keys() | projection.memory.seats.keys() | projection.memory.clocks.keys()
    assert not ended & remembered  # a game that ended leaves the projection's memory
    aside = {r["game_id"] for r in deployment.views.set_aside_games(set_aside.DEADLINES_TABLE)}
    for gid in gids:
        row = deployment.views.game_summary(gid)
        game = deployment.games.load(gid)
        assert row is not None and (row["version"], row["status"]) == (game.version, game.status)
        if gid == poisoned:
            assert gid in aside and deployment.views.deadline_row(gid) is None
            continue
        assert gid not in aside
        assert (deployment.views.deadline_row(gid) or {}).get("status") == game.status
        assert gid in {g["game_id"] for g in deployment.views.list_games(player=game.creator, limit=200)}


def test_the_game_list_remembers_a_bounded_number_of_running_games(deployment: Any) -> None:
    memory = GameProjection(deployment.views).memory
    for n in range(5):
        gid = f"g{n}"
        memory.meta[gid], memory.seats[gid], memory.clocks[gid] = {}, [], {}
    memory.settle(ended={"g1"}, kept=2)
    assert list(memory.meta) == list(memory.seats) == list(memory.clocks) == ["g3", "g4"]
