"""The account events the inbox projection writes to the players' feeds (``services.accounts.account_feed``).

Every account seated in a game (not a server bot, not in a sandbox) learns that the game started,
that a seat timed out and that the game ended; and a ``your_turn`` for each of its seats awaited
after a decision and not before it. Each entry holds only facts every seat may know, and each is a
function of the game's events alone: a projection fed other batches, restarted or rebuilt tells
the same entries, under the same dedupe keys, so the feed keeps each once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from projections.event_keys import game_of
from projections.game_memory import GameMemory
from services.accounts.account_feed import Entry
from services.accounts.players import SERVER_BOT_PREFIX
from services.deadlines import clocks
from services.play.aggregate import Game


@dataclass
class Notices:
    """The account events of a batch of events, and the games it ended."""

    entries: list[Entry] = field(default_factory=list)
    ended: set[str] = field(default_factory=set)
    turns: dict[str, list[Entry]] = field(default_factory=dict)
    """Each game's ``your_turn`` entries whose ``version`` waits for the rest of their save: a
    bank clock's ``ClockSettled`` comes after the decision, and a client plays at the save's version
    (a batch that ends between the two tells the decision's version: rare, and under the same key)."""

    def saved_at(self, gid: str, version: int) -> None:
        """A later event of the save that began the game's turns: they begin at its version."""
        for entry in self.turns.get(gid, ()):
            entry.payload["version"] = version

    def settle(self, gid: str | None = None) -> None:
        """Moves the game's turns (every game's, with None) to the entries: their save is over."""
        for game in [gid] if gid is not None else list(self.turns):
            self.entries += self.turns.pop(game, [])


def tell_seats(
    memory: GameMemory, notices: Notices, e: Game.Event, kind: str, facts: dict[str, Any], skip: str | None = None
) -> None:
    """A ``kind`` account event for every account seated in the game but ``skip`` (who did what
    it tells): facts every seat may know."""
    gid = game_of(e)
    meta = memory.game_meta(gid)
    if meta.get("sandbox"):
        return
    version = e.originator_version
    for s in memory.seats_of(gid):
        pid = s["player_id"]
        if pid.startswith(SERVER_BOT_PREFIX) or pid == skip:
            continue
        payload = {"game": meta["game"], "variant": meta["variant"], "seat": s["seat"], "version": version, **facts}
        notices.entries.append(Entry(pid, kind, f"{kind}:{gid}:{version}:{s['seat']}", gid, payload))


def announce_turns(memory: GameMemory, notices: Notices, e: Game.RuleEvent, before: list[int]) -> None:
    """At the event that closed a decision, a ``your_turn`` for each account seat awaited after it
    and not before it: one per turn, whatever the batches the events come in, keyed by that event's
    version (its ``version`` the save's, ``Notices.saved_at``)."""
    gid = game_of(e)
    notices.settle(gid)
    meta = memory.game_meta(gid)
    if meta.get("sandbox"):
        return
    held = memory.clock_of(gid)
    seats = {s["seat"]: s for s in memory.seats_of(gid)}
    version = e.originator_version
    for seat in sorted(set(held["awaiting"]) - set(before)):
        pid = seats.get(seat, {}).get("player_id")
        if pid is None or pid.startswith(SERVER_BOT_PREFIX):
            continue
        payload = {
            "game": meta["game"],
            "variant": meta["variant"],
            "seat": seat,
            "version": version,
            "deadline": _deadline(memory, gid, seat),
            "turn_started": held["turns"].get(str(seat)),
        }
        notices.turns.setdefault(gid, []).append(
            Entry(pid, "your_turn", f"your_turn:{gid}:{version}:{seat}", gid, payload)
        )


def _deadline(memory: GameMemory, gid: str, seat: int) -> str | None:
    """When the seat's turn times out, before vacation days (which only push it later): the
    feed pushes it by the player's vacation days when it is read (``AccountFeed.since``)."""
    held = memory.clock_of(gid)
    due = clocks.deadline(memory.game_meta(gid)["tc"], held["turns"].get(str(seat)), held["banks"].get(str(seat)))
    return due.isoformat() if due else None
