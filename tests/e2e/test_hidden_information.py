"""Hidden information is a security property: no response to another seat or to a
spectator reveals a secret while the game runs; everything is revealed at the end."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from domain.kernel import Viewer, all_games
from tests.support.toygame import DICE_RACE


def _play_random(platform: Any, gid: str, decisions: int, seed: int = 7) -> None:
    """Random decisions, avoiding those that would end the game (the check needs it running)."""
    from domain.kernel import Rng

    rng = random.Random(seed)
    for _ in range(decisions):
        game = platform.games.load(gid)
        ruleset = game.ruleset
        seat = rng.choice(game.awaiting)
        moves = list(ruleset.legal_moves(game.state, seat))
        rng.shuffle(moves)
        for move in moves:
            after = ruleset.fold(game.state, ruleset.decide(game.state, seat, move, Rng(b"probe", "x")))
            if not ruleset.is_over(after):
                break
        else:
            return
        platform.games.submit_move(gid, game.seat_info(seat)["player_id"], ruleset.commands.dump(move), seat=seat)
        if platform.games.load(gid).status != "active":
            return


def _seated_game(client: Any, slug: str, seats: int) -> tuple[str, list[dict[str, Any]]]:
    players = [client.player(f"p{i}") for i in range(seats)]
    game = client.new_game(players[0]["token"], game=slug, players=seats)
    for p in players:
        assert client.seat(game["id"], p["token"]).status == 201
    return game["id"], players


def test_another_seat_sees_neither_my_secret_card_nor_my_secret_bid(client: Any) -> None:
    gid, (a, b) = _seated_game(client, "dice-race", 2)
    client.move(gid, a["token"], {"type": "bid", "amount": 2})
    game = client.platform.games.load(gid)
    secret = game.state.secrets[0]

    mine = client.game(gid, a["token"])["view"]
    theirs = client.game(gid, b["token"])["view"]
    anonymous = client.game(gid)["view"]
    assert mine["secrets"][0] == secret and mine["bids"][0] == 2
    for view in (theirs, anonymous):
        assert view["secrets"][0] is None and view["bids"][0] == "placed"

    for token in (b["token"], None):
        events = client.call("GET", f"/api/v1/games/{gid}/events", token=token).body["events"]
        dealt = [e for e in events if e["type"] == "SecretDealt" and e["data"]["seat"] == 0]
        assert dealt[0]["data"]["card"] == {"hidden": True}
        bid = next(e for e in events if e["type"] == "BidPlaced")
        assert bid["data"]["amount"] == {"hidden": True}
        made = next(e for e in events if e["type"] == "MoveMade")
        assert made["data"]["move"] == {"type": "bid", "amount": {"hidden": True}}
        assert all("state_hash" not in e for e in events)
    own = client.call("GET", f"/api/v1/games/{gid}/events", token=a["token"]).body["events"]
    assert next(e for e in own if e["type"] == "BidPlaced")["data"]["amount"] == 2


def test_the_seed_is_secret_until_the_end_and_then_matches_its_commitment(client: Any) -> None:
    import hashlib

    gid, (a, b) = _seated_game(client, "dice-race", 2)
    seed = client.platform.seeds.of(client.platform.games.load(gid).id).hex()
    texts = [
        client.call("GET", f"/api/v1/games/{gid}", token=t).text
        + client.call("GET", f"/api/v1/games/{gid}/events", token=t).text
        + client.call("GET", f"/api/v1/games/{gid}/replay?at=5", token=t).text
        for t in (a["token"], b["token"], None)
    ]
    assert all(seed not in text for text in texts)
    client.call("POST", f"/api/v1/games/{gid}/resign", {}, b["token"])
    events = client.call("GET", f"/api/v1/games/{gid}/events").body["events"]
    finished = events[-1]
    assert finished["type"] == "Finished" and finished["data"]["seed"] == seed
    assert hashlib.sha256(bytes.fromhex(seed)).hexdigest() == client.game(gid)["seed_commitment"]


def test_after_the_end_everything_is_revealed_to_everyone(client: Any) -> None:
    gid, (a, b) = _seated_game(client, "dice-race", 2)
    client.move(gid, a["token"], {"type": "bid", "amount": 1})
    client.call("POST", f"/api/v1/games/{gid}/resign", {}, b["token"])
    state = client.platform.games.load(gid).state
    view = client.game(gid)["view"]
    assert view["secrets"] == list(state.secrets)
    events = client.call("GET", f"/api/v1/games/{gid}/events").body["events"]
    assert all(e["data"].get("card") != {"hidden": True} for e in events)
    assert all("state_hash" in e for e in events if e["source"] == "rules")
    early = client.call("GET", f"/api/v1/games/{gid}/replay?at=6").body
    assert early["view"]["secrets"] == list(state.secrets)


GAMES = [g for g in all_games() if g is not DICE_RACE]


@pytest.mark.parametrize("ruleset", GAMES, ids=lambda g: g.slug)
def test_a_spectator_and_another_seat_get_only_redacted_events_and_views(client: Any, ruleset: Any) -> None:
    """For every game: mid-game, what seat 1 and a spectator receive is exactly the redacted
    form of each event and the game's own view for them; secrets owned by seat 0 never appear."""
    variant = ruleset.variants[0]
    gid, players = _seated_game(client, ruleset.slug, max(2, variant.min_seats))
    _play_random(client.platform, gid, 25)
    game = client.platform.games.load(gid)
    if game.status != "active":
        pytest.skip("the random game ended before the check")
    for seat, token in ((1, players[1]["token"]), (None, None)):
        viewer = Viewer.spectator() if seat is None else Viewer.of(seat)
        doc = client.game(gid, token)
        assert doc["view"] == json.loads(json.dumps(ruleset.view(game.state, viewer)))
        events = client.call("GET", f"/api/v1/games/{gid}/events", token=token).body["events"]
        for e in events:
            assert "state_hash" not in e and "seed" not in e["data"]
            if e["source"] != "rules":
                continue
            event = ruleset.events.by_type[e["type"]]
            original = ruleset.load_event(e["type"], _stored_data(client, gid, e["version"]))
            assert e["data"] == json.loads(json.dumps(original.visible_data(viewer)))
            if event.SECRET and (seat is None or seat not in original.owners()):
                for name in event.SECRET:
                    assert isinstance(e["data"][name], dict) and "hidden" in e["data"][name]


def _stored_data(client: Any, gid: str, version: int) -> dict[str, Any]:
    for stored in client.platform.games.stored_events(gid, after=version - 1):
        return dict(stored.data)
    raise AssertionError(version)
