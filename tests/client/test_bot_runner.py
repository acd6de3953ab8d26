"""Bots over the streams: a game player answers the lines that await it, and a runner starts one for
each game the account stream names; strategies load from a name or a file."""

from __future__ import annotations

import threading
from pathlib import Path

import httpx
import pytest

from dragonhall import AdviceStrategy, BotRunner, GamePlayer, RandomStrategy, Unauthenticated, load_strategy
from tests.client.fakes import Script, body, client, error, ndjson

STREAM = "GET /api/v1/games/g1/stream"
MOVES = "POST /api/v1/games/g1/moves"
GAME = {"id": "g1", "game": "toy", "status": "active", "version": 5, "awaiting": [1], "your_seats": [1]}
PLAYED = httpx.Response(201, json={"version": 6, "events": []})
ENDED = httpx.Response(200, json={**GAME, "status": "finished", "version": 6, "awaiting": []})


def legal(version: int, *moves: str) -> dict:
    return {"version": version, "seat": 1, "total": len(moves), "offset": 0, "moves": [{"type": m} for m in moves]}


def last(version: int) -> dict:
    return {"type": "events", "version": version, "events": [], "awaiting": [], "status": "finished"}


def first_move(view: dict, legal_moves: list[dict], game: dict) -> dict:
    return legal_moves[0]


def test_the_player_answers_each_line_that_awaits_it_with_the_strategys_move() -> None:
    later = {**GAME, "version": 7, "view": {"board": "after"}}
    lines = [
        {"type": "game", "version": 5, "game": {**GAME, "view": {"board": "start"}}, "legal_moves": legal(5, "roll")},
        {"type": "events", "version": 6, "events": [], "awaiting": [0], "status": "active", "legal_moves": None},
        {
            "type": "events",
            "version": 7,
            "events": [],
            "awaiting": [1],
            "status": "active",
            "legal_moves": legal(7, "stop", "roll"),
        },
        last(8),
    ]
    seen: list[tuple[dict, list[str]]] = []

    def strategy(view: dict, legal_moves: list[dict], game: dict) -> dict:
        seen.append((view, [m["type"] for m in legal_moves]))
        return legal_moves[-1]

    script = Script(
        {STREAM: [ndjson(*lines)], MOVES: [PLAYED], "GET /api/v1/games/g1": [httpx.Response(200, json=later)]}
    )
    dh, _ = client(script)
    GamePlayer(dh, strategy).play("g1")
    assert seen == [({"board": "start"}, ["roll"]), ({"board": "after"}, ["stop", "roll"])]
    sent = [body(r) for r in script.sent(MOVES)]
    assert [(s["move"], s["expected_version"], s["seat"]) for s in sent] == [
        ({"type": "roll"}, 5, 1),
        ({"type": "roll"}, 7, 1),
    ]
    assert len({s["command_id"] for s in sent}) == 2
    assert script.sent("GET /api/v1/games/g1")[0].url.params["seat"] == "1"


LEGAL = "GET /api/v1/games/g1/legal-moves"


def test_a_move_made_too_late_is_chosen_again_on_the_game_read_again(caplog: pytest.LogCaptureFixture) -> None:
    """409 ``stale_version``: another seat of a simultaneous phase (or a timeout) played first; the
    player reads the seat's moves again and chooses among them, once, at the new version."""
    lines = [{"type": "game", "version": 5, "game": GAME, "legal_moves": legal(5, "roll")}, last(7)]
    refused = error(409, "stale_version", current_version=6)
    moved_on = httpx.Response(200, json={**GAME, "version": 6})
    script = Script(
        {
            STREAM: [ndjson(*lines)],
            MOVES: [refused, PLAYED],
            LEGAL: [httpx.Response(200, json=legal(6, "stop"))],
            "GET /api/v1/games/g1": [moved_on, ENDED],
        }
    )
    dh, _ = client(script)
    player = GamePlayer(dh, first_move)
    with caplog.at_level("INFO", logger="dragonhall.bot"):
        player.play("g1")
    sent = [(body(r)["move"], body(r)["expected_version"]) for r in script.sent(MOVES)]
    assert sent == [({"type": "roll"}, 5), ({"type": "stop"}, 6)] and player.moves == 1
    assert "moved on from version 5 (stale_version); reading it again" in caplog.text


def test_a_move_made_too_late_when_the_seat_is_no_longer_awaited_plays_nothing() -> None:
    lines = [{"type": "game", "version": 5, "game": GAME, "legal_moves": legal(5, "roll")}, last(6)]
    refused = error(409, "stale_version", current_version=6)
    script = Script(
        {
            STREAM: [ndjson(*lines)],
            MOVES: [refused],
            LEGAL: [httpx.Response(200, json=legal(6))],
            "GET /api/v1/games/g1": [ENDED],
        }
    )
    dh, _ = client(script)
    player = GamePlayer(dh, first_move)
    player.play("g1")
    assert player.moves == 0 and len(script.sent(MOVES)) == 1


