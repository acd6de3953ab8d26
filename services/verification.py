"""Verifying a game's history from the record alone: no server, no database.

Given the events of a game and its revealed seed, the verifier replays the game
with the game's own rules and proves three things:

1. re-deciding every recorded decision from the start, with the generator of its
   version, produces exactly the recorded events (so no move was illegal and no
   event was invented, dropped or edited);
2. the state hash recorded with each rule event matches the state re-folded up to
   it;
3. every shuffle and roll re-derives from the revealed seed (they are events that
   check 1 re-derives), and the seed's SHA-256 is the commitment published when
   the game was created.

It stops at the first step that fails and names it, with the rule that refused
the decision where there is one.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

from domain.kernel import ConfigError, Rng, RuleError, decode, find_game, state_hash

CAUSES = ("MoveMade", "Resigned", "TurnTimedOut", "PolicyPlayed", "Joined")


class Mismatch(Exception):
    """A step of the record that the rules do not reproduce."""


@dataclass
class Step:
    version: int
    actor: str
    summary: str
    ok: bool = True
    problem: str | None = None
    rules: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"version": self.version, "actor": self.actor, "summary": self.summary, "ok": self.ok,
                "problem": self.problem, "rules": self.rules}


@dataclass
class Replay:
    """The verifier's walk through the events."""

    header: dict[str, Any]
    events: list[dict[str, Any]]
    seed: bytes | None
    ruleset: Any = None
    state: Any = None
    seats: list[dict[str, Any]] = field(default_factory=list)
    taken: list[dict[str, Any]] = field(default_factory=list)
    banks: dict[str, float] = field(default_factory=dict)
    left: list[int] = field(default_factory=list)
    chain: int | None = None
    i: int = 0
    ended: bool = False


def verify_record(record: dict[str, Any]) -> dict[str, Any]:
    """Verifies an exported record; the report has ``ok``, ``verdict``, ``checks`` and ``steps``."""
    header = record.get("header") or {}
    seed_hex = header.get("seed")
    try:
        seed = bytes.fromhex(seed_hex) if seed_hex else None
    except ValueError:
        seed = None
    return verify(header, list(record.get("events") or []), seed)


def verify(header: dict[str, Any], events: list[dict[str, Any]], seed: bytes | None) -> dict[str, Any]:
    """Verifies ``events`` (their full form) under ``header`` with ``seed``."""
    steps: list[Step] = []
    checks = {"decisions_reproduced": False, "state_hashes_match": False, "seed_matches_commitment": False}
    problem = _preflight(header, events, seed, checks)
    if problem is not None:
        steps.append(Step(0, "-", "record", ok=False, problem=problem))
        return _report(False, checks, steps, problem)
    replay = Replay(header, events, seed, ruleset=find_game(header["game"]))
    while replay.i < len(events):
        event = events[replay.i]
        step = Step(event.get("version", -1), _actor(event), _summary(event))
        steps.append(step)
        try:
            _step(replay, step)
        except (Mismatch, RuleError, ConfigError, KeyError, TypeError, ValueError) as e:
            step.ok = False
            step.problem = _explain(e)
            return _report(False, checks, steps, f"step at version {step.version} ({step.summary}): {step.problem}")
    if not replay.ended:
        steps.append(Step(len(events), "-", "end", ok=False, problem="the record does not end with the game's end"))
        return _report(False, checks, steps, "the game never ended in this record")
    checks["decisions_reproduced"] = checks["state_hashes_match"] = True
    return _report(True, checks, steps, None)


def _preflight(header: dict[str, Any], events: list[dict[str, Any]], seed: bytes | None,
               checks: dict[str, bool]) -> str | None:
    try:
        ruleset = find_game(str(header.get("game")))
    except ConfigError as e:
        return e.message
    if header.get("engine") != ruleset.engine_version:
        return (f"the game was recorded with engine {header.get('engine')!r} of {ruleset.slug}; "
                f"this verifier runs engine {ruleset.engine_version!r}")
    if seed is None:
        return "the record holds no revealed seed"
    if hashlib.sha256(seed).hexdigest() != header.get("seed_commitment"):
        return "the revealed seed does not hash to the commitment published at creation"
    checks["seed_matches_commitment"] = True
    versions = [e.get("version") for e in events]
    if versions != list(range(1, len(events) + 1)):
        return "the events are not numbered 1, 2, 3, ... without gaps"
    return None


def _step(r: Replay, step: Step) -> None:
    event = r.events[r.i]
    kind, data = event.get("type"), event.get("data") or {}
    if r.ended:
        raise Mismatch("an event follows the end of the game")
    if event.get("source") == "rules":
        raise Mismatch(f"rule event {kind} was produced by no decision")
    r.i += 1
    if kind != "PolicyPlayed" and kind != "ClockSettled":
        r.chain = None
    handler = _HANDLERS.get(kind)
    if handler is None:
        raise Mismatch(f"unknown event type {kind!r}")
    handler(r, data, step, event)


