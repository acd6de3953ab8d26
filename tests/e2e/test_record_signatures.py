"""Records are signed with the server's key, published at GET /api/v1/keys, through the HTTP API."""

from __future__ import annotations

import base64
from typing import Any

from services.audits.record_signing import signer_for
from services.audits.verification import verify_record


def _finished_game(client: Any) -> str:
    a, b = client.player("alice"), client.player("bob")
    game = client.new_game(a["token"], time_control={"kind": "per_move", "seconds": 3600, "timeout_policy": "skip"})
    client.seat(game["id"], a["token"])
    client.seat(game["id"], b["token"])
    tokens = {0: a["token"], 1: b["token"]}
    for _ in range(400):
        doc = client.game(game["id"])
        if doc["status"] != "active":
            break
        seat = doc["awaiting"][0]
        client.move(game["id"], tokens[seat], client.legal(game["id"], tokens[seat])["moves"][-1], seat=seat)
    return str(game["id"])


def test_the_public_key_is_published_for_anyone_with_its_id_and_fingerprint(client: Any) -> None:
    reply = client.call("GET", "/api/v1/keys")
    assert reply.status == 200
    (key,) = reply.body["keys"]
    assert key["algorithm"] == "Ed25519" and key["use"] == "records"
    assert len(base64.b64decode(key["public_key"])) == 32
    assert key["fingerprint"].startswith("SHA256:") and len(key["key_id"]) == 16
    assert key["public_key"] == signer_for(client.platform.settings.secret_key).public.text


def test_an_exported_record_verifies_against_the_published_key(client: Any) -> None:
    gid = _finished_game(client)
    record = client.call("GET", f"/api/v1/games/{gid}/record").body
    key = client.call("GET", "/api/v1/keys").body["keys"][0]
    assert record["format"] == "dragonhall-record/2"
    assert {k: record["signature"][k] for k in ("key_id", "public_key", "fingerprint")} == {
        k: key[k] for k in ("key_id", "public_key", "fingerprint")
    }
    assert {"starts_at", "settings"} <= set(record["header"])
    report = verify_record(record, trusted=[key["public_key"]])
    assert report["ok"], report["verdict"]
    assert report["checks"]["signature_valid"] and report["checks"]["key_trusted"]
    assert any("closes" in e for e in record["events"] if e["source"] == "rules")
    assert client.call("GET", f"/api/v1/games/{gid}/record").body == record, "signed alike at every export"


def test_the_signing_key_derives_from_the_master_secret_alone() -> None:
    assert signer_for(b"\x01" * 32).public == signer_for(bytes(b"\x01" * 32)).public
    assert signer_for(b"\x01" * 32).public != signer_for(b"\x02" * 32).public
