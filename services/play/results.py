"""What a decision's answer holds: the new version and its events, as the caller may see them."""

from __future__ import annotations

from typing import Any

from domain.kernel import Viewer
from services.common.event_store import EventStore
from services.play.aggregate import Game
from services.reads.redaction import redact_stored_event

CAUSES = (Game.MoveMade, Game.Resigned, Game.TurnTimedOut, Game.PolicyPlayed, Game.Joined)
"""The platform events that open a decision (``services.reads.steps.CAUSES`` by name)."""


def move_result(game: Game, events: list[Any], viewer: Viewer) -> dict[str, Any]:
    """``{version, events}`` of the events just saved (none: the game's version)."""
    shown = [redact_stored_event(game.ruleset, e, viewer) for e in events]
    return {"version": events[-1].originator_version if events else game.version, "events": shown}


def decision_result(store: EventStore, game: Game, first: int, viewer: Viewer) -> dict[str, Any]:
    """``{version, events, replayed}`` of the decision recorded from version ``first``: the
    answer a repeated ``command_id`` gets."""
    events = []
    for stored in store.stored_events(game.id, after=first - 1):
        if stored.originator_version > first and isinstance(stored, CAUSES):
            break
        events.append(stored)
    return {**move_result(game, events, viewer), "replayed": True}
