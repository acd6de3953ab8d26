"""On PostgreSQL a move's save checks the mover's token (``infra.save_guard``), so a process may
answer a move's token from what it kept without reading it first: two platforms on one schema stand
for two HTTP processes, possibly on two hosts. A token revoked through one is refused by the other at
its next move, whatever the move would have been answered (saved, illegal, malformed, repeated), and
that move writes nothing: no event, no journal entry. Every other route still reads its token."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import psycopg
import pytest

from api import errors
from api.app import create_app
from infra import save_guard
from services.common.ports import NullWork
from tests.conftest import make_settings
from tests.support.api_client import ApiClient
from wiring import bootstrap

pytestmark = pytest.mark.postgres


@pytest.fixture
def two(pg_url: str, pg_schema: str) -> Iterator[tuple[ApiClient, ApiClient]]:
    settings = make_settings("postgres", database_url=pg_url, postgres_schema=pg_schema)
    here = bootstrap(settings, work=NullWork())
    there = bootstrap(settings, work=NullWork(), projections=False)
    try:
        yield ApiClient(create_app(here).test_client(), here), ApiClient(create_app(there).test_client(), there)
    finally:
        there.close()
        here.close()


def _table(api: ApiClient) -> tuple[str, list[dict[str, Any]]]:
    people = [api.player(f"p{i}") for i in range(2)]
    game_id = api.new_game(people[0]["token"])["id"]
    for person in people:
        assert api.seat(game_id, person["token"]).status == 201
    return game_id, people


def _mover(api: ApiClient, game_id: str, people: list[dict[str, Any]]) -> dict[str, Any]:
    return people[api.game(game_id)["awaiting"][0]]


def _token_reads(api: ApiClient) -> list[Any]:
    """Records each read of one row from the accounts' store of ``api``'s process."""
    db = api.platform.accounts.db
    reads: list[Any] = []
    read_one = db.read_one
    db.read_one = lambda *args: (reads.append(args), read_one(*args))[1]
    return reads


def _play_one(api: ApiClient, game_id: str, person: dict[str, Any]) -> int:
    legal = api.legal(game_id, person["token"])
    return api.move(game_id, person["token"], legal["moves"][0], expected_version=legal["version"]).status


def _revoke_elsewhere(there: ApiClient, person: dict[str, Any]) -> None:
    token_id = there.call("GET", "/api/v1/me/tokens", token=person["token"]).body["tokens"][0]["id"]
    assert there.call("DELETE", f"/api/v1/me/tokens/{token_id}", token=person["token"]).status == 204


def test_a_kept_token_moves_without_a_read_of_its_own(two: tuple[ApiClient, ApiClient]) -> None:
    here, _ = two
    game_id, people = _table(here)
    mover = _mover(here, game_id, people)
    legal = here.legal(game_id, mover["token"])  # reads the token, and keeps its answer
    reads = _token_reads(here)
    reply = here.move(game_id, mover["token"], legal["moves"][0], expected_version=legal["version"])
    assert reply.status == 201, reply.body
    assert reads == [], "the save checked the token: no read of its own"


@pytest.mark.parametrize("answer", ["saved", "illegal", "malformed move", "malformed body", "repeated"])
def test_a_token_revoked_elsewhere_is_refused_at_its_next_move_which_writes_nothing(
    two: tuple[ApiClient, ApiClient], answer: str
) -> None:
    here, there = two
    game_id, people = _table(here)
    mover = _mover(here, game_id, people)
    legal = here.legal(game_id, mover["token"])
    body: dict[str, Any] = {"move": legal["moves"][0], "expected_version": legal["version"]}
    if answer == "repeated":
        body["command_id"] = "first-try"
        assert here.call("POST", f"/api/v1/games/{game_id}/moves", body, mover["token"]).status == 201
        legal = here.legal(game_id, mover["token"])
    elif answer == "illegal":
        body["move"] = {"type": "bid", "amount": 99}
    elif answer == "malformed move":
        body["move"] = {"type": "no such move"}
    elif answer == "malformed body":
        body["colour"] = "an unknown field"
    _revoke_elsewhere(there, mover)
    before = here.game(game_id)["version"]
    reply = here.call("POST", f"/api/v1/games/{game_id}/moves", body, mover["token"])
    assert reply.status == 401 and reply.body["error"]["code"] == "unauthenticated", reply.body
    assert here.game(game_id)["version"] == before, "the refused move wrote nothing"
    journaled = here.platform.db.one("SELECT COUNT(*) AS n FROM dh_journal WHERE game_id = ?", (game_id,))
    assert journaled["n"] == 0, "not even its refusal in the game's journal"
    again = here.call("POST", f"/api/v1/games/{game_id}/moves", body, mover["token"])
    assert again.status == 401, "and the answer is no longer kept"


def test_other_routes_read_their_token_every_time(two: tuple[ApiClient, ApiClient]) -> None:
    here, there = two
    game_id, people = _table(here)
    mover = _mover(here, game_id, people)
    assert _play_one(here, game_id, mover) == 201
    other = _mover(here, game_id, people)
    here.legal(game_id, other["token"])
    _revoke_elsewhere(there, other)
    assert here.call("GET", f"/api/v1/games/{game_id}/legal-moves", token=other["token"]).status == 401


def test_a_store_made_before_the_guard_checks_the_token_apart(two: tuple[ApiClient, ApiClient], pg_url: str) -> None:
    """Tables made by an older release have no guarded save function: the save reads the token in a
    round trip of its own first (``OneTripPostgresApplicationRecorder._insert_as_eventsourcing``)."""
    here, there = two
    recorder = here.platform.store.recorder
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute(
            f'DROP FUNCTION "{recorder.datastore.schema}"."{recorder.insert_function_name}"'
            "(uuid[], bigint[], text[], bytea[], text, text, text)"
        )
    game_id, people = _table(here)
    mover = _mover(here, game_id, people)
    assert _play_one(here, game_id, mover) == 201
    other = _mover(here, game_id, people)
    legal = here.legal(game_id, other["token"])
    _revoke_elsewhere(there, other)
    reply = here.move(game_id, other["token"], legal["moves"][0], expected_version=legal["version"])
    assert reply.status == 401, reply.body
    assert here.game(game_id)["version"] == legal["version"]


def test_a_save_refusing_its_token_is_answered_as_a_token_refused_on_read() -> None:
    body, status = errors.to_response(save_guard.GuardRefused("the bearer token is not valid"))
    assert status == 401 and body["error"]["code"] == "unauthenticated"
