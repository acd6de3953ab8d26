"""A client's play of two-player Tarasque games through the API, as the benches drive them.

The client posts a legal move with ``expected_version`` and asks for the legal
moves it needs, as a bot would: a move's answer carries the mover's next legal
moves (``include_legal_moves``), so it asks ``GET /legal-moves`` only when the turn
passes. The play is a generator of requests (``game_script``), driven over
non-blocking sockets (``http_load.py``) or, by ``play_game``, through a ``call``
such as the WSGI app in the same process (``request_cost.py``).
"""

from __future__ import annotations

import random
import uuid
from collections.abc import Callable, Generator
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


Request = tuple[str, str, Any, str | None]
"""``(method, path, body, token)``, as ``call`` takes them."""
Reply = tuple[int, Any, float]
"""``(status, JSON body, seconds from sending the request to reading the whole reply)``."""
Script = Generator[Request, Reply, Played]
"""A game's play as a generator: it yields each request and is sent its reply, so
one thread can drive many games over non-blocking sockets (``http_load.py``), or
``play_game`` one game through ``call``."""


def play_game(call: Call, rng: random.Random, keep_going: Callable[[int], bool]) -> Played:
    """Plays ``game_script`` through ``call``, one request at a time."""
    script = game_script(rng, keep_going)
    try:
        request = next(script)
        while True:
            request = script.send(call(*request))
    except StopIteration as done:
        return done.value  # type: ignore[no-any-return]


Acked = Callable[[str, int, list[int]], None]
"""``on_ack(game_id, version, awaiting)``: called as soon as a move's 201 is read, with the seats the
game awaits after it (``bench/streams.py`` times the streams' lines from it)."""


def game_script(rng: random.Random, keep_going: Callable[[int], bool]) -> Script:
    """Plays a new game with random legal moves until it ends, or until ``keep_going(n)``,
    asked with the number of moves played so far in this game, says stop."""
    game_id, tokens = yield from new_game()
    return (yield from play_script(game_id, tokens, rng, keep_going))


def play_script(
    game_id: str, tokens: list[str], rng: random.Random, keep_going: Callable[[int], bool], on_ack: Acked | None = None
) -> Script:
    """Plays the started game ``game_id``, seat ``i`` with ``tokens[i]``, as ``game_script`` does."""
    played = Played(game_id)
    status, doc, _ = yield ("GET", f"/api/v1/games/{game_id}", None, None)
    awaiting = _awaiting(game_id, status, doc)
    legal: Any = None
    while awaiting and keep_going(len(played.moves)):
        seat = awaiting[0]
        if not legal or not legal["moves"] or legal["seat"] != seat:
            _, legal, took = yield ("GET", f"/api/v1/games/{game_id}/legal-moves", None, tokens[seat])
            played.gets.append(took)
        body = {"move": rng.choice(legal["moves"]), "expected_version": legal["version"], "include_legal_moves": True}
        status, res, took = yield ("POST", f"/api/v1/games/{game_id}/moves", body, tokens[seat])
        if status != 201:
            played.errors += 1
            legal = None
            status, doc, _ = yield ("GET", f"/api/v1/games/{game_id}", None, None)
            awaiting = _awaiting(game_id, status, doc)
            continue
        played.moves.append(took)
        played.acked.append(res["version"])
        legal = res["legal_moves"]
        rules = [e for e in res["events"] if e.get("source") == "rules"]
        awaiting = rules[-1]["awaiting"] if rules else awaiting
        if res["events"][-1]["type"] in ("Finished", "Abandoned"):
            awaiting = []
        if on_ack is not None:
            on_ack(game_id, res["version"], awaiting)
    return played


def _awaiting(game_id: str, status: int, doc: Any) -> list[int]:
    """The seats a game document awaits; a refusal stops the play with the server's answer."""
    if status != 200:
        raise RuntimeError(f"GET /games/{game_id} answered {status}: {doc}")
    return list(doc["awaiting"])


def new_game() -> Generator[Request, Reply, tuple[str, list[str]]]:
    """Registers two players (names are unique: each game's are new) and seats them at a new game,
    which starts at once."""
    tokens = []
    for name in ("a", "b"):
        _, p, _ = yield ("POST", "/api/v1/players", {"name": f"{name}-{uuid.uuid4().hex[:10]}"}, None)
        tokens.append(p["token"])
    _, g, _ = yield ("POST", "/api/v1/games", {"game": "tarasque", "players": 2}, tokens[0])
    for t in tokens:
        yield ("POST", f"/api/v1/games/{g['id']}/seats", {}, t)
    return g["id"], tokens
