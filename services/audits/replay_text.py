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


def first_difference(said: Any, found: Any, path: str) -> tuple[str, Any, Any] | None:
    """The first place where two JSON values differ: ``(path, said, found)``, or None."""
    if isinstance(said, dict) and isinstance(found, dict):
        for key in sorted(set(said) | set(found), key=str):
            if key not in said or key not in found:
                return f"{path}.{key}", said.get(key), found.get(key)
            diff = first_difference(said[key], found[key], f"{path}.{key}")
            if diff is not None:
                return diff
        return None
    if isinstance(said, list) and isinstance(found, list) and len(said) == len(found):
        for i, (a, b) in enumerate(zip(said, found, strict=True)):
            diff = first_difference(a, b, f"{path}[{i}]")
            if diff is not None:
                return diff
        return None
    same = said == found and type(said) is type(found)
    return None if same else (path, said, found)


def differs(version: Any, got: dict[str, Any], kind: str, data: dict[str, Any]) -> str:
    """Why a recorded rule event is not the one the rules produce: where its data first differs
    when the types agree (a card moved late in a shuffled deck of 100 is otherwise cut off)."""
    if got.get("type") == kind:
        diff = first_difference(got.get("data"), data, "data")
        if diff is not None:
            where, said, found = diff
            return (
                f"version {version}: recorded {kind} differs from the rules' at {where}: "
                f"the record has {short(said)}, the rules produce {short(found)}"
            )
    recorded = f"{got.get('type')} {short(got.get('data'))}"
    return f"version {version}: recorded {recorded}, but the rules produce {kind} {short(data)}"


def explain(e: BaseException) -> str:
    if isinstance(e, RuleError):
        return f"the rules refuse it: {e.message} [{e.rule.id}: {e.rule.text}]"
    if isinstance(e, ConfigError):
        return e.message
    if isinstance(e, Mismatch):
        return str(e)
    return f"the record is malformed here ({type(e).__name__}: {short(e)})"
