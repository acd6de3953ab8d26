"""GET /metrics: Prometheus's text format, counting moves by game and outcome, and requests by route."""

from __future__ import annotations

import re
from typing import Any


def _sample(text: str, name: str, **labels: str) -> float:
    """The value of one sample in the exposition text (0 when absent)."""
    for line in text.splitlines():
        if not line.startswith(name + "{") and line.split(" ")[0] != name:
            continue
        found = dict(re.findall(r'(\w+)="([^"]*)"', line.split("}")[0]))
        if all(found.get(k) == v for k, v in labels.items()):
            return float(line.rsplit(" ", 1)[1])
    return 0.0


def _metrics(client: Any) -> str:
    r = client.http.get("/metrics")
    assert r.status_code == 200
    assert r.mimetype == "text/plain"
    return str(r.get_data(as_text=True))


def _game(client: Any) -> tuple[str, str, str]:
    a, b = client.player("a"), client.player("b")
    game = client.new_game(a["token"])
    for p in (a, b):
        assert client.seat(game["id"], p["token"]).status == 201
    return game["id"], a["token"], b["token"]


def test_moves_are_counted_by_game_and_outcome(client: Any) -> None:
    gid, a, _b = _game(client)
    before = _metrics(client)
    listing = client.legal(gid, a)
    assert client.move(gid, a, listing["moves"][0]).status == 201
    assert client.move(gid, a, listing["moves"][0]).status == 422  # not its turn any more
    after = _metrics(client)
    name, accepted, refused = "dragonhall_moves_total", {"outcome": "accepted"}, {"outcome": "not_your_turn"}
    assert _sample(after, name, game="dice-race", **accepted) == _sample(before, name, game="dice-race", **accepted) + 1
    assert _sample(after, name, game="dice-race", **refused) == _sample(before, name, game="dice-race", **refused) + 1


def test_requests_are_timed_by_route_not_by_game(client: Any) -> None:
    gid, _a, _b = _game(client)
    client.game(gid)
    text = _metrics(client)
    route = {"route": "/api/v1/games/<game_id>", "method": "GET"}
    assert _sample(text, "dragonhall_request_seconds_count", **route) >= 1
    assert gid not in text, "no label carries a game's id"


def test_the_read_models_lag_is_read_at_the_scrape(client: Any) -> None:
    client.platform.wait_for_projections()
    assert _sample(_metrics(client), "dragonhall_projection_lag_events") == 0
