"""Stored events as a viewer may see them.

Rule events are redacted by the game's own declarations (``SECRET``/``OWNERS``);
moves by the command's ``SECRET`` fields. State hashes (of rule events, and of
a sandbox's forked position) stay hidden until the game is over: a hash of a
state that holds secrets lets a player test guesses of those secrets offline.
"""

from __future__ import annotations

from typing import Any

from domain.kernel import Command, Event, Viewer
from services.play.aggregate import Game

_META = {"originator_id", "originator_version", "timestamp", "originator_topic"}


def redact_stored_event(ruleset: Any, stored: Any, viewer: Viewer) -> dict[str, Any]:
    """``{version, type, source, data, at}`` for one stored event, as ``viewer`` sees it."""
    out: dict[str, Any] = {
        "version": stored.originator_version,
        "at": stored.timestamp.isoformat(),
    }
    if isinstance(stored, Game.RuleEvent):
        out.update(
            type=stored.KIND,
            source="rules",
            data=_rule_event_data(ruleset, stored, viewer),
            awaiting=list(stored.awaiting),
        )
        if viewer.omniscient:
            out["state_hash"] = stored.state_hash
            out["engine"] = stored.engine
        return out
    data = {k: v for k, v in stored.__dict__.items() if k not in _META}
    move = getattr(stored, "move", None)
    if (
        isinstance(stored, (Game.MoveMade, Game.TurnTimedOut, Game.PolicyPlayed))
        and move is not None
        and _has_secrets(ruleset.commands, move.get("type"))
    ):
        command = ruleset.parse_move(move)
        data["move"] = {"type": command.TYPE, **command.visible_data(stored.seat, viewer)}
    if isinstance(stored, Game.Forked) and not viewer.omniscient:
        data["state"] = data["state_hash"] = {"hidden": True}
    out.update(type=type(stored).__name__, source="platform", data=data)
    return out


def _rule_event_data(ruleset: Any, stored: Any, viewer: Viewer) -> dict[str, Any]:
    """An event without secret fields (most of them) is shown as stored, without decoding it;
    one with secrets goes through its class's own redaction."""
    if not viewer.omniscient and _has_secrets(ruleset.events, stored.KIND):
        return ruleset.load_event(stored.KIND, stored.data).visible_data(viewer)  # type: ignore[no-any-return]
    return dict(stored.data)


def _has_secrets(codec: Any, kind: Any) -> bool:
    """Whether records of this type may need redacting: secret fields, or their own rule."""
    cls = codec.by_type.get(kind)
    if cls is None:
        return True
    base = Event if issubclass(cls, Event) else Command
    return bool(cls.SECRET) or cls.visible_data is not base.visible_data
