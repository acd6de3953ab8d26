"""A client bot: it plays one seat of a Dragonhall game through the HTTP API, uniformly at random.

Standard library only. It polls: it asks for its legal moves, plays one with ``expected_version`` and
a ``command_id``, and asks again; while its seat is not awaited it waits and looks again.

    python docs/examples/random_bot.py --new tarasque          # a new game against the server's bot
    python docs/examples/random_bot.py GAME_ID TOKEN           # a seat this token holds in a game
"""

from __future__ import annotations

import argparse
import json
import os
import random
import time
import urllib.error
import urllib.request
from typing import Any


class Client:
    def __init__(self, server: str, token: str | None = None) -> None:
        self.api = server.rstrip("/") + "/api/v1"
        self.token = token

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        """The status and JSON answer of one request; an error's answer is its ``{"error": ...}``."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.api + path, data=data, method=method)
        if self.token:
            request.add_header("Authorization", f"Bearer {self.token}")
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                return answer.status, json.load(answer)
        except urllib.error.HTTPError as error:
            return error.code, json.load(error)


def choose(client: Client, game_id: str, page: dict[str, Any], rng: random.Random) -> Any:
    """One of all the legal moves, uniformly: a page lists at most 1,000, ``total`` counts them all."""
    i = rng.randrange(page["total"])
    if i < len(page["moves"]):
        return page["moves"][i]
    return client.call("GET", f"/games/{game_id}/legal-moves?offset={i}&limit=1")[1]["moves"][0]


def play(client: Client, game_id: str, rng: random.Random, poll: float = 1.0) -> dict[str, Any]:
    """Plays the token's seat until the game is over; returns the game as it ended."""
    while True:
        status, page = client.call("GET", f"/games/{game_id}/legal-moves")
        if status != 200:
            raise RuntimeError(page["error"])
        if page["moves"]:
            move = choose(client, game_id, page, rng)
            body = {"move": move, "expected_version": page["version"], "command_id": f"v{page['version']}"}
            status, answer = client.call("POST", f"/games/{game_id}/moves", body)
            if status not in (200, 201, 409):  # 409: the game moved on meanwhile (a timeout, say): look again
                raise RuntimeError(answer["error"])
            continue
        game = client.call("GET", f"/games/{game_id}")[1]
        if game["status"] in ("finished", "abandoned"):
            return game
        time.sleep(poll)  # another seat's turn


def new_game(client: Client, game: str) -> str:
    """Registers a bot player, opens a two-seat ``game``, takes a seat and seats the server's default bot."""
    name = f"random-bot-{random.randrange(16**6):06x}"  # names are unique: one of its own each run
    client.token = client.call("POST", "/players", {"name": name, "kind": "bot"})[1]["token"]
    game_id = client.call("POST", "/games", {"game": game, "players": 2})[1]["id"]
    client.call("POST", f"/games/{game_id}/seats", {})
    default_bot = next(g["default_bot"] for g in client.call("GET", "/catalog")[1]["games"] if g["game"] == game)
    client.call("POST", f"/games/{game_id}/seats", {"bot": default_bot})
    return game_id


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game_id", nargs="?")
    parser.add_argument("token", nargs="?")
    parser.add_argument("--new", metavar="GAME", help="open a new game of GAME (a slug of /api/v1/catalog)")
    parser.add_argument("--server", default=os.environ.get("DRAGONHALL_URL", "http://127.0.0.1:8000"))
    parser.add_argument("--poll", type=float, default=1.0, help="seconds between looks while waiting")
    args = parser.parse_args(argv)
    client = Client(args.server, args.token)
    game_id = new_game(client, args.new) if args.new else args.game_id
    if not game_id or not client.token:
        parser.error("give GAME_ID and TOKEN, or --new GAME")
    print(f"playing {args.server}/api/v1/games/{game_id}")
    game = play(client, game_id, random.Random(), args.poll)
    print(f"{game['status']}: {json.dumps(game['outcome'])}")
    return game


if __name__ == "__main__":
    main()
