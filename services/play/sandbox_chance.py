"""Which chance a sandbox draws from: its game's own, once that game has ended, or one of its own.

A sandbox (``services.audits.disputes``) is a game of its own, forked from another game's state at one
version. With a seed of its own, replaying the game's recorded decisions in it rolled other dice
(Tarasque's first roll differed and 1 of 156 decisions was accepted), and "what if I had played X"
was answered with chance the game never had. So a sandbox of an **ended** game draws from that
game's revealed seed, on the streams the game's own decisions drew from at the same place:
replaying the recorded decisions reproduces the recorded events exactly. A sandbox of a game that
has not ended (none is forked today) or of another sandbox keeps a seed of its own, so it can never
foretell the real dice; its ``sandbox_of`` says which (``chance``).

Every decision of a game draws from ``Rng(seed, f"v{version}")``, the version before it. In a
sandbox, version 2 (``FORKED_AT``, its ``Forked`` event) stands where the game stood at
``sandbox_of["version"]``, and each later event of the sandbox stands where the game's next event
did, except the game's ``ClockSettled`` events (a bank's charge, which a sandbox without a clock
never writes): their versions are kept in ``sandbox_of["settled"]``, and ``label`` steps over them.
The verifier of records uses the same ``label``, so a sandbox's record verifies from its own events.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

FORKED_AT = 2
"""The version of a sandbox's ``Forked`` event (after its ``Created``)."""
GAME = "game"
"""``sandbox_of["chance"]`` of a sandbox drawing from its game's revealed seed."""
OWN = "own"
"""``sandbox_of["chance"]`` of a sandbox with a seed of its own (also every sandbox before this rule)."""


def chance(sandbox_of: Mapping[str, Any] | None) -> str | None:
    """``GAME`` or ``OWN`` for a sandbox, None for a game that is no sandbox."""
    if not sandbox_of:
        return None
    return GAME if sandbox_of.get("chance") == GAME else OWN


def seed_game(sandbox_of: Mapping[str, Any] | None) -> str | None:
    """The id of the game whose seed a sandbox draws from, when it is not its own."""
    return str(sandbox_of["game_id"]) if chance(sandbox_of) == GAME and sandbox_of else None


def terms(game_id: str, version: int, dispute_id: str, ended: bool, settled: Iterable[int]) -> dict[str, Any]:
    """The ``sandbox_of`` of a sandbox forked at ``version`` of ``game_id``: the game's chance
    when it has ended (``settled``: the versions of its ``ClockSettled`` events after ``version``)."""
    out: dict[str, Any] = {"game_id": game_id, "version": version, "dispute_id": dispute_id}
    if ended:
        return {**out, "chance": GAME, "settled": sorted(v for v in settled if v > version)}
    return {**out, "chance": OWN}


def label(version: int, sandbox_of: Mapping[str, Any] | None) -> str:
    """The stream of the decision taken at ``version`` (the version before it)."""
    if chance(sandbox_of) != GAME or sandbox_of is None or version < FORKED_AT:
        return f"v{version}"
    settled = list(sandbox_of.get("settled", ()))
    at = int(sandbox_of["version"]) + version - FORKED_AT
    i = 0
    while i < len(settled) and settled[i] <= at:  # each charge before this place moves it one on
        at += 1
        i += 1
    while i < len(settled) and settled[i] == at + 1:  # charges written just before the decision
        at += 1
        i += 1
    return f"v{at}"
