"""How the verifier names a record's steps and explains what is wrong with them."""

from __future__ import annotations

from typing import Any

from domain.kernel import ConfigError, RuleError
from services.reads.steps import CAUSES, SEATINGS


class Mismatch(Exception):
    """A step of the record that the rules or the platform do not reproduce."""


def version_of(event: Any) -> int:
    version = event.get("version") if isinstance(event, dict) else None
    return version if isinstance(version, int) else -1


def actor(event: Any) -> str:
    data = event.get("data") if isinstance(event, dict) else None
    if not isinstance(data, dict):
        return "-"
    if "seat" in data and event.get("type") in (*CAUSES, *SEATINGS):
        return f"seat {data['seat']}"
    return "creator" if event.get("type") == "Created" else "system"


def summary(event: Any) -> str:
    if not isinstance(event, dict):
        return "not an event"
    raw = event.get("data")
    data: dict[str, Any] = raw if isinstance(raw, dict) else {}
    kind = event.get("type")
    if kind == "MoveMade":
        return f"move {short(data.get('move'))}"
    if kind == "TurnTimedOut":
        return f"timed out ({data.get('applied')})"
    if kind == "PolicyPlayed":
        return f"played by the timeout policy ({data.get('applied')})"
    return str(kind)


def short(value: Any, limit: int = 120) -> str:
    text = str(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def explain(e: BaseException) -> str:
    if isinstance(e, RuleError):
        return f"the rules refuse it: {e.message} [{e.rule.id}: {e.rule.text}]"
    if isinstance(e, ConfigError):
        return e.message
    if isinstance(e, Mismatch):
        return str(e)
    return f"the record is malformed here ({type(e).__name__}: {short(e)})"