def _created(r: Replay, data: dict[str, Any], step: Step, event: dict[str, Any]) -> None:
    for key in ("game", "variant", "options", "seed_commitment"):
        if data.get(key) != r.header.get(key):
            raise Mismatch(f"the creation's {key} differs from the record's header")
    if data.get("seats") != r.header.get("planned_seats"):
        raise Mismatch("the creation's seat count differs from the record's header")


def _seat_taken(r: Replay, data: dict[str, Any], step: Step, event: dict[str, Any]) -> None:
    if any(s["seat"] == data["seat"] for s in r.taken) or not 0 <= data["seat"] < r.header["planned_seats"]:
        raise Mismatch(f"seat {data['seat']} cannot be taken")
    r.taken.append({k: data[k] for k in ("seat", "player_id", "name", "kind", "bot")})


def _started(r: Replay, data: dict[str, Any], step: Step, event: dict[str, Any]) -> None:
    expected = [{**s, "seat": i} for i, s in enumerate(sorted(r.taken, key=lambda s: s["seat"]))]
    if data["seats"] != expected:
        raise Mismatch("the started seats are not the seats taken, in order")
    r.seats = data["seats"]
    config = r.ruleset.configure(r.header["variant"], r.header["options"], len(r.seats))
    r.state = r.ruleset.initial(config)
    tc = r.header.get("time_control") or {}
    if tc.get("kind") == "bank":
        r.banks = {str(s["seat"]): float(tc["initial"]) for s in r.seats}
    _expect(r, r.ruleset.setup(r.state, Rng(_seed(r), "setup")), step)


def _forked(r: Replay, data: dict[str, Any], step: Step, event: dict[str, Any]) -> None:
    """A sandbox's starting position is taken as recorded (the original game proves its own history)."""
    r.seats = data["seats"]
    r.state = decode(r.ruleset.state_type, data["state"])
    if data["state_hash"] != state_hash(r.state):
        raise Mismatch("the forked state does not match its hash")
    step.summary = f"forked from {r.header.get('sandbox_of')}"


def _move(r: Replay, data: dict[str, Any], step: Step, event: dict[str, Any]) -> None:
    seat = _holder(r, data)
    command = r.ruleset.parse_move(data["move"])
    _expect(r, r.ruleset.decide(r.state, seat, command, _rng(r, event)), step)


def _resigned(r: Replay, data: dict[str, Any], step: Step, event: dict[str, Any]) -> None:
    seat = _holder(r, data)
    _expect(r, r.ruleset.leave(r.state, seat, _rng(r, event)), step)
    r.left.append(seat)


def _timed_out(r: Replay, data: dict[str, Any], step: Step, event: dict[str, Any]) -> None:
    _policy_decision(r, data, step, event)
    r.chain = data["seat"]


def _policy_played(r: Replay, data: dict[str, Any], step: Step, event: dict[str, Any]) -> None:
    seat = data["seat"]
    if r.chain != seat or not _turn_goes_on(r, seat):
        raise Mismatch(f"PolicyPlayed for seat {seat} follows no TurnTimedOut of that seat whose turn goes on")
    _policy_decision(r, {**data, "policy": _policy(r)}, step, event)


def _policy(r: Replay) -> str:
    return str((r.header.get("time_control") or {}).get("timeout_policy", "auto"))


def _turn_goes_on(r: Replay, seat: int) -> bool:
    return seat in r.ruleset.awaiting(r.state) and seat not in r.left and r.ruleset.outcome(r.state) is None


def _policy_decision(r: Replay, data: dict[str, Any], step: Step, event: dict[str, Any]) -> None:
    seat, applied, rng = data["seat"], data["applied"], _rng(r, event)
    policy = _policy(r)
    if data["policy"] != policy or applied not in (policy, "auto"):
        raise Mismatch(f"policy {data['policy']!r} applied as {applied!r} is not the game's policy {policy!r}")
    if seat not in r.ruleset.awaiting(r.state):
        raise Mismatch(f"seat {seat} was not awaited, so it could not time out")
    if applied == "forfeit":
        events = r.ruleset.leave(r.state, seat, rng)
        r.left.append(seat)
    elif applied == "skip":
        events = r.ruleset.skip(r.state, seat, rng)
        if events is None:
            raise Mismatch("the rules do not let this decision be skipped")
    else:
        if policy == "skip" and r.ruleset.skip(r.state, seat, rng) is not None:
            raise Mismatch("the decision could have been skipped, as the game's policy says")
        events = r.ruleset.decide(r.state, seat, r.ruleset.parse_move(data["move"]), rng)
    _expect(r, events, step)


def _joined(r: Replay, data: dict[str, Any], step: Step, event: dict[str, Any]) -> None:
    r.seats = [*r.seats, {k: data[k] for k in ("seat", "player_id", "name", "kind", "bot")}]
    _expect(r, r.ruleset.join(r.state, _rng(r, event)), step)