@pytest.mark.parametrize(("status", "code"), [(422, "illegal_move"), (400, "malformed_move")])
def test_a_move_the_server_refuses_is_replaced_by_a_legal_one_read_again(
    status: int, code: str, caplog: pytest.LogCaptureFixture
) -> None:
    lines = [{"type": "game", "version": 5, "game": GAME, "legal_moves": legal(5, "roll")}, last(6)]
    script = Script(
        {
            STREAM: [ndjson(*lines)],
            MOVES: [error(status, code), PLAYED],
            LEGAL: [httpx.Response(200, json=legal(5, "stop"))],
            "GET /api/v1/games/g1": [httpx.Response(200, json=GAME), ENDED],
        }
    )
    dh, _ = client(script)
    player = GamePlayer(dh, lambda view, moves, game: {"type": "cheat"})
    with caplog.at_level("WARNING", logger="dragonhall.bot"):
        player.play("g1")
    assert [body(r)["move"] for r in script.sent(MOVES)] == [{"type": "cheat"}, {"type": "stop"}]
    assert player.moves == 1 and code in caplog.text


def test_the_runner_plays_each_game_the_account_stream_names_once() -> None:
    awaiting = {"type": "awaiting", "game_id": "g1", "game": "toy", "seat": 1, "version": 5}
    turn = {"type": "your_turn", "cursor": 3, "game_id": "g1", "seat": 1, "version": 5}
    ended = threading.Event()

    def game_over(request: httpx.Request) -> httpx.Response:
        ended.set()
        return ENDED

    def refused_once_the_game_is_over(request: httpx.Request) -> httpx.Response:
        ended.wait(10)  # else the runner stops (and drops the game) before its thread reads the end
        return error(401, "unauthenticated")

    script = Script(
        {
            "GET /api/v1/stream/events": [ndjson(awaiting, turn), refused_once_the_game_is_over],
            STREAM: [ndjson({"type": "game", "version": 5, "game": GAME, "legal_moves": legal(5, "roll")}, last(6))],
            MOVES: [PLAYED],
            "GET /api/v1/games/g1": [game_over],
        }
    )
    dh, _ = client(script)
    runner = BotRunner(dh, first_move)
    with pytest.raises(Unauthenticated):
        runner.run()
    assert list(runner.finished) == ["g1"] and len(script.sent(STREAM)) == 1


def test_strategies_load_by_name_from_a_module_or_from_a_file(tmp_path: Path) -> None:
    assert isinstance(load_strategy("random"), RandomStrategy)
    assert load_strategy("tests.client.test_bot_runner:first_move") is first_move
    source = tmp_path / "mine.py"
    source.write_text("def choose(view, legal_moves, game):\n    return legal_moves[-1]\n")
    assert load_strategy(f"{source}:choose")({}, [{"type": "a"}, {"type": "b"}], {}) == {"type": "b"}
    for bad in ("mine.py", "Greedy!", "tests.client.test_bot_runner:nothing", "tests.client.test_bot_runner:"):
        with pytest.raises(ValueError):
            load_strategy(bad)


def test_a_built_in_bots_name_loads_a_strategy_the_server_advises() -> None:
    greedy, default = load_strategy("greedy"), load_strategy("default")
    assert isinstance(greedy, AdviceStrategy) and greedy.bot == "greedy" and greedy.client is None
    assert isinstance(default, AdviceStrategy) and default.bot is None


ADVICE = "GET /api/v1/games/g1/advice"


def test_the_advised_strategy_plays_the_move_the_server_advises_for_the_seat_awaited() -> None:
    lines = [{"type": "game", "version": 5, "game": GAME, "legal_moves": legal(5, "roll", "stop")}, last(6)]
    advised = httpx.Response(200, json={"version": 5, "seat": 1, "bot": "greedy", "move": {"type": "stop"}})
    script = Script({STREAM: [ndjson(*lines)], ADVICE: [advised], MOVES: [PLAYED], "GET /api/v1/games/g1": [ENDED]})
    dh, _ = client(script)
    strategy = load_strategy("greedy")
    GamePlayer(dh, strategy).play("g1")
    assert getattr(strategy, "client", None) is dh, "the runner lends the strategy its client"
    [asked] = script.sent(ADVICE)
    assert dict(asked.url.params) == {"bot": "greedy", "seat": "1"}
    assert [(body(r)["move"], body(r)["expected_version"]) for r in script.sent(MOVES)] == [({"type": "stop"}, 5)]


def test_advice_for_a_seat_no_longer_awaited_plays_nothing_and_follows_the_stream_on() -> None:
    lines = [{"type": "game", "version": 5, "game": GAME, "legal_moves": legal(5, "roll")}, last(6)]
    script = Script(
        {
            STREAM: [ndjson(*lines)],
            ADVICE: [error(409, "not_awaited")],
            MOVES: [PLAYED],
            "GET /api/v1/games/g1": [ENDED],
        }
    )
    dh, _ = client(script)
    player = GamePlayer(dh, AdviceStrategy(seed=3))
    assert player.play("g1") == ENDED.json()
    assert dict(script.sent(ADVICE)[0].url.params) == {"seat": "1", "seed": "3"}
    assert player.moves == 0 and not script.sent(MOVES)


def test_a_strategy_is_told_the_seat_it_plays() -> None:
    lines = [{"type": "game", "version": 5, "game": GAME, "legal_moves": legal(5, "roll")}, last(6)]
    script = Script({STREAM: [ndjson(*lines)], MOVES: [PLAYED], "GET /api/v1/games/g1": [ENDED]})
    dh, _ = client(script)
    seats: list[int] = []
    GamePlayer(dh, lambda view, moves, game: seats.append(game["seat"]) or moves[0]).play("g1")
    assert seats == [1]
