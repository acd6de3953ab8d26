"""The verifier's walk through a game's events: re-deciding every decision, following the clocks.

Each platform event is checked against the game's state so far and its rules:
every decision is re-decided with the generator of its version and must produce
exactly the rule events that follow it, state hash by state hash; seats are
taken, started and joined as the platform allows; and the clocks are followed as
the server follows them (``services.deadlines.clocks``): turns start and end at the rule
event that closes a decision, a ``TurnTimedOut`` needs a timed game, a running
turn and a deadline no earlier than the turn's start plus its budget (vacation
days may only push it later), and comes no earlier than that deadline; the
policy then plays the rest of that turn (``PolicyPlayed``) in the same save; each
bank turn that ends is charged once, by the ``ClockSettled`` of its save.

Games recorded before rule events said which one closes its decision (records of
format 1, and games stored then) are followed as the server followed them then:
turns moved at every rule event, and each decision of a timed-out turn was a
``TurnTimedOut`` of its own.

The walk also gathers the facts the header states (seats, times, status, outcome),
for ``services.audits.verification`` to compare.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from domain.kernel import Outcome, Rng, decode, state_hash
from services.audits.replay_state import Replay, Step, boundary, expect
from services.audits.replay_text import Mismatch, actor, explain, short, summary, version_of
from services.deadlines import clocks
from services.play import sandbox_chance

SAVE_OPENERS = ("MoveMade", "Resigned", "TurnTimedOut", "Joined", "Started", "Forked", "Abandoned")
"""Events that begin a save: every bank turn ended by an earlier save was settled before them."""
TOLERANCE = timedelta(milliseconds=1)
"""Slack for comparing instants computed with floating-point seconds (deadlines, time used)."""
SEAT_KEYS = ("seat", "player_id", "name", "kind", "bot")


def walk(r: Replay, steps: list[Step], progress: Callable[[int, int], None] | None = None) -> Step | None:
    """Checks every event in turn; returns the first step that fails, or None."""
    total = len(r.events)
    while r.i < total:
        event = r.events[r.i]
        step = Step(version_of(event), actor(event), summary(event))
        steps.append(step)
        try:
            _step(r, step)
        except Exception as e:  # a forged record may hold anything: say where, never crash
            step.ok = False
            step.problem = explain(e)
            return step
        if progress is not None:
            progress(r.i, total)
    return None


def _step(r: Replay, step: Step) -> None:
    event = r.events[r.i]
    if not isinstance(event, dict) or not isinstance(event.get("data"), dict):
        raise Mismatch("an event is a JSON object with a 'data' object")
    kind, data = event.get("type"), event["data"]
    if r.ended:
        raise Mismatch("an event follows the end of the game")
    if event.get("source") != "platform":
        raise Mismatch(f"rule event {short(kind)} was produced by no decision")
    if r.i == 0 and kind != "Created":
        raise Mismatch("a game's history starts with Created")
    if r.over and kind != "Finished":
        raise Mismatch(
            f"the rules say the game was over after the previous decision, so Finished comes next, not {short(kind)}"
        )
    if r.chain is not None and kind != "PolicyPlayed":
        raise Mismatch(
            f"seat {r.chain}'s timed-out turn goes on, so the timeout policy plays its next "
            f"decision here (PolicyPlayed), not {short(kind)}"
        )
    if kind in SAVE_OPENERS and r.unsettled:
        seat, (_start, end) = next(iter(sorted(r.unsettled.items())))
        raise Mismatch(f"seat {seat}'s bank turn ended at {end} and was never charged (ClockSettled)")
    handler = _HANDLERS.get(str(kind))
    if handler is None:
        raise Mismatch(f"unknown event type {short(repr(kind))}")
    r.i += 1
    handler(r, data, step, event)


# ------------------------------------------------------------------ the table


def _created(r: Replay, data: dict[str, Any], step: Step, event: dict[str, Any]) -> None:
    if r.created:
        raise Mismatch("a game is created once")
    if data.get("game") != r.ruleset.slug:
        raise Mismatch(f"the creation's game {data.get('game')!r} is not the record's {r.ruleset.slug!r}")
    r.created = data
    r.created_at = event.get("at")
    r.status = "scheduled" if data.get("starts_at") else "open"


def _seat_taken(r: Replay, data: dict[str, Any], step: Step, event: dict[str, Any]) -> None:
    seat = data["seat"]
    if r.status not in ("open", "scheduled"):
        raise Mismatch(f"a seat is taken only before the game starts, and the game is {r.status}")
    if any(s["seat"] == seat for s in r.seats) or not 0 <= seat < r.created["seats"]:
        raise Mismatch(f"seat {seat} cannot be taken")
    r.seats.append({k: data[k] for k in SEAT_KEYS})
    r.taken_at[seat] = version_of(event)


def _seat_given_up(r: Replay, data: dict[str, Any], step: Step, event: dict[str, Any]) -> None:
    seat = data["seat"]
    if r.status not in ("open", "scheduled"):
        raise Mismatch(f"a seat is given up only before the game starts, and the game is {r.status}")
    held = next((s for s in r.seats if s["seat"] == seat), None)
    if held is None:
        raise Mismatch(f"seat {seat} is given up, but nobody holds it")
    leaving = {k: data[k] for k in SEAT_KEYS}
    if leaving != held:
        raise Mismatch(f"seat {seat} is given up by {short(leaving)}, but {short(held)} holds it")
    r.seats.remove(held)
    r.taken_at.pop(seat, None)


def _started(r: Replay, data: dict[str, Any], step: Step, event: dict[str, Any]) -> None:
    if r.status not in ("open", "scheduled"):
        raise Mismatch(f"the game is {r.status}; it cannot start")
    taken = sorted(r.seats, key=lambda s: s["seat"])
    expected = [{**s, "seat": i} for i, s in enumerate(taken)]
    if data["seats"] != expected:
        if len(data["seats"]) != len(expected):
            raise Mismatch(f"{len(data['seats'])} seats started, but {len(expected)} were taken")
        n = next(i for i, (a, b) in enumerate(zip(data["seats"], expected, strict=True)) if a != b)
        raise Mismatch(
            f"seat {n} started as {short(data['seats'][n])}, but the SeatTaken at version "
            f"{r.taken_at.get(taken[n]['seat'])} seated {short(taken[n])} (renumbered {n})"
        )
    r.seats = [dict(s) for s in data["seats"]]
    r.status, r.started_at = "active", event.get("at")
    config = r.ruleset.configure(r.created["variant"], r.created["options"], len(r.seats))
    r.state = r.ruleset.initial(config)
    bank = clocks.initial_bank(r.tc)
    if bank is not None:
        r.banks = {str(s["seat"]): bank for s in r.seats}
    expect(r, r.ruleset.setup(r.state, Rng(r.seed, "setup")), step)


def _forked(r: Replay, data: dict[str, Any], step: Step, event: dict[str, Any]) -> None:
    """A sandbox's starting position is taken as recorded (the original game proves its own history)."""
    if r.status not in ("open", "scheduled"):
        raise Mismatch(f"the game is {r.status}; it cannot be forked into")
    r.seats = [dict(s) for s in data["seats"]]
    r.state = decode(r.ruleset.state_type, data["state"])
    if data["state_hash"] != state_hash(r.state):
        raise Mismatch("the forked state does not match its hash")
    if data["awaiting"] != list(r.ruleset.awaiting(r.state)):
        raise Mismatch("the awaited seats of the forked state differ from the rules'")
    r.status, r.started_at = "active", event.get("at")
    boundary(r, data["awaiting"], str(event.get("at")))
    step.summary = f"forked from {r.created.get('sandbox_of')}"


