"""What a change's streams read without asking the store, on two processes writing one SQLite file.

A stream's head comes from the version board the writers post to, and a change's events from
the ones the process just saved or read while catching its copy up. Each must equal what the
store answers, for every viewer of every game: the lines are the REST reads at that version.
"""

from __future__ import annotations

import random
import uuid
from pathlib import Path
from typing import Any

import pytest

from domain.catalog import GAMES
from infra.version_board import SLOTS, VersionBoard
from services.play.unit_of_work import RECENT
from tests.support.names import fresh
from tests.support.rated_games import BUDGET
from workers.bot_turns import bot_choice

MOVES = 40
"""Decisions played for each game (in more than one table when a deal ends early): enough to pass
hidden draws, secret choices and a snapshot."""


def test_the_board_tells_a_game_version_only_when_its_slot_shows_that_game(tmp_path: Path) -> None:
    board = VersionBoard(tmp_path / "v.board")
    a = uuid.UUID(int=(1 << 64) | 7)
    b = uuid.UUID(int=(2 << 64) | 7 | SLOTS)  # same slot, another fingerprint
    assert board.version(a) is None
    board.post(a, 12)
    assert board.version(a) == 12 and board.version(b) is None
    board.post(b, 3)
    assert board.version(a) is None and board.version(b) == 3


def _seated_game(platform: Any, ids: list[str], slug: str) -> str:
    """A new two-seat game of ``slug``, both seats taken by ``ids`` as random bots."""
    gid = str(platform.games.create_game(ids[0], slug, None, None, 2).id)
    for pid in ids:
        platform.games.take_seat(gid, pid, pid[:4], "bot", bot="random")
    return gid


@pytest.mark.parametrize("slug", [ruleset.slug for ruleset in GAMES])
def test_a_change_reads_as_the_store_answers_it_for_every_viewer(two_writers: list[Any], slug: str) -> None:
    one, two = two_writers
    ids = [one.accounts.register(fresh(f"p{i}"), "bot")[0].id for i in range(2)]
    rng = random.Random(slug)
    played, games, gid = 0, 0, ""
    while played < MOVES:  # a game's deal is random: a short one is followed by another
        game = one.games.load(gid) if gid else None
        if game is None or game.status != "active":
            assert games < 20, f"{games} games ended within {played} decisions"
            gid, games = _seated_game(one, ids, slug), games + 1
            game = one.games.load(gid)
        played += 1
        before = two.games.load(gid).version
        mover = rng.choice((one, two))  # each process saves some changes and catches up on the others'
        seat = game.awaiting[0]
        seed = one.seeds.of(game.id)
        mover.games.play_for(gid, seat, game.version, lambda g, s=seat, k=seed: bot_choice(g, s, "random", BUDGET, k))
        head = mover.games.load(gid).version
        for platform in (one, two):
            assert platform.games.known_version(gid) == head
            current = platform.games.load(gid)
            recent = platform.games.recent_events(gid, before, head)
            if head - before > RECENT:  # a Mékong round's resolution can pass it: the store answers then
                assert recent is None, "a change longer than is kept is read from the store"
                continue
            assert recent is not None, "the change's events were saved or read by this process"
            stored = list(platform.games.stored_events(gid, after=before))
            for player_id, seat_of in [(None, None), (ids[0], 0), (ids[1], 1)]:
                as_read = [
                    platform.queries.events_of(current, player_id, before, seat=seat_of, stored_events=events)
                    for events in (recent, stored)
                ]
                assert as_read[0] == as_read[1]


def test_only_the_last_events_saved_or_read_are_kept(two_writers: list[Any]) -> None:
    one, _ = two_writers
    ids = [one.accounts.register(fresh(f"p{i}"), "bot")[0].id for i in range(2)]
    gid = _seated_game(one, ids, "tarasque")
    for _ in range(RECENT):  # more changes than are kept
        game = one.games.load(gid)
        seat, seed = game.awaiting[0], one.seeds.of(game.id)
        one.games.play_for(gid, seat, game.version, lambda g, s=seat, k=seed: bot_choice(g, s, "random", BUDGET, k))
    head = one.games.load(gid).version
    last = one.games.recent_events(gid, head - 1, head)
    assert last is not None and [e.originator_version for e in last] == [head]
    assert one.games.recent_events(gid, head, head + 1) is None  # not saved yet
    assert one.games.recent_events(gid, head - RECENT - 1, head) is None  # no longer kept
