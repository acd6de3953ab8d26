"""The platform's own events in words: seats taken and given up, starts, clocks, timeouts, resignations, ends.

The games tell their rule events (``domain/<game>/narration.py``); this module tells the events
the platform records around them, from the same redacted data ``GET /events`` answers, and says
how a game ended in the words of what ended it: a resignation is told as one, not as the rule
that ended the game after it ("last dragon flying").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from domain.kernel.narration import Audience, Narrator
from domain.kernel.wording import chose, counted, listing, sentence, upper_first
from services.accounts.players import SERVER_BOT_PREFIX

Data = Mapping[str, Any]

POLICY_WORDS = {
    "auto": "the server plays for a player whose time runs out",
    "skip": "a player whose time runs out loses the decision where the rules allow it",
    "forfeit": "a player whose time runs out leaves the game",
}


def duration(seconds: float) -> str:
    """A span of time in words: "20 seconds", "3 minutes", "2 hours 30 minutes", "3 days"."""
    s = round(seconds)
    if s < 120:
        return counted(s, "second")
    if s < 7200:
        return counted(round(s / 60), "minute")
    if s < 3 * 86400:
        hours, minutes = divmod(round(s / 60), 60)
        return counted(hours, "hour") + (f" {counted(minutes, 'minute')}" if minutes else "")
    return counted(round(s / 86400), "day")


def clock_words(tc: Mapping[str, Any]) -> str:
    """A time control in words, "" for none."""
    kind = tc.get("kind", "none")
    if kind == "per_move":
        said = f"each turn has {duration(float(tc['seconds']))}"
    elif kind == "bank":
        said = f"each player has {duration(float(tc['initial']))} in the bank"
        if float(tc.get("increment") or 0):
            said += f", plus {duration(float(tc['increment']))} a turn"
    else:
        return ""
    policy = POLICY_WORDS.get(str(tc.get("timeout_policy", "auto")))
    return f"{said}; {policy}" if policy else said


class PlatformWords:
    """Sentences for the platform's events, for one viewer of one game."""

    def __init__(
        self,
        narrator: Narrator,
        audience: Audience,
        time_control: Mapping[str, Any],
        holder: Callable[[Data], str] | None = None,
    ) -> None:
        self.narrator = narrator
        self.audience = audience
        self.names = audience.names
        self.time_control = time_control
        self.holder = holder or (lambda d: self.names.full(d["seat"]))
        """Who a seat's event names (``services.reads.seat_names.seat_holder``)."""
        self.told: dict[str, Callable[[Data], str]] = {
            "Created": self.created,
            "SeatTaken": lambda d: f"{self.holder(d)} took a seat",
            "SeatGivenUp": self.given_up,
            "Started": self.started,
            "MoveMade": lambda d: f"{self.names(d['seat'])} {chose(self.move(d))}",
            "Resigned": lambda d: f"{self.names(d['seat'])} resigned",
            "TurnTimedOut": self.timed_out,
            "PolicyPlayed": self.policy_played,
            "ClockSettled": self.clock_settled,
            "Joined": lambda d: f"{self.names.full(d['seat'])} joined the game",
            "Forked": lambda d: "The game started from a position of another game",
            "Finished": lambda d: "The game ended",
            "Abandoned": lambda d: f"The game was abandoned: {d.get('reason') or 'its seats were not filled'}",
        }

    def given_up(self, data: Data) -> str:
        """A seat given up: its player left, or the creator took off a server bot."""
        server_bot = bool(data.get("bot")) and str(data.get("player_id", "")).startswith(SERVER_BOT_PREFIX)
        return f"{self.holder(data)} {'was taken off' if server_bot else 'left'} the table"

    def event(self, kind: str, data: Data) -> str:
        told = self.told.get(kind)
        return sentence(told(data) if told else upper_first(kind.lower()))

    def move(self, data: Data) -> str:
        move = data.get("move")
        return self.narrator.move(move, self.audience, data["seat"]) if move else "play"

    def created(self, data: Data) -> str:
        said = f"The table was opened for {counted(int(data.get('seats') or 0), 'player')}"
        clock = clock_words(data.get("time_control") or {})
        return f"{said}; {clock}" if clock else said

    def started(self, data: Data) -> str:
        """The start, with who plays which colour: a table started early with a seat left empty
        numbers its seats anew, and a colour named before the start may change then."""
        seated = listing(self.names.full(int(s["seat"]), start=False) for s in data.get("seats") or [])
        clock = clock_words(self.time_control) or "no clock"
        return f"The game started: {seated}; {clock}" if data.get("seats") else f"The game started: {clock}"

    def timed_out(self, data: Data) -> str:
        seat = data["seat"]
        ran_out = f"{self.names(seat)} ran out of time"
        return f"{ran_out}; {self.stood_in(data)}"

    def policy_played(self, data: Data) -> str:
        return upper_first(self.stood_in(data).replace("the server played", "the server also played"))

    def stood_in(self, data: Data) -> str:
        """What the timeout policy did for the seat."""
        seat, applied = data["seat"], data.get("applied")
        whom = self.names.object(seat)
        if applied == "forfeit":
            return f"{whom} left the game"
        if applied == "skip":
            return f"{self.names.possessive(seat)} decision was skipped"
        return f"the server played '{self.move(data)}' for {whom}"

    def clock_settled(self, data: Data) -> str:
        banks = data.get("banks") or {}
        seats = sorted(banks, key=int)
        left = [f"{self.names.object(int(s))} {duration(float(banks[s]))}" for s in seats]
        return f"Time left in the bank: {listing(left)}" if left else "The clocks were settled"

    def decision(self, kind: str, data: Data) -> str:
        """The decision a step opens with, as a short title: "Bruno: set aside two reds"."""
        if kind == "MoveMade":
            return f"{self.names(data['seat'])}: {self.move(data)}"
        return self.event(kind, data).rstrip(".")

    def result(self, outcome: Mapping[str, Any], ended_by: tuple[str, Data] | None) -> str:
        """How the game ended, with the reason told by what ended it: a resignation, a forfeit."""
        why = None
        if ended_by is not None:
            kind, data = ended_by
            seat = data.get("seat")
            if kind == "Resigned" and seat is not None:
                why = f"{self.names.object(seat)} resigned"
            elif kind in ("TurnTimedOut", "PolicyPlayed") and data.get("applied") == "forfeit" and seat is not None:
                why = f"{self.names.object(seat)} ran out of time and left the game"
        return self.narrator.outcome(outcome, self.audience, why)