def _joined(r: Replay, data: dict[str, Any], step: Step, event: dict[str, Any]) -> None:
    _active(r)
    if data["seat"] != len(r.seats):
        raise Mismatch(f"a newcomer takes seat {len(r.seats)}, not {data['seat']}")
    r.seats = [*r.seats, {k: data[k] for k in SEAT_KEYS}]
    bank = clocks.initial_bank(r.tc)
    if bank is not None:
        r.banks[str(data["seat"])] = bank
    expect(r, r.ruleset.join(r.state, _rng(r, event)), step)


# ------------------------------------------------------------------ decisions


def _move(r: Replay, data: dict[str, Any], step: Step, event: dict[str, Any]) -> None:
    seat = _holder(r, data)
    command = r.ruleset.parse_move(data["move"])
    expect(r, r.ruleset.decide(r.state, seat, command, _rng(r, event)), step)


def _resigned(r: Replay, data: dict[str, Any], step: Step, event: dict[str, Any]) -> None:
    seat = _holder(r, data)
    expect(r, r.ruleset.leave(r.state, seat, _rng(r, event)), step)
    r.left.append(seat)


def _timed_out(r: Replay, data: dict[str, Any], step: Step, event: dict[str, Any]) -> None:
    _active(r)
    seat, tc = data["seat"], r.tc
    if not clocks.is_timed(tc):
        raise Mismatch("a TurnTimedOut in a game without a clock")
    since = r.turns.get(str(seat))
    if since is None or seat in r.left:
        raise Mismatch(f"seat {seat} had no running turn to time out")
    earliest = clocks.deadline(tc, since, r.banks.get(str(seat))) or clocks.parse(since)
    deadline = clocks.parse(data["deadline"])
    if deadline < earliest - TOLERANCE:
        raise Mismatch(
            f"deadline {data['deadline']} comes before the turn's start ({since}) plus its budget "
            f"({earliest.isoformat()}); vacation days only push a deadline later"
        )
    if _instant(event) < deadline:
        raise Mismatch(f"seat {seat} timed out at {event.get('at')}, before its deadline {data['deadline']}")
    if r.flagged and (seat, since) in r.timed_out:
        raise Mismatch(f"seat {seat}'s turn (from {since}) already timed out: one deadline, one TurnTimedOut")
    r.timed_out.add((seat, since))
    _policy_decision(r, data, step, event)


