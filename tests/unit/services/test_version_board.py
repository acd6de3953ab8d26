"""The shared version board: processes writing one SQLite store skip the store
when their cached game is current, and still see every other process's writes."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import pytest

from domain.kernel import NotYourTurn
from infra.version_board import SLOTS, VersionBoard
from services.play.unit_of_work import game_uuid
from tests.support.names import fresh


def test_a_posted_version_is_current_and_no_other_is(tmp_path: Path) -> None:
    board = VersionBoard(tmp_path / "v.board")
    gid = uuid.uuid4()
    assert not board.is_current(gid, 3)
    board.post(gid, 3)
    assert board.is_current(gid, 3)
    assert not board.is_current(gid, 2) and not board.is_current(gid, 4)


def test_a_raised_mark_only_moves_forward(tmp_path: Path) -> None:
    """The stream engine's published marks: two processes may post one game's out of order."""
    one, two = VersionBoard(tmp_path / "p.board"), VersionBoard(tmp_path / "p.board")
    gid = uuid.uuid4()
    one.raise_to(gid, 6)
    two.raise_to(gid, 5)
    assert one.version(gid) == 6
    two.raise_to(gid, 8)
    assert one.version(gid) == 8


def test_another_game_in_the_same_slot_makes_the_reader_ask_the_store(tmp_path: Path) -> None:
    board = VersionBoard(tmp_path / "v.board")
    a = uuid.UUID(int=(1 << 64) | 7)
    b = uuid.UUID(int=(2 << 64) | 7 | SLOTS)  # same slot, another fingerprint
    board.post(a, 5)
    board.post(b, 5)
    assert board.is_current(b, 5)
    assert not board.is_current(a, 5)


def test_two_boards_on_one_file_share_their_posts(tmp_path: Path) -> None:
    one, two = VersionBoard(tmp_path / "v.board"), VersionBoard(tmp_path / "v.board")
    gid = uuid.uuid4()
    one.post(gid, 9)
    assert two.is_current(gid, 9)
    one.close()
    assert two.is_current(gid, 9)


def _table(platform: Any) -> tuple[str, list[str]]:
    ids = [platform.accounts.register(fresh(f"p{i}"), "human")[0].id for i in range(2)]
    game = platform.games.create_game(ids[0], "dice-race", None, None, 2)
    for pid in ids:
        platform.games.take_seat(str(game.id), pid, pid[:4], "human")
    return str(game.id), ids


def test_a_process_sees_the_other_process_move_at_its_next_load(two_writers: Any) -> None:
    one, two = two_writers
    assert one.uow.versions is not None and not one.uow.single_writer
    gid, ids = _table(one)
    before = two.games.load(gid).version
    one.games.submit_move(gid, ids[0], {"type": "bid", "amount": 2})
    assert two.games.load(gid).version == before + 2
    two.games.submit_move(gid, ids[1], {"type": "bid", "amount": 1})
    assert one.games.load(gid).version == before + 4


def test_a_current_cache_is_used_without_asking_the_store(two_writers: Any, monkeypatch: Any) -> None:
    one, two = two_writers
    gid, ids = _table(one)
    one.games.submit_move(gid, ids[0], {"type": "bid", "amount": 2})
    two.games.load(gid)  # now cached, and current

    def no_store(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a current cached game was read from the store")

    monkeypatch.setattr(two.store.events, "get", no_store)
    assert two.games.load(gid).version == one.games.load(gid).version


def test_a_move_judged_on_a_stale_cache_is_judged_again_on_the_current_game(two_writers: Any) -> None:
    """A move is first judged on the process's cached copy, unchecked; the store's
    version check, or a refusal, sends it back to be judged on the current game."""
    one, two = two_writers
    gid, ids = _table(one)
    two.games.load(gid)  # cached by the second process, which will fall behind
    first = one.games.submit_move(gid, ids[0], {"type": "bid", "amount": 2}, command_id="c1")
    stale = two.uow._cached(game_uuid(gid))
    assert stale is not None and stale.version < first["version"]

    again = two.games.submit_move(gid, ids[0], {"type": "bid", "amount": 2}, command_id="c1")
    assert again["version"] == first["version"] and again["replayed"]
    with pytest.raises(NotYourTurn):
        two.games.submit_move(gid, ids[0], {"type": "bid", "amount": 3})
    result = two.games.submit_move(gid, ids[1], {"type": "bid", "amount": 1}, expected_version=first["version"])
    assert result["version"] == first["version"] + 2
    versions = [e.originator_version for e in one.games.stored_events(gid)]
    assert versions == list(range(1, result["version"] + 1))
