"""Tournaments over HTTP, run by the real embedded workers: the sweep moves them on, the
scheduled games start at their time, server bots play, a silent seat times out."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest

from services.common import clock
from services.play.aggregate import Game
from tests.conftest import make_settings
from tests.support.api_client import ApiClient


@pytest.fixture
def fast() -> Iterator[ApiClient]:
    """The embedded worker with a quick sweep (tournament steps) and quick bots."""
    from api.app import create_app
    from wiring import bootstrap

    p = bootstrap(make_settings("memory", sweep_interval=0.2, bot_budget=0.05))
    yield ApiClient(create_app(p).test_client(), p)
    p.close()


def _tournament(client: ApiClient, token: str, **extra: Any) -> dict[str, Any]:
    """Seven Dragons at tables of 3, 4 seconds a move (far more than a server bot takes, so only the
    silent seat times out), forfeit on timeout."""
    body = {
        "name": "autumn swiss",
        "game": "seven-dragons",
        "seats": 3,
        "format": "swiss",
        "rounds": 3,
        "capacity": 8,
        "time_control": {"kind": "per_move", "seconds": 4, "timeout_policy": "forfeit"},
        "starts_at": (clock.now() + timedelta(seconds=2)).isoformat(),
        "round_seconds": 300,
        "notice_seconds": 5,  # the least notice before each round's games: this test's bots need none
        **extra,
    }
    r = client.call("POST", "/api/v1/tournaments", body, token)
    assert r.status == 201, r.body
    return r.body


@pytest.mark.slow
def test_eight_bots_play_a_three_round_swiss_to_its_standings_and_a_silent_seat_forfeits(fast: ApiClient) -> None:
    owner = fast.player("organiser")
    bots = []
    for k in range(8):
        r = fast.call("POST", "/api/v1/me/bots", {"name": f"bot{k}"}, owner["token"])
        assert r.status == 201
        bots.append(r.body)
    t = _tournament(fast, owner["token"])
    silent = bots[-1]
    for k, bot in enumerate(bots):
        body = (
            {"player_id": bot["id"]} if bot is silent else {"player_id": bot["id"], "bot": ("greedy", "random")[k % 2]}
        )
        r = fast.call("POST", f"/api/v1/tournaments/{t['id']}/registrations", body, owner["token"])
        assert r.status == 201, r.body
    deadline = time.time() + 240
    while time.time() < deadline:
        t = fast.call("GET", f"/api/v1/tournaments/{t['id']}").body
        if t["status"] in ("finished", "cancelled"):
            break
        time.sleep(0.2)
    assert t["status"] == "finished", t
    assert [r["round"] for r in t["rounds"]] == [1, 2, 3]
    assert [s["rank"] for s in t["standings"]] == list(range(1, 9))
    [standing] = [s for s in t["standings"] if s["player_id"] == silent["id"]]
    assert standing["points"] == 0 and standing["wins"] == 0
    games = fast.platform.games
    for rnd in t["rounds"]:
        [table] = [tb for tb in rnd["tables"] if silent["id"] in tb["players"]]
        seat = table["players"].index(silent["id"])
        timeouts = [e for e in games.stored_events(table["game_id"]) if isinstance(e, Game.TurnTimedOut)]
        assert [(e.seat, e.policy, e.applied) for e in timeouts if e.seat == seat] == [(seat, "forfeit", "forfeit")]
        assert table["places"][seat] == len(table["players"]), "a seat that forfeits ranks last"
        assert not table["unfinished"]
    r = fast.call("POST", f"/api/v1/tournaments/{t['id']}/registrations", {}, owner["token"])
    assert r.status == 409 and r.body["error"]["code"] == "registration_closed"
    fast.platform.wait_for_projections()
    profile = fast.call("GET", f"/api/v1/players/{silent['id']}").body
    assert profile["owner"]["id"] == owner["id"]
    assert profile["ratings"][0]["games"] == 3


def test_a_tournament_is_listed_and_refuses_bad_input(fast: ApiClient) -> None:
    owner = fast.player("organiser")
    t = _tournament(fast, owner["token"], starts_at=(clock.now() + timedelta(hours=1)).isoformat())
    listed = fast.call("GET", "/api/v1/tournaments?status=registering").body["tournaments"]
    assert [x["id"] for x in listed] == [t["id"]]
    assert fast.call("GET", "/api/v1/tournaments/nope").status == 404
    r = fast.call("POST", "/api/v1/tournaments", {"name": "x"}, owner["token"])
    assert r.status == 400
    r = fast.call("POST", "/api/v1/tournaments", {**_body_of(t), "seats": 7}, owner["token"])
    assert r.status == 400
    other = fast.player("other")
    r = fast.call("POST", f"/api/v1/tournaments/{t['id']}/registrations", {"player_id": owner["id"]}, other["token"])
    assert r.status == 403 and r.body["error"]["code"] == "not_owner"
    r = fast.call("POST", f"/api/v1/tournaments/{t['id']}/registrations", {}, other["token"])
    assert r.status == 201 and [p["player_id"] for p in r.body["players"]] == [other["id"]]


def _body_of(t: dict[str, Any]) -> dict[str, Any]:
    return {
        "name": t["name"],
        "game": t["game"],
        "seats": t["seats"],
        "format": t["format"],
        "rounds": t["rounds_planned"],
        "capacity": t["capacity"],
        "starts_at": (clock.now() + timedelta(hours=1)).isoformat(),
        "round_seconds": t["round_seconds"],
    }
