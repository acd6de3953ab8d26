"""A dispute is its own aggregate: its events are numbered 1, 2, ... whatever version of the game it is about."""

from __future__ import annotations

import uuid
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from services.common.ports import NullWork
from tests.conftest import make_settings
from wiring import bootstrap

SNAPSHOT_INTERVAL = 5


@pytest.fixture
def snapshotting(tmp_path: Path) -> Any:
    p = bootstrap(make_settings("sqlite", tmp_path, snapshot_interval=SNAPSHOT_INTERVAL), work=NullWork())
    yield p
    p.close()


def _long_game(p: Any, versions: int) -> str:
    a, _ = p.accounts.register("alice", "human")
    b, _ = p.accounts.register("bob", "human")
    game = p.games.create_game(a.id, "dice-race", None, None, 2)
    gid = str(game.id)
    p.games.take_seat(gid, a.id, "alice", "human")
    p.games.take_seat(gid, b.id, "bob", "human")
    while (game := p.games.load(gid)).version < versions and game.status == "active":
        seat = game.awaiting[0]
        move = game.ruleset.commands.dump(game.ruleset.legal_moves(game.state, seat)[0])
        p.games.submit_move(gid, game.holder(seat), move, seat=seat)
    assert p.games.load(gid).version >= versions
    return gid


def test_a_dispute_about_a_late_version_is_saved_and_numbered_from_one(snapshotting: Any) -> None:
    """Before, the disputed game version became the dispute's own version: a dispute about
    version 9 numbered its answer 10, crossed the snapshot interval, and failed to save."""
    p = snapshotting
    gid = _long_game(p, 2 * SNAPSHOT_INTERVAL)
    game = p.games.load(gid)
    doc = p.disputes.open(gid, game.holder(0), 2 * SNAPSHOT_INTERVAL - 1, "this move was illegal", None, 0)
    assert doc["version"] == 2 * SNAPSHOT_INTERVAL - 1
    dispute = p.store.repository.get(uuid.UUID(doc["id"]))
    assert dispute.version == 2 and dispute.game_version == 2 * SNAPSHOT_INTERVAL - 1


def test_a_dispute_stored_by_version_1_of_its_event_still_loads(snapshotting: Any) -> None:
    """Version 1 of ``Dispute.Created`` named the game version ``version`` and numbered the
    dispute's later events from it; such a stored dispute reads as it was written."""
    p = snapshotting
    gid = _long_game(p, 8)
    game = p.games.load(gid)
    doc = p.disputes.open(gid, game.holder(0), 7, "look at version 7", None, 0)
    created, answered = p.store.events.get(uuid.UUID(doc["id"]))
    mapper = p.store.mapper
    v1 = mapper.to_stored_event(created)
    state = mapper.transcoder.decode(v1.state)
    state["version"] = state.pop("game_version")
    del state["numbered_from"], state["class_version"]
    legacy_id = uuid.uuid4()
    legacy = [
        replace(v1, originator_id=legacy_id, state=mapper.transcoder.encode(state)),
        replace(mapper.to_stored_event(answered), originator_id=legacy_id, originator_version=8),
    ]
    p.store.recorder.insert_events(legacy)
    dispute = p.store.repository.get(legacy_id)
    assert (dispute.version, dispute.game_version, dispute.claim) == (8, 7, "look at version 7")
    assert dispute.answer == p.store.repository.get(uuid.UUID(doc["id"])).answer
