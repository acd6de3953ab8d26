"""A game's events grouped decision by decision: the listing behind steps, records and audits.

A *step* is one decision and what it caused: the platform event that says who did
what (a move, a resignation, a timeout, a decision the timeout policy played...)
followed by the rule events it produced, each citing its rule. Pure functions of
the exported events, so that ``dragonhall verify`` derives the same listing
offline and checks a record's ``decisions`` against it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

Cite = Callable[[Any, Mapping[str, Any]], Any]
"""The rule (a ``RuleRef``) an event of a class applies, given its data."""


def cited(cls: Any, data: Mapping[str, Any]) -> Any:
    """The rule the event applies (``Event.rule_for``: by its data where the rule depends on it)."""
    return cls.rule_for(data)


def cited_by_type(cls: Any, data: Mapping[str, Any]) -> Any:
    """The rule of the event's type alone, as records made before 2026-12-01 cite it (a race's end
    cited the finish line whatever ended the race): ``dragonhall verify`` still reads them."""
    return cls.RULE


CAUSES = ("MoveMade", "Resigned", "TurnTimedOut", "PolicyPlayed", "Joined")
"""Platform events that are decisions of a seat, each followed by the rule events it produced."""
SEATINGS = ("SeatTaken", "SeatGivenUp")
"""A seat taken or given up before the start: a step of its own, by the player it names."""
STEP_STARTS = ("Created", *SEATINGS, "Started", "Forked", *CAUSES, "Abandoned")
DECISION_FIELDS = {
    "MoveMade": ("seat", "move", "command_id"),
    "Resigned": ("seat",),
    "TurnTimedOut": ("seat", "deadline", "policy", "applied", "move"),
    "PolicyPlayed": ("seat", "applied", "move"),
    "Joined": ("seat",),
    "SeatTaken": ("seat", "bot"),
    "SeatGivenUp": ("seat", "bot"),
}
"""The fields of each kind of decision that its step shows."""
POLICY_ACTS = ("TurnTimedOut", "PolicyPlayed")
"""Decisions the game's timeout policy took for a seat."""


def steps(events: list[dict[str, Any]], ruleset: Any, cite: Cite = cited) -> list[dict[str, Any]]:
    """The events grouped by the decision that caused them, each rule event with its citation."""
    out: list[dict[str, Any]] = []
    for e in events:
        if not out or e["type"] in STEP_STARTS:
            out.append(
                {
                    "step": len(out) + 1,
                    "version": e["version"],
                    "until": e["version"],
                    "at": e["at"],
                    "decision": {"type": e["type"], **decision_fields(e)},
                    "rules": [],
                    "events": [],
                }
            )
        step = out[-1]
        step["until"] = e["version"]
        step["events"].append(e)
        if e["source"] == "rules":
            cls = ruleset.events.by_type.get(e["type"])
            rule = cite(cls, e["data"]).to_json() if cls is not None else None
            if rule is not None and rule not in step["rules"]:
                step["rules"].append(rule)
    return out


def decisions(
    events: list[dict[str, Any]], ruleset: Any, seats: Sequence[dict[str, Any]], cite: Cite = cited
) -> list[dict[str, Any]]:
    """Each decision with its actor and time, and the versions of the events it caused;
    ``seats`` are the game's seats, which name the player behind a seat the policy played for."""
    return [
        {
            "step": s["step"],
            "version": s["version"],
            "until": s["until"],
            "at": s["at"],
            "actor": actor(s["events"][0], seats),
            "decision": s["decision"],
            "rules": [r["id"] for r in s["rules"]],
        }
        for s in steps(events, ruleset, cite)
    ]


def actor(event: dict[str, Any], seats: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Who took a step's decision: the creator, a seat, the timeout policy for a seat, or the system."""
    data = event["data"]
    kind = event["type"]
    if kind == "Created":
        return {"kind": "creator", "player_id": data.get("creator")}
    if kind in (*CAUSES, *SEATINGS) and "seat" in data:
        seat = data["seat"]
        info = next((s for s in seats if s["seat"] == seat), None)
        who = data.get("player_id") or (info or {}).get("player_id")
        return {"kind": "timeout" if kind in POLICY_ACTS else "seat", "seat": seat, "player_id": who}
    return {"kind": "system"}


def decision_fields(event: dict[str, Any]) -> dict[str, Any]:
    data = event["data"]
    return {k: data.get(k) for k in DECISION_FIELDS.get(event["type"], ())}
