"""Signing game records with the server's key, and checking their signatures offline.

The key is Ed25519 (RFC 8032, through ``cryptography``). Its private half is derived
from the server's master secret (``DRAGONHALL_SECRET_KEY``) with HKDF-SHA256 under
the label ``KEY_LABEL``, so every process of one deployment signs alike and there
is no key file to keep. A new master secret is a new signing key (records signed
before still verify against the key they embed, and against that key if pinned).

A record of format ``dragonhall-record/2`` carries a ``signature`` block::

    {"algorithm": "Ed25519", "key_id": "<16 hex>", "public_key": "<base64, 32 bytes>",
     "manifest": {"format": ..., "digest": "sha256",
                  "header": {field: digest, ...}, "decisions": [digest, ...],
                  "events": [digest, ...], "audit": digest},
     "value": "<base64, 64 bytes>"}

Each digest is the SHA-256 (hex) of the canonical JSON of one part of the record
(``canonical``); ``value`` signs the canonical JSON of the manifest. A verifier that
finds the signature good compares the record with the manifest part by part, and
so names the header field, the decision or the event that was changed. The key's
fingerprint is ``SHA256:`` and the unpadded base64 of the SHA-256 of the raw public
key (as ``ssh-keygen -l`` writes them); its id is the first 16 hex digits of that digest.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
from dataclasses import dataclass
from functools import cache
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

ALGORITHM = "Ed25519"
DIGEST = "sha256"
KEY_LABEL = b"dragonhall record signing key v1"
"""The HKDF ``info`` that derives the signing key from the master secret (a purpose label:
the same secret also derives game seeds and webhook secrets, under other labels)."""
SIGNED_PARTS = ("header", "decisions", "events", "audit")


def canonical(value: Any) -> bytes:
    """The canonical JSON of a record's part: keys sorted, no whitespace, non-ASCII escaped
    (``json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True)``)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True, allow_nan=False).encode()


def digest(value: Any) -> str:
    return hashlib.sha256(canonical(value)).hexdigest()


@dataclass(frozen=True)
class PublicKey:
    """A record-signing public key: its raw 32 bytes, and the names it goes by."""

    raw: bytes

    @property
    def text(self) -> str:
        """The key as published: standard base64 of the raw 32 bytes."""
        return base64.b64encode(self.raw).decode()

    @property
    def fingerprint(self) -> str:
        return "SHA256:" + base64.b64encode(hashlib.sha256(self.raw).digest()).decode().rstrip("=")

    @property
    def key_id(self) -> str:
        return hashlib.sha256(self.raw).hexdigest()[:16]

    def to_json(self) -> dict[str, str]:
        return {"key_id": self.key_id, "algorithm": ALGORITHM, "public_key": self.text, "fingerprint": self.fingerprint}

    def verifies(self, signature: bytes, message: bytes) -> bool:
        try:
            Ed25519PublicKey.from_public_bytes(self.raw).verify(signature, message)
        except InvalidSignature:
            return False
        return True

    def named_by(self, text: str) -> bool:
        """Whether ``text`` (a public key in base64, or its fingerprint, with or without
        ``SHA256:``) names this key."""
        text = text.strip()
        return text in (self.text, self.fingerprint, self.fingerprint.removeprefix("SHA256:"))

    @classmethod
    def parse(cls, text: str) -> PublicKey:
        """A key from its base64 form; ``ValueError`` if it is not 32 bytes of base64."""
        try:
            raw = base64.b64decode(text.strip(), validate=True)
        except (binascii.Error, ValueError):
            raise ValueError(f"{text!r} is not a base64 public key") from None
        if len(raw) != 32:
            raise ValueError(f"an Ed25519 public key is 32 bytes, not {len(raw)}")
        return cls(raw)


class RecordSigner:
    """Signs records with the key derived from a server's master secret."""

    def __init__(self, private: Ed25519PrivateKey) -> None:
        self._private = private
        raw = private.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
        self.public = PublicKey(raw)

    def sign(self, record: dict[str, Any]) -> dict[str, Any]:
        """The signature block of ``record`` (its parts as JSON values, without a signature)."""
        signed = manifest(record)
        value = self._private.sign(canonical(signed))
        return {**self.public.to_json(), "manifest": signed, "value": base64.b64encode(value).decode()}


