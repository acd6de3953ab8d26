"""The boards, a read model of their own: one fold per rule event, their own position, their own
games set aside, and the game list's position and boards taken over on the first start.

The game list no longer folds a board (``projections.games``): were it to, every rule event would
be folded twice; were the boards to read the game list's rows, a rebuild of one would break the
other. These tests feed the projections themselves, as a runner would."""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from typing import Any

from eventsourcing.persistence import Tracking

from domain.kernel import find_game
from projections import board_projection, set_aside
from projections.board_projection import UPSERT, BoardProjection
from projections.tracked import Handlers
from projections.views import tracking_name
from services.play.aggregate import Game
from tests.support.rated_games import fresh_views, play_table, rebuild

PLAYERS = [("a", "greedy"), ("b", "random")]
GAME = "seven-dragons"


def _items(store: Any) -> list[tuple[Any, Tracking]]:
    notes = store.recorder.select_notifications(1, 100_000)
    return [(store.mapper.to_domain_event(n), Tracking(store.name, n.id)) for n in notes]


def _boards(views: Any) -> list[dict[str, Any]]:
    return list(views.dump()["dh_boards"])


def _folded_once(store: Any, views: Any, parts: Sequence[Sequence[Any]]) -> Any:
    """``views`` with the boards fed ``parts`` in turn, written out at the end."""
    projection = BoardProjection(views, store)
    for part in parts:
        projection.process_batch(part)
    projection.flush()
    return views


def _two_games(platform: Any) -> tuple[str, str]:
    """One game played to its end, one started and left running."""
    ended = play_table(platform, GAME, PLAYERS, random.Random(4)).id
    running = str(platform.games.create_game("a", GAME, None, None, 2).id)
    for player_id, bot in PLAYERS:
        platform.games.take_seat(running, player_id, player_id, "bot", bot=bot)
    return str(ended), running


def test_each_rule_event_is_folded_once_on_the_read_side(platform: Any, monkeypatch: Any) -> None:
    """Every read model fed every event: ``evolve`` runs once per rule event (the boards' fold)."""
    _two_games(platform)
    platform.wait_for_projections()  # the platform's own runner folds no more
    ruleset, folds = find_game(GAME), []
    evolve = ruleset.evolve

    def counted(state: Any, event: Any) -> Any:
        folds.append(event)
        return evolve(state, event)

    monkeypatch.setattr(ruleset, "evolve", counted)
    items = _items(platform.store)
    rebuild(platform.store)
    assert len(folds) == sum(isinstance(e, Game.RuleEvent) for e, _t in items) > 0


def test_boards_kept_across_restarts_of_the_runner_are_as_in_one_go(platform: Any) -> None:
    """A new runner's boards take a game's state from its row when the row is current, and start a
    game created before it: every board as when folded in one go. (The runners here stop before
    a game's start or fold: an event that folds nothing moves on only a state held in memory, so
    after a restart before one the row waits for the game's next fold, read from the write model.)"""
    games = _two_games(platform)
    store, items = platform.store, _items(platform.store)
    exact = _boards(_folded_once(store, fresh_views(), [items]))
    assert all(r["state"] for r in exact)  # each at its game's last version, the readers' test of a current row
    assert {r["game_id"]: r["version"] for r in exact} == {g: platform.games.load(g).version for g in games}
    folds = [k for k, (e, _t) in enumerate(items) if isinstance(e, Game.Started | Game.RuleEvent)]
    cuts = [0, *folds[::3], len(items)]
    assert any(isinstance(items[k][0], Game.Started) for k in cuts[1:-1])
    views = fresh_views()
    for a, b in itertools.pairwise(cuts):  # each part by a projection built afresh, written out as it stops
        _folded_once(store, views, [items[a:b]])
    assert _boards(views) == exact


def test_a_board_row_behind_its_game_is_not_folded_on_but_rebuilt_from_the_store(platform: Any) -> None:
    """A runner stopped without writing its boards out (killed) leaves rows behind their games:
    the next one folds such a game from the event store, never from the row."""
    ended, running = _two_games(platform)
    store, items = platform.store, _items(platform.store)
    exact = _boards(_folded_once(store, fresh_views(), [items]))
    other = next(r for r in exact if r["game_id"] == running)
    last_rule = max(
        k for k, (e, _t) in enumerate(items) if isinstance(e, Game.RuleEvent) and str(e.originator_id) == ended
    )
    views = _folded_once(store, fresh_views(), [items[:last_rule]])
    views.write(
        [("UPDATE {p}dh_boards SET version = version - 1, state = ? WHERE game_id = ?", (other["state"], ended))]
    )
    _folded_once(store, views, [items[last_rule:]])
    assert _boards(views) == exact


