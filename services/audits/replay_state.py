"""The verifier's replay of a record: what it has established so far, and the check that the rule
events following a decision are exactly those the rules produce (``services.audits.record_replay``
walks the events with them).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from domain.kernel import state_hash
from services.audits.replay_text import Mismatch, differs, short
from services.deadlines import clocks


@dataclass
class Step:
    version: int
    actor: str
    summary: str
    ok: bool = True
    problem: str | None = None
    rules: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "actor": self.actor,
            "summary": self.summary,
            "ok": self.ok,
            "problem": self.problem,
            "rules": self.rules,
        }


@dataclass
class Replay:
    """The verifier's walk through the events, and the facts it has established."""

    events: list[dict[str, Any]]
    seed: bytes
    ruleset: Any
    state: Any = None
    created: dict[str, Any] = field(default_factory=dict)
    created_at: str | None = None
    status: str = "open"
    started_at: str | None = None
    finished_at: str | None = None
    outcome: dict[str, Any] | None = None
    revealed_seed: str | None = None
    seats: list[dict[str, Any]] = field(default_factory=list)
    taken_at: dict[int, int] = field(default_factory=dict)
    left: list[int] = field(default_factory=list)
    banks: dict[str, float] = field(default_factory=dict)
    turns: dict[str, str] = field(default_factory=dict)
    unsettled: dict[str, list[str]] = field(default_factory=dict)
    timed_out: set[tuple[int, str]] = field(default_factory=set)
    flagged: bool = False
    """Whether rule events say which one closes its decision (else the game predates it)."""
    chain: int | None = None
    """The seat whose timed-out turn the policy must go on playing with the next decision."""
    over: bool = False
    i: int = 0
    ended: bool = False

    @property
    def tc(self) -> dict[str, Any]:
        return dict(self.created.get("time_control") or {"kind": "none"})


def expect(r: Replay, expected: list[Any], step: Step) -> None:
    """The recorded rule events that follow must be exactly ``expected``, state hash by state
    hash; the last closes the decision, where turns start and end."""
    engine = r.created.get("engine")
    last = len(expected) - 1
    for n, e in enumerate(expected):
        if r.i >= len(r.events):
            raise Mismatch(f"the rules produce {e.TYPE} after version {len(r.events)}, which the record lacks")
        got = r.events[r.i]
        if got.get("source") != "rules":
            raise Mismatch(
                f"version {got.get('version')}: the rules produce {e.TYPE} here, but the record has "
                f"{short(got.get('source'))} event {short(got.get('type'))}"
            )
        version = got.get("version")
        if got.get("type") != e.TYPE or got.get("data") != e.data():
            raise Mismatch(differs(version, got, e.TYPE, e.data()))
        r.state = r.ruleset.evolve(r.state, e)
        if got.get("state_hash") != state_hash(r.state):
            raise Mismatch(f"version {version}: the state hash does not match the re-folded state")
        if got.get("awaiting") != list(r.ruleset.awaiting(r.state)):
            raise Mismatch(f"version {version}: the awaited seats differ from the rules'")
        if got.get("engine", engine) != engine:
            raise Mismatch(f"version {version}: engine {got.get('engine')!r} is not the game's {engine!r}")
        _closing_flag(r, got, n == last)
        if clocks.closes_decision(got):
            boundary(r, got["awaiting"], str(got.get("at")))
        step.rules.append(e.rule().id)
        r.i += 1
    if r.i < len(r.events) and r.events[r.i].get("source") == "rules":
        extra = r.events[r.i]
        raise Mismatch(f"version {extra.get('version')}: {extra.get('type')} was not produced by the decision")
    r.over = r.status == "active" and r.ruleset.outcome(r.state) is not None


def _closing_flag(r: Replay, got: dict[str, Any], last: bool) -> None:
    """Rule events recorded since turns close at decisions say which one closes its decision."""
    if "closes" not in got:
        if r.flagged:
            raise Mismatch(f"version {got.get('version')}: it does not say whether it closes its decision")
        return
    r.flagged = True
    if got["closes"] is not last:
        raise Mismatch(
            f"version {got.get('version')}: closes={got['closes']}, but it is "
            f"{'the last' if last else 'not the last'} event of its decision"
        )


def boundary(r: Replay, awaiting: list[int], at: str) -> None:
    """A decision boundary: turns start and end as the server's ``Game.note_awaiting`` moves them."""
    clocks.parse(at)
    r.turns, ended = clocks.turns_after(r.turns, awaiting, at)
    if ended and r.tc.get("kind") == "bank" and r.status == "active":
        r.unsettled = {**r.unsettled, **{s: [t, at] for s, t in ended.items()}}