def _policy_played(r: Replay, data: dict[str, Any], step: Step, event: dict[str, Any]) -> None:
    if r.chain != data["seat"]:
        raise Mismatch(
            f"a PolicyPlayed for seat {data['seat']} follows no TurnTimedOut (or PolicyPlayed) "
            "of that seat whose turn goes on"
        )
    r.chain = None
    _policy_decision(r, {**data, "policy": _policy(r)}, step, event)


def _policy(r: Replay) -> str:
    return str(r.tc.get("timeout_policy", "auto"))


def _policy_decision(r: Replay, data: dict[str, Any], step: Step, event: dict[str, Any]) -> None:
    """One decision the timeout policy played for a seat; the policy goes on playing the
    seat's turn while it stays awaited (in games recorded since turns closed at decisions)."""
    seat, applied, rng = data["seat"], data["applied"], _rng(r, event)
    policy = _policy(r)
    if data["policy"] != policy or applied not in (policy, "auto"):
        raise Mismatch(f"policy {data['policy']!r} applied as {applied!r} is not the game's policy {policy!r}")
    if seat not in r.ruleset.awaiting(r.state) or seat in r.left:
        raise Mismatch(f"seat {seat} was not awaited, so the policy could not play for it")
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
    expect(r, events, step)
    goes_on = seat in r.ruleset.awaiting(r.state) and seat not in r.left and not r.over
    r.chain = seat if events and goes_on and r.flagged else None


# ------------------------------------------------------------------ clocks and the end