@cache
def signer_for(secret: bytes) -> RecordSigner:
    """The signer of a deployment: its key derived from the master secret with HKDF-SHA256."""
    seed = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=KEY_LABEL).derive(secret)
    return RecordSigner(Ed25519PrivateKey.from_private_bytes(seed))


def manifest(record: dict[str, Any]) -> dict[str, Any]:
    """One digest per header field, per decision and per event, and one of the audit."""
    return {
        "format": record["format"],
        "digest": DIGEST,
        "header": {key: digest(value) for key, value in record["header"].items()},
        "decisions": [digest(d) for d in record["decisions"]],
        "events": [digest(e) for e in record["events"]],
        "audit": digest(record.get("audit")),
    }


def check_signature(record: dict[str, Any]) -> tuple[PublicKey | None, list[tuple[str, str]]]:
    """The key that signed ``record`` (None if the block names none) and what is wrong, each
    ``(where, why)``: the block itself, or each part of the record the manifest does not cover."""
    block = record.get("signature")
    if not isinstance(block, dict):
        return None, [("signature", f"a {record.get('format')} record is signed, and this one has no signature")]
    if block.get("algorithm") != ALGORITHM:
        return None, [("signature.algorithm", f"{block.get('algorithm')!r} is not {ALGORITHM}")]
    try:
        key = PublicKey.parse(str(block.get("public_key")))
    except ValueError as e:
        return None, [("signature.public_key", str(e))]
    if block.get("key_id") != key.key_id:
        return key, [("signature.key_id", f"{block.get('key_id')!r} is not the id of the public key ({key.key_id})")]
    if block.get("fingerprint", key.fingerprint) != key.fingerprint:
        return key, [("signature.fingerprint", f"{block.get('fingerprint')!r} is not the key's ({key.fingerprint})")]
    signed = block.get("manifest")
    try:
        value = base64.b64decode(str(block.get("value")), validate=True)
        good = isinstance(signed, dict) and key.verifies(value, canonical(signed))
    except (binascii.Error, ValueError, TypeError):
        good = False
    if not good:
        return key, [
            (
                "signature.value",
                f"the signature does not verify with key {key.key_id}: the manifest or the signature was altered",
            )
        ]
    assert isinstance(signed, dict)
    return key, uncovered(record, signed)


def uncovered(record: dict[str, Any], signed: dict[str, Any]) -> list[tuple[str, str]]:
    """The parts of ``record`` that differ from what the signed manifest covers."""
    problems: list[tuple[str, str]] = []
    actual = manifest(record)
    if signed.get("format") != record.get("format") or signed.get("digest") != DIGEST:
        problems.append(
            (
                "format",
                f"the record says {record.get('format')!r}; the server signed "
                f"{signed.get('format')!r} with digest {signed.get('digest')!r}",
            )
        )
    header, want = actual["header"], signed.get("header") or {}
    for key in sorted(set(header) | set(want)):
        if key not in want:
            problems.append((f"header.{key}", "a field the server did not sign"))
        elif key not in header:
            problems.append((f"header.{key}", "a field the server signed is missing"))
        elif header[key] != want[key]:
            problems.append((f"header.{key}", "not what the server signed"))
    for part, label in (("decisions", _decision_label), ("events", _event_label)):
        problems.extend(_list_problems(part, record[part], actual[part], signed.get(part) or [], label))
    if actual["audit"] != signed.get("audit"):
        problems.append(("audit", "not what the server signed"))
    return problems


def _list_problems(part: str, items: list[Any], have: list[str], want: list[str], label: Any) -> list[tuple[str, str]]:
    """The first item that differs from the signed one (and how many more do), and a count that differs."""
    changed = [i for i in range(min(len(have), len(want))) if have[i] != want[i]]
    out = []
    if changed:
        more = f" (and {len(changed) - 1} more after it)" if len(changed) > 1 else ""
        out.append((f"{part}[{changed[0]}]", f"{label(items[changed[0]])} is not what the server signed{more}"))
    if len(have) != len(want):
        out.append((part, f"the record holds {len(have)} {part}; the server signed {len(want)}"))
    return out


def _event_label(event: Any) -> str:
    if not isinstance(event, dict):
        return "this event"
    return f"the event at version {event.get('version')} ({event.get('type')})"


def _decision_label(decision: Any) -> str:
    if not isinstance(decision, dict):
        return "this decision"
    return f"step {decision.get('step')} (version {decision.get('version')})"