def test_the_boards_start_from_the_position_they_shared_with_the_game_list(deployment: Any) -> None:
    """The first start of this version: ``dh_boards`` was written with the game list's position,
    so the boards take it; a game the game list set aside is set aside from the boards too, and
    folded again from the store when a runner starts. With no position: from the first event."""
    platform = deployment
    ended, running = _two_games(platform)
    store = platform.store
    views, exact = rebuild(store, platform.views), _boards(_folded_once(store, fresh_views(), [_items(store)]))
    position = views.max_tracking_id(tracking_name("games"))
    views.write(
        [
            (UPSERT, (running, 1, None)),
            (f"DELETE FROM {views._tracking_table()} WHERE application_name = ?", (tracking_name("boards"),)),
            set_aside.marks({running: (2, "ValueError: as the game list once failed")}, {}, "2026-01-01")[0],
        ]
    )  # the read models as the version before this one left them
    projection = BoardProjection(views, store)
    assert projection.position() == position
    assert [r["game_id"] for r in views.set_aside_games(set_aside.BOARDS_TABLE)] == [running]
    projection.retry_set_aside(lambda gid: list(platform.games.stored_events(gid)))
    assert views.set_aside_games(set_aside.BOARDS_TABLE) == [] and _boards(views) == exact
    assert ended in {r["game_id"] for r in exact}
    views.drop_views("boards")
    assert BoardProjection(views, store).position() == 0 and _boards(views) == []
    assert BoardProjection(fresh_views(), store).position() == 0


def test_a_game_the_boards_cannot_fold_is_set_aside_by_them_alone_and_retried(platform: Any, monkeypatch: Any) -> None:
    """Only the boards set it aside; a runner started with code that folds it brings its board back."""
    bad = str(play_table(platform, GAME, PLAYERS, random.Random(6)).id)
    good = str(play_table(platform, GAME, PLAYERS, random.Random(8)).id)
    store, views = platform.store, fresh_views()
    fold = board_projection._HANDLERS.table[Game.RuleEvent]

    def poisoned(self: BoardProjection, e: Any, ended: set[str]) -> None:
        if str(e.originator_id) == bad:
            raise ValueError("no fold for this game")
        fold(self, e, ended)

    poisoned_table = Handlers({**board_projection._HANDLERS.table, Game.RuleEvent: poisoned})
    monkeypatch.setattr(board_projection, "_HANDLERS", poisoned_table)
    try:
        _folded_once(store, views, [_items(store)])
    finally:
        monkeypatch.undo()  # the upgrade: the code now folds the game
    (aside,) = views.set_aside_games(set_aside.BOARDS_TABLE)
    assert aside["game_id"] == bad and "no fold for this game" in aside["error"]
    assert [r["game_id"] for r in _boards(views)] == [good] and views.set_aside_games() == []
    BoardProjection(views, store).retry_set_aside(lambda gid: list(platform.games.stored_events(gid)))
    assert views.set_aside_games(set_aside.BOARDS_TABLE) == []
    assert _boards(views) == _boards(_folded_once(store, fresh_views(), [_items(store)]))


def test_a_sandbox_board_is_folded_from_its_fork_without_reading_the_game_list(platform: Any) -> None:
    """A dispute's sandbox starts from its ``Forked`` state: its game comes from its ``Created``,
    in memory, or from the store for a projection built after it (no summary row is read)."""
    from services.reads.step_index import before_step, step_index

    ids = [platform.accounts.register(name, "human")[0].id for name in ("ann", "bea")]
    gid = str(platform.games.create_game(ids[0], "dice-race", None, None, 2).id)
    for pid, name in zip(ids, ("ann", "bea"), strict=True):
        platform.games.take_seat(gid, pid, name, "human")
    platform.games.resign(gid, ids[1])
    at = before_step(step_index(platform.games.stored_events(gid)), 1)
    assert at is not None
    sandbox = platform.disputes.open(gid, ids[0], at["version"], "a claim", None, None)["answer"]["sandbox_id"]
    store, items = platform.store, _items(platform.store)
    forked = next(k for k, (e, _t) in enumerate(items) if isinstance(e, Game.Forked))
    for parts in ([items], [items[:forked], items[forked:]]):
        views, projection = fresh_views(), BoardProjection(fresh_views(), store)
        for part in parts:  # the second part by a projection built afresh, as by a new runner
            projection = BoardProjection(views, store)
            projection.process_batch(part)
        projection.flush()
        assert views.set_aside_games(set_aside.BOARDS_TABLE) == []
        (row,) = [r for r in _boards(views) if r["game_id"] == str(sandbox)]
        assert row["version"] == platform.games.load(str(sandbox)).version and row["state"]