def _clock_settled(r: Replay, data: dict[str, Any], step: Step, event: dict[str, Any]) -> None:
    tc = r.tc
    if tc.get("kind") != "bank":
        raise Mismatch("a ClockSettled in a game without a bank clock")
    seats = set(r.unsettled)
    if set(data["used"]) != seats or set(data["banks"]) != seats:
        raise Mismatch(f"it settles seats {sorted(data['used'])}, but the bank turns that ended are {sorted(seats)}")
    for seat, (since, ended) in sorted(r.unsettled.items()):
        used, most = data["used"][seat], clocks.elapsed(clocks.parse(since), clocks.parse(ended))
        if not 0 <= used <= most + TOLERANCE.total_seconds():
            raise Mismatch(f"seat {seat} used {used} s of a turn that lasted {most:.3f} s")
        want = round(clocks.settle(tc, r.banks.get(seat, float(tc["initial"])), used), 3)
        if data["banks"][seat] != want:
            raise Mismatch(f"seat {seat}'s bank should be {want} after using {used} s, not {data['banks'][seat]}")
        r.banks[seat] = want
    r.unsettled = {}


def _finished(r: Replay, data: dict[str, Any], step: Step, event: dict[str, Any]) -> None:
    _active(r)
    outcome = r.ruleset.outcome(r.state)
    if outcome is None:
        raise Mismatch("the game is recorded as finished, but the rules say it is not over")
    if data["outcome"] != outcome.to_json():
        raise Mismatch(f"the recorded outcome {data['outcome']} is not the rules' {outcome.to_json()}")
    _end(r, "finished", data["outcome"], data, event)


def _abandoned(r: Replay, data: dict[str, Any], step: Step, event: dict[str, Any]) -> None:
    if r.status not in ("open", "scheduled"):
        raise Mismatch(f"only a game that has not started is abandoned, and this one is {r.status}")
    _end(r, "abandoned", Outcome.abandoned(data["reason"]).to_json(), data, event)


def _end(r: Replay, status: str, outcome: dict[str, Any], data: dict[str, Any], event: dict[str, Any]) -> None:
    if data["seed"] != r.seed.hex():
        raise Mismatch("the seed revealed at the end is not the record's seed")
    r.status, r.outcome, r.revealed_seed = status, outcome, data["seed"]
    r.finished_at = event.get("at")
    r.turns, r.unsettled, r.over, r.ended = {}, {}, False, True


_HANDLERS: dict[str, Callable[[Replay, dict[str, Any], Step, dict[str, Any]], None]] = {
    "Created": _created,
    "SeatTaken": _seat_taken,
    "SeatGivenUp": _seat_given_up,
    "Started": _started,
    "Forked": _forked,
    "Joined": _joined,
    "MoveMade": _move,
    "Resigned": _resigned,
    "TurnTimedOut": _timed_out,
    "PolicyPlayed": _policy_played,
    "ClockSettled": _clock_settled,
    "Finished": _finished,
    "Abandoned": _abandoned,
}


# ------------------------------------------------------------------ helpers


def _active(r: Replay) -> None:
    if r.status != "active":
        raise Mismatch(f"the game is {r.status}, not running")


def _holder(r: Replay, data: dict[str, Any]) -> int:
    _active(r)
    seat = data["seat"]
    holders = {s["seat"]: s["player_id"] for s in r.seats}
    if holders.get(seat) != data["player_id"]:
        raise Mismatch(f"player {data['player_id']} does not hold seat {seat}")
    if seat in r.left:
        raise Mismatch(f"seat {seat} has left the game")
    return int(seat)


def _rng(r: Replay, event: dict[str, Any]) -> Rng:
    return Rng(r.seed, sandbox_chance.label(event["version"] - 1, r.created.get("sandbox_of")))


def _instant(event: dict[str, Any]) -> datetime:
    return clocks.parse(str(event.get("at")))
