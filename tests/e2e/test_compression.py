"""Large answers are compressed when the client accepts it; small ones and streams never are."""

from __future__ import annotations

import gzip
import json
from typing import Any

import brotli

from api.app import create_app


def test_a_large_answer_is_compressed_and_reads_back_the_same(client: Any, platform: Any) -> None:
    ann = client.player("ann")
    game = client.call("POST", "/api/v1/games", {"game": "mekong", "players": 2}, ann["token"]).body
    client.call("POST", f"/api/v1/games/{game['id']}/seats", {}, ann["token"])
    client.call("POST", f"/api/v1/games/{game['id']}/seats", {"bot": "random"}, ann["token"])
    http = create_app(platform).test_client()
    path = f"/api/v1/games/{game['id']}/legal-moves"
    auth = {"Authorization": f"Bearer {ann['token']}"}
    plain = http.get(path, headers={**auth, "Accept-Encoding": "identity"})
    assert "Content-Encoding" not in plain.headers
    for coding, decode in (("gzip", gzip.decompress), ("br", brotli.decompress)):
        packed = http.get(path, headers={**auth, "Accept-Encoding": coding})
        assert packed.headers["Content-Encoding"] == coding
        assert len(packed.data) * 5 < len(plain.data)
        assert json.loads(decode(packed.data)) == plain.get_json()
        assert "Accept-Encoding" in packed.headers["Vary"]


def test_a_small_answer_and_a_stream_are_sent_as_they_are(client: Any, platform: Any) -> None:
    http = create_app(platform).test_client()
    small = http.get("/healthz", headers={"Accept-Encoding": "gzip"})
    assert "Content-Encoding" not in small.headers
    ann = client.player("ann")
    game = client.call("POST", "/api/v1/games", {"game": "tarasque", "players": 2}, ann["token"]).body
    stream = http.get(f"/api/v1/games/{game['id']}/stream", headers={"Accept-Encoding": "gzip, br"}, buffered=False)
    try:
        assert stream.status_code == 200 and "Content-Encoding" not in stream.headers
    finally:
        stream.close()
