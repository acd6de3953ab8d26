"""The server's public keys: what records are signed with (``services.audits.record_signing``)."""

from __future__ import annotations

from typing import Any

from api import audit_schemas
from api.context import current_platform
from api.parser import blueprint
from services.audits.record_signing import signer_for

blp = blueprint("keys", "The public keys that sign this server's game records.")


@blp.route("/keys", methods=["GET"])
@blp.contract(auth="none", scope=None, store=False)
@blp.response(200, audit_schemas.Keys())
def keys() -> dict[str, Any]:
    """The Ed25519 public key that signs this server's game records (`GET /games/{id}/record`):
    its id, algorithm, the raw 32-byte key in base64 and its fingerprint. Pin it with
    `dragonhall verify --key` (or `--server`), so that a record signed by any other key fails."""
    key = signer_for(current_platform().settings.secret_key).public
    return {"keys": [{**key.to_json(), "use": "records"}]}
