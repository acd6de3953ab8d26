"""Telling one record to one reader, as the log does: for the games' worked examples of their words."""

from __future__ import annotations

from typing import Any

from domain.kernel import Codec, Viewer
from domain.kernel.narration import Audience, Names

PLAYERS = [{"seat": 0, "name": "ann"}, {"seat": 1, "name": "Bruno"}, {"seat": 2, "name": "cai"}]


def audience(ruleset: Any, variant: str, seats: int = 2, reader: int | None = 0) -> Audience:
    """The words of ``reader``'s seat (a spectator for None): ann in seat 0, Bruno in seat 1."""
    config = ruleset.configure(variant, None, seats)
    names = Names.of(PLAYERS[:seats], ruleset.seat_colours(config), [] if reader is None else [reader])
    return Audience(names, variant)


def told(ruleset: Any, event: Any, heard: Audience, reader: int | None = 0) -> str:
    """``event`` told to ``reader`` as it may see it."""
    viewer = Viewer.spectator() if reader is None else Viewer.of(reader)
    return str(ruleset.narrator.event(event.TYPE, event.visible_data(viewer), heard))


def phrase(ruleset: Any, move: Any, heard: Audience, seat: int, reader: int | None = 0) -> str:
    """``move`` by ``seat`` in words, as ``reader`` may see it."""
    viewer = Viewer.spectator() if reader is None else Viewer.of(reader)
    return str(ruleset.narrator.move({"type": move.TYPE, **move.visible_data(seat, viewer)}, heard, seat))


def choices(ruleset: Any, move: Any, heard: Audience, seat: int) -> list[tuple[str, str]]:
    """``move`` by ``seat`` as the move controls ask it of that seat: each question and its answer."""
    return list(ruleset.narrator.choices(Codec.dump(move), heard, seat))
