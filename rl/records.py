"""A finished server game as the environments replay it: its table, its seed and its decisions.

A game record (``GET /api/v1/games/{id}/record``, ``docs/api.md``) holds everything the server drew
and decided: the header (game, variant, options, seats) with the seed revealed once the game ended,
and the events. The server draws a game's opening from ``Rng(seed, "setup")`` and the decision a
``MoveMade`` event at version ``V`` records from ``Rng(seed, f"v{V - 1}")``: the version the game
stood at when it was taken. An environment's decision ``k`` is the ``k``-th ``MoveMade`` of the
record; ``Decision.version`` says which server version it was, ``Decision.stream`` which draws it
used. ``env(..., from_record=record)`` replays them exactly (``rl.pettingzoo_env``).

Only games whose every decision is a move are read: a resignation, a timeout or a joining player
(``Resigned``, ``TurnTimedOut``, ``PolicyPlayed``, ``Joined``, ``Forked``) has no action in the
environments, and ``read`` refuses such a record with a ``ValueError`` that names the event.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from domain.kernel import Command, Ruleset
from rl.specs import game

UNSUPPORTED = ("Resigned", "TurnTimedOut", "PolicyPlayed", "Joined", "Forked")


@dataclass(frozen=True)
class Decision:
    """One recorded decision: the seat, its command, the server version of its ``MoveMade`` event
    and the stream its chance was drawn from."""

    seat: int
    command: Command
    version: int
    stream: str


@dataclass(frozen=True)
class Recorded:
    """A finished server game, as the environments rebuild it."""

    ruleset: Ruleset[Any]
    variant: str
    options: Mapping[str, Any]
    players: int
    seed: bytes
    decisions: tuple[Decision, ...]
    outcome: Mapping[str, Any] | None


def read(record: Mapping[str, Any]) -> Recorded:
    """The table, seed and decisions of a record of a finished game."""
    header = record["header"]
    if not header.get("seed"):
        raise ValueError("the record has no seed: the server reveals it only once the game has ended")
    ruleset = game(header["game"])
    decisions = []
    for event in record["events"]:
        if event["type"] in UNSUPPORTED:
            raise ValueError(f"version {event['version']}: a {event['type']} has no action in the environments")
        if event["type"] == "MoveMade":
            data = event["data"]
            command = ruleset.parse_move(data["move"])
            decisions.append(Decision(int(data["seat"]), command, int(event["version"]), f"v{event['version'] - 1}"))
    return Recorded(
        ruleset,
        header["variant"],
        dict(header.get("options") or {}),
        len(header["seats"]),
        bytes.fromhex(header["seed"]),
        tuple(decisions),
        header.get("outcome"),
    )