def _clock_settled(r: Replay, data: dict[str, Any], step: Step, event: dict[str, Any]) -> None:
    tc = r.header.get("time_control") or {}
    for seat, used in data["used"].items():
        before = r.banks.get(seat, float(tc.get("initial", 0)))
        want = round(min(float(tc["cap"]), max(0.0, before - used) + float(tc["increment"])), 3)
        if data["banks"][seat] != want:
            raise Mismatch(f"seat {seat}'s bank should be {want} after using {used} s, not {data['banks'][seat]}")
        r.banks[seat] = want


def _finished(r: Replay, data: dict[str, Any], step: Step, event: dict[str, Any]) -> None:
    outcome = r.ruleset.outcome(r.state)
    if outcome is None:
        raise Mismatch("the game is recorded as finished, but the rules say it is not over")
    if data["outcome"] != outcome.to_json():
        raise Mismatch(f"the recorded outcome {data['outcome']} is not the rules' {outcome.to_json()}")
    if data["seed"] != r.header.get("seed"):
        raise Mismatch("the seed revealed at the end is not the record's seed")
    r.ended = True


def _abandoned(r: Replay, data: dict[str, Any], step: Step, event: dict[str, Any]) -> None:
    if data["seed"] != r.header.get("seed"):
        raise Mismatch("the seed revealed at the end is not the record's seed")
    r.ended = True


_HANDLERS = {
    "Created": _created, "SeatTaken": _seat_taken, "Started": _started, "MoveMade": _move,
    "Resigned": _resigned, "TurnTimedOut": _timed_out, "PolicyPlayed": _policy_played, "Joined": _joined,
    "ClockSettled": _clock_settled,
    "Forked": _forked,
    "Finished": _finished, "Abandoned": _abandoned,
}


def _expect(r: Replay, expected: list[Any], step: Step) -> None:
    """The recorded rule events that follow must be exactly ``expected``, state hash by state hash."""
    for e in expected:
        if r.i >= len(r.events) or r.events[r.i].get("source") != "rules":
            raise Mismatch(f"the rules produce {e.TYPE}, which the record lacks")
        got = r.events[r.i]
        want = {"type": e.TYPE, "data": e.data()}
        if got.get("type") != want["type"] or got.get("data") != want["data"]:
            raise Mismatch(f"version {got.get('version')}: recorded {got.get('type')} {_short(got.get('data'))}, "
                           f"but the rules produce {want['type']} {_short(want['data'])}")
        r.state = r.ruleset.evolve(r.state, e)
        if got.get("state_hash") != state_hash(r.state):
            raise Mismatch(f"version {got.get('version')}: the state hash does not match the re-folded state")
        if got.get("awaiting") != list(r.ruleset.awaiting(r.state)):
            raise Mismatch(f"version {got.get('version')}: the awaited seats differ from the rules'")
        step.rules.append(e.rule().id)
        r.i += 1
    if r.i < len(r.events) and r.events[r.i].get("source") == "rules":
        extra = r.events[r.i]
        raise Mismatch(f"version {extra.get('version')}: {extra.get('type')} was not produced by the decision")


def _holder(r: Replay, data: dict[str, Any]) -> int:
    seat = data["seat"]
    holders = {s["seat"]: s["player_id"] for s in r.seats}
    if holders.get(seat) != data["player_id"]:
        raise Mismatch(f"player {data['player_id']} does not hold seat {seat}")
    return int(seat)


def _rng(r: Replay, event: dict[str, Any]) -> Rng:
    return Rng(_seed(r), f"v{event['version'] - 1}")


def _seed(r: Replay) -> bytes:
    if r.seed is None:
        raise Mismatch("no seed")
    return r.seed


def _actor(event: dict[str, Any]) -> str:
    data = event.get("data") or {}
    if "seat" in data and event.get("type") in (*CAUSES, "SeatTaken"):
        return f"seat {data['seat']}"
    return "creator" if event.get("type") == "Created" else "system"


def _summary(event: dict[str, Any]) -> str:
    data = event.get("data") or {}
    kind = event.get("type")
    if kind == "MoveMade":
        return f"move {_short(data.get('move'))}"
    if kind == "TurnTimedOut":
        return f"timed out ({data.get('applied')})"
    return str(kind)


def _short(value: Any, limit: int = 90) -> str:
    text = str(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _explain(e: BaseException) -> str:
    if isinstance(e, RuleError):
        return f"the rules refuse it: {e.message} [{e.rule.id}: {e.rule.text}]"
    if isinstance(e, ConfigError):
        return e.message
    if isinstance(e, (KeyError, TypeError, ValueError)) and not isinstance(e, Mismatch):
        return f"the record is malformed here ({type(e).__name__}: {e})"
    return str(e)


def _report(ok: bool, checks: dict[str, bool], steps: list[Step], problem: str | None) -> dict[str, Any]:
    first_bad = next((s for s in steps if not s.ok), None)
    verdict = ("VERIFIED: every decision re-derives the recorded events from the revealed seed"
               if ok else f"REJECTED: {problem}")
    return {"ok": ok, "verdict": verdict, "checks": checks,
            "first_bad_step": None if first_bad is None else first_bad.to_json(),
            "steps": [s.to_json() for s in steps]}
