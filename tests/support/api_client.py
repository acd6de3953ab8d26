"""A thin HTTP client for tests, over Flask's test client or a live server."""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

STREAMING = ("application/x-ndjson", "text/event-stream")


@dataclass
class Reply:
    status: int
    body: Any

    @property
    def text(self) -> str:
        return json.dumps(self.body)


class ApiClient:
    def __init__(self, flask_client: Any, platform: Any = None) -> None:
        self.http = flask_client
        self.platform = platform

    def call(
        self, method: str, path: str, body: Any = None, token: str | None = None, raw: bytes | None = None
    ) -> Reply:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        data = raw if raw is not None else (None if body is None else json.dumps(body))
        r = self.http.open(path, method=method, data=data, headers=headers, buffered=False)
        if r.mimetype in STREAMING:  # a stream does not end: its status is the answer (``stream_lines`` reads it)
            r.close()
            return Reply(r.status_code, None)
        try:
            payload = r.get_json()
        except Exception:
            payload = r.get_data(as_text=True)
        return Reply(r.status_code, payload)

    def page(self, path: str, token: str | None = None) -> Reply:
        """A web page as a browser signed in with ``token`` reads it (its session cookie; signed out
        without one). The cookie goes through the test client's jar, the only cookies it sends."""
        if token:
            self.http.set_cookie("dragonhall_session", token)
        try:
            r = self.http.open(path, method="GET")
        finally:
            if token:
                self.http.delete_cookie("dragonhall_session")
        return Reply(r.status_code, r.get_data(as_text=True))

    def player(self, name: str | None = None, kind: str = "human") -> dict[str, Any]:
        """A new account (names are unique: without one, a fresh name)."""
        r = self.call("POST", "/api/v1/players", {"name": name or f"p-{uuid.uuid4().hex[:8]}", "kind": kind})
        assert r.status == 201, r.body
        return r.body

    def new_game(self, token: str, game: str = "dice-race", players: int = 2, **extra: Any) -> dict[str, Any]:
        r = self.call("POST", "/api/v1/games", {"game": game, "players": players, **extra}, token)
        assert r.status == 201, r.body
        return r.body

    def seat(self, game_id: str, token: str, **body: Any) -> Reply:
        return self.call("POST", f"/api/v1/games/{game_id}/seats", body, token)

    def game(self, game_id: str, token: str | None = None) -> dict[str, Any]:
        r = self.call("GET", f"/api/v1/games/{game_id}", token=token)
        assert r.status == 200, r.body
        return r.body

    def legal(self, game_id: str, token: str) -> dict[str, Any]:
        r = self.call("GET", f"/api/v1/games/{game_id}/legal-moves", token=token)
        assert r.status == 200, r.body
        return r.body

    def move(self, game_id: str, token: str, move: Any, **extra: Any) -> Reply:
        return self.call("POST", f"/api/v1/games/{game_id}/moves", {"move": move, **extra}, token)

    def wait_finished(self, game_id: str, timeout: float = 60) -> dict[str, Any]:
        deadline = time.time() + timeout
        while time.time() < deadline:
            doc = self.game(game_id)
            if doc["status"] in ("finished", "abandoned"):
                return doc
            time.sleep(0.05)
        raise AssertionError(f"game {game_id} did not finish in {timeout} s")

    # ------------------------------------------------------------ streams

    def stream_until_quiet(
        self, path: str, token: str | None = None, accept: str = "application/x-ndjson", **headers: str
    ) -> tuple[int, list[bytes]]:
        """The status and the frames of a stream up to its first keep-alive, after which it is closed.
        Tests set ``services.streams.lines.KEEPALIVE`` to 0, so a stream with nothing more to send says so at
        once. A stream that ends (its game ended) gives all its frames."""
        sent = {"Accept": accept, **headers}
        if token:
            sent["Authorization"] = f"Bearer {token}"
        r = self.http.get(path, headers=sent, buffered=False)
        frames: list[bytes] = []
        try:
            if r.status_code != 200:
                return r.status_code, [r.get_data()]
            for frame in _frames(r.response, b"\n\n" if accept == "text/event-stream" else b"\n"):
                if frame in (b"\n", b": keep-alive\n\n"):
                    break
                frames.append(frame)
        finally:
            r.close()
        return r.status_code, frames

    def stream_lines(self, path: str, token: str | None = None, **headers: str) -> list[dict[str, Any]]:
        """The NDJSON lines a stream has ready (``stream_until_quiet``)."""
        status, frames = self.stream_until_quiet(path, token, **headers)
        assert status == 200, frames
        return [json.loads(f) for f in frames]


def _frames(chunks: Iterable[bytes], end: bytes) -> Iterator[bytes]:
    """The frames of a stream's body, each ending with ``end`` (a server may send several in one
    chunk, or one across several)."""
    held = b""
    for chunk in chunks:
        held += chunk
        while (cut := held.find(end)) >= 0:
            frame, held = held[: cut + len(end)], held[cut + len(end) :]
            yield frame
