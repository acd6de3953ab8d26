"""A client's play of two-player Tarasque games through the API, as the benches drive them.

The client posts a legal move with ``expected_version`` and asks for the legal
moves it needs, as a bot would: a move's answer carries the mover's next legal
moves (``include_legal_moves``), so it asks ``GET /legal-moves`` only when the turn
passes. ``call`` is how it reaches the server: a socket (``http_load.py``) or the
WSGI app in the same process (``request_cost.py``).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

Call = Callable[..., tuple[int, Any, float]]
"""``call(method, path, body=None, token=None)``: the status, the JSON body, and the seconds it took."""


@dataclass
class Played:
    """One game as a client saw it."""

    game_id: str
    moves: list[float] = field(default_factory=list)
    """Seconds per acknowledged ``POST /moves``."""
    gets: list[float] = field(default_factory=list)
    """Seconds per ``GET /legal-moves``."""
    acked: list[int] = field(default_factory=list)
    """The versions the server acknowledged, each of which must be stored."""
    errors: int = 0


def new_game(call: Call) -> tuple[str, list[str]]:
    """Registers two players and seats them at a new game, which starts at once."""
    tokens = []
    for name in ("a", "b"):
        _, p, _ = call("POST", "/api/v1/players", {"name": name})
        tokens.append(p["token"])
    _, g, _ = call("POST", "/api/v1/games", {"game": "tarasque", "players": 2}, tokens[0])
    for t in tokens:
        call("POST", f"/api/v1/games/{g['id']}/seats", {}, t)
    return g["id"], tokens


def play_game(call: Call, rng: random.Random, keep_going: Callable[[int], bool]) -> Played:
    """Plays a new game with random legal moves until it ends, or until ``keep_going(n)``,
    asked with the number of moves played so far in this game, says stop."""
    game_id, tokens = new_game(call)
    played = Played(game_id)
    _, doc, _ = call("GET", f"/api/v1/games/{game_id}")
    awaiting = doc["awaiting"]
    legal: Any = None
    while awaiting and keep_going(len(played.moves)):
        seat = awaiting[0]
        if not legal or not legal["moves"] or legal["seat"] != seat:
            _, legal, took = call("GET", f"/api/v1/games/{game_id}/legal-moves", token=tokens[seat])
            played.gets.append(took)
        body = {"move": rng.choice(legal["moves"]), "expected_version": legal["version"],
                "include_legal_moves": True}
        status, res, took = call("POST", f"/api/v1/games/{game_id}/moves", body, tokens[seat])
        if status != 201:
            played.errors += 1
            legal = None
            _, doc, _ = call("GET", f"/api/v1/games/{game_id}")
            awaiting = doc["awaiting"]
            continue
        played.moves.append(took)
        played.acked.append(res["version"])
        legal = res["legal_moves"]
        rules = [e for e in res["events"] if e.get("source") == "rules"]
        awaiting = rules[-1]["awaiting"] if rules else awaiting
        if res["events"][-1]["type"] in ("Finished", "Abandoned"):
            awaiting = []
    return played
