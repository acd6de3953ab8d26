"""Profiles (GET /players/{id}) and leaderboards (GET /leaderboards/{game}) over HTTP."""

from __future__ import annotations

from typing import Any

from tests.support.api_client import ApiClient


def _play_out(client: ApiClient, gid: str, tokens: dict[str, str]) -> dict[str, Any]:
    """Plays the first legal move of whichever player is awaited until the game ends."""
    for _ in range(500):
        doc = client.game(gid)
        if doc["status"] != "active":
            return doc
        for token in tokens.values():
            legal = client.call("GET", f"/api/v1/games/{gid}/legal-moves", token=token)
            if legal.status == 200 and legal.body["moves"]:
                r = client.move(gid, token, legal.body["moves"][0], expected_version=legal.body["version"])
                assert r.status == 201, r.body
                break
    raise AssertionError("the game did not end")


def _game(client: ApiClient, players: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    gid = client.new_game(players[0]["token"], "dice-race", len(players), **extra)["id"]
    for p in players:
        assert client.seat(gid, p["token"]).status == 201
    doc = _play_out(client, gid, {p["id"]: p["token"] for p in players})
    client.platform.wait_for_projections()
    return doc


def test_a_rated_game_shows_on_both_profiles_with_a_provisional_rating(client: ApiClient) -> None:
    ada, bob = client.player("ada"), client.player("bob")
    doc = _game(client, [ada, bob])
    winner = ada if doc["outcome"]["places"][0] == 1 else bob
    r = client.call("GET", f"/api/v1/players/{winner['id']}")
    assert r.status == 200, r.body
    profile = r.body
    assert (profile["name"], profile["kind"], profile["bot"], profile["owner"]) == (
        winner["name"],
        "human",
        False,
        None,
    )
    [rating] = profile["ratings"]
    assert rating["game"] == "dice-race" and rating["games"] == 1 and rating["wins"] == 1
    assert rating["provisional"] is True
    assert rating["rating"] == rating["mu"] - 3 * rating["sigma"]
    assert profile["games"] == {"played": 1, "won": 1}
    assert [(g["game_id"], g["rated"], g["place"]) for g in profile["recent_games"]] == [(doc["id"], True, 1)]
    history = client.call("GET", f"/api/v1/players/{winner['id']}/ratings/dice-race").body["history"]
    assert [(h["n"], h["game_id"], h["place"], h["mu"]) for h in history] == [(1, doc["id"], 1, rating["mu"])]
    assert history[0]["mu_before"] == 25.0
    assert client.call("GET", f"/api/v1/players/{winner['id']}/ratings/chess").status == 404
    assert client.call("GET", "/api/v1/players/nobody/ratings/dice-race").status == 404


def test_a_casual_game_counts_as_played_but_not_rated(client: ApiClient) -> None:
    ada, bob = client.player("ada"), client.player("bob")
    _game(client, [ada, bob], rated=False)
    profile = client.call("GET", f"/api/v1/players/{ada['id']}").body
    assert profile["ratings"] == []
    assert profile["games"]["played"] == 1
    assert profile["recent_games"][0]["rated"] is False


def test_a_running_game_is_not_among_recent_games(client: ApiClient) -> None:
    ada, bob = client.player("ada"), client.player("bob")
    gid = client.new_game(ada["token"], "dice-race", 2)["id"]
    client.seat(gid, ada["token"])
    client.seat(gid, bob["token"])
    client.platform.wait_for_projections()
    assert client.call("GET", f"/api/v1/players/{ada['id']}").body["recent_games"] == []


def test_a_bot_registered_by_its_owner_names_its_owner(client: ApiClient) -> None:
    ada = client.player("ada")
    r = client.call("POST", "/api/v1/me/bots", {"name": "ada-bot"}, ada["token"])
    assert r.status == 201, r.body
    bot = r.body
    assert bot["kind"] == "bot" and bot["token"]
    profile = client.call("GET", f"/api/v1/players/{bot['id']}").body
    assert profile["bot"] is True and profile["server_bot"] is False
    assert profile["owner"] == {"id": ada["id"], "name": "ada"}
    lone = client.player("lone-bot", kind="bot")
    assert client.call("GET", f"/api/v1/players/{lone['id']}").body["owner"] is None


def test_a_server_bot_has_a_profile_owned_by_the_server(client: ApiClient) -> None:
    profile = client.call("GET", "/api/v1/players/server-bot:random").body
    assert profile["server_bot"] is True and profile["owner"]["id"] is None
    assert client.call("GET", "/api/v1/players/server-bot:no-such-bot").status == 404


def test_a_server_bots_profile_names_it_by_its_level_in_each_games_ladder(client: ApiClient) -> None:
    """Issue 33: as its seats and the leaderboards name it, "Level 3 bot", not "greedy bot"."""
    profile = client.call("GET", "/api/v1/players/server-bot:greedy").body
    assert profile["name"] == "Level 3 bot"
    assert [(v["game"], v["level"], v["title"]) for v in profile["levels"]] == [
        ("seven-dragons", 3, "Level 3"),
        ("tarasque", 3, "Level 3"),
    ]
    assert client.call("GET", "/api/v1/players/server-bot:search").body["name"] == "Level 4 bot"
    ada = client.player("ada")
    assert client.call("GET", f"/api/v1/players/{ada['id']}").body["levels"] == []


def test_an_unknown_player_is_a_404(client: ApiClient) -> None:
    r = client.call("GET", "/api/v1/players/nobody")
    assert r.status == 404 and r.body["error"]["code"] == "player_not_found"


def test_the_leaderboard_pages_and_hides_provisional_ratings_by_default(client: ApiClient) -> None:
    players = [client.player(f"p{k}") for k in range(3)]
    _game(client, players)
    assert client.call("GET", "/api/v1/leaderboards/dice-race").body == {
        "game": "dice-race",
        "total": 0,
        "offset": 0,
        "players": [],
    }
    whole = client.call("GET", "/api/v1/leaderboards/dice-race?provisional=true").body
    assert whole["total"] == 3 and [p["rank"] for p in whole["players"]] == [1, 2, 3]
    ratings = [p["rating"] for p in whole["players"]]
    assert ratings == sorted(ratings, reverse=True)
    page = client.call("GET", "/api/v1/leaderboards/dice-race?provisional=true&limit=1&offset=1").body
    assert [(p["rank"], p["player_id"]) for p in page["players"]] == [(2, whole["players"][1]["player_id"])]


def test_a_leaderboard_of_an_unknown_game_is_a_404_and_a_bad_page_a_400(client: ApiClient) -> None:
    r = client.call("GET", "/api/v1/leaderboards/chess")
    assert r.status == 404 and r.body["error"]["code"] == "game_not_found"
    r = client.call("GET", "/api/v1/leaderboards/dice-race?limit=0")
    assert r.status == 400, r.body
