"""A finished server game as the environments replay it: its table, its seed and its decisions.

A game record (``GET /api/v1/games/{id}/record``, ``docs/api.md``) holds everything the server drew
and decided: the header (game, variant, options, seats) with the seed revealed once the game ended,
and the events. The server draws a game's opening from ``Rng(seed, "setup")`` and the decision a
``MoveMade`` event at version ``V`` records from ``Rng(seed, f"v{V - 1}")``: the version the game
stood at when it was taken. An environment's decision ``k`` is the ``k``-th ``MoveMade`` of the
record; ``Decision.version`` says which server version it was, ``Decision.stream`` which draws it
used. ``env(..., from_record=record)`` replays them exactly (``rl.pettingzoo_env``).

A seat's time running out is a decision too, taken by the game's timeout policy (``TurnTimedOut``,
then ``PolicyPlayed`` for each further decision of the turn): under ``auto`` a stand-in bot's move,
read as the seat's move; under ``skip`` a decision lost where the rules allow (``Decision.how`` is
``"skip"``); under ``forfeit`` the seat leaves, as a ``Resigned`` seat does (``"leave"``). Each draws
from the same stream as a move would. A newcomer joining a running game (``Joined``) is a decision
too (``"join"``): the game starts with ``Recorded.players`` seats and ends with ``Recorded.seats``. A
sandbox's record starts from another game's position (``Forked``), which no environment can draw, and
``read`` refuses it with a ``ValueError`` that names the event.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from domain.kernel import Command, Ruleset
from rl.match import Lost, Without
from rl.specs import game

UNSUPPORTED = ("Forked",)
TIMED = ("TurnTimedOut", "PolicyPlayed")
LOST: dict[str, Lost] = {"skip": "skip", "forfeit": "leave"}
"""What a timed-out decision's ``applied`` policy did, when it played no move."""


@dataclass(frozen=True)
class Decision:
    """One recorded decision: the seat, its command, the server version of its event (``MoveMade``,
    or a timed-out turn's, or ``Resigned``) and the stream its chance was drawn from. ``how`` is
    ``"move"`` (``command`` played), ``"skip"`` (the decision lost to a timeout, ``ruleset.skip``),
    ``"leave"`` (the seat resigned or forfeited, ``ruleset.leave``) or ``"join"`` (a newcomer took
    ``seat``, the next, ``ruleset.join``); ``command`` is None for these."""

    seat: int
    command: Command | None
    version: int
    stream: str
    how: Literal["move"] | Without = "move"

    @property
    def taken(self) -> Command | Without:
        """What the seat decided: its command, or how it decided without one."""
        if self.command is not None:
            return self.command
        assert self.how != "move"
        return self.how


@dataclass(frozen=True)
class Recorded:
    """A finished server game, as the environments rebuild it: ``players`` seats at its start,
    ``seats`` at its end (more where newcomers joined)."""

    ruleset: Ruleset[Any]
    variant: str
    options: Mapping[str, Any]
    players: int
    seed: bytes
    decisions: tuple[Decision, ...]
    outcome: Mapping[str, Any] | None
    seats: int


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
        decision = _decision(ruleset, event)
        if decision is not None:
            decisions.append(decision)
    seats = len(header["seats"])
    return Recorded(
        ruleset,
        header["variant"],
        dict(header.get("options") or {}),
        seats - sum(d.how == "join" for d in decisions),
        bytes.fromhex(header["seed"]),
        tuple(decisions),
        header.get("outcome"),
        seats,
    )


def _decision(ruleset: Ruleset[Any], event: Mapping[str, Any]) -> Decision | None:
    """The decision an event records, or None for an event that records none."""
    kind, data, version = event["type"], event["data"], int(event["version"])
    if kind not in ("MoveMade", "Resigned", "Joined", *TIMED):
        return None
    seat, stream = int(data["seat"]), f"v{version - 1}"
    if kind == "Joined":
        return Decision(seat, None, version, stream, "join")
    if kind == "Resigned":
        return Decision(seat, None, version, stream, "leave")
    if kind in TIMED and data["applied"] in LOST:
        return Decision(seat, None, version, stream, LOST[data["applied"]])
    return Decision(seat, ruleset.parse_move(data["move"]), version, stream)
