"""Verifying a game record from the record alone: no server, no database.

Given a record, the verifier proves:

1. re-deciding every recorded decision from the start, with the generator of its
   version, produces exactly the recorded events, state hash by state hash, and the
   platform's own events (seats, starts, clocks, timeouts) follow its rules
   (``services.audits.record_replay``), so no move was illegal and no event was invented,
   dropped or edited;
2. every shuffle and roll re-derives from the revealed seed, and the seed's SHA-256
   is the commitment published when the game was created;
3. every statement of the header (game, options, seats, clock, creator, times,
   status, outcome...) is what the events say, and the listed decisions are the
   events' decisions;
4. for records of format 2, the server's Ed25519 signature covers the record part by
   part (``services.audits.record_signing``), so a change is named by its field or step;
   checked against trusted keys when some are given.

Records of format 1 were not signed: they verify by 1 to 3, and the verdict says
that the header's game id, names and times are covered by no signature (only
their agreement with the events is checked). A record that cannot be checked (an
unknown format, another engine version, no revealed seed) is refused with the
reason. A report lists every problem found, the first one in its verdict.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from domain.kernel import ConfigError, find_game
from services.audits.record_replay import walk
from services.audits.record_signing import PublicKey, check_signature
from services.audits.replay_state import Replay, Step
from services.audits.replay_text import first_difference, short
from services.reads.steps import CAUSES, cited_by_type, decisions

FORMAT_1 = "dragonhall-record/1"
FORMAT_2 = "dragonhall-record/2"
FORMATS = (FORMAT_1, FORMAT_2)
HEADER_1 = (
    "game_id",
    "game",
    "title",
    "variant",
    "options",
    "planned_seats",
    "seats",
    "engine",
    "rules_version",
    "time_control",
    "creator",
    "created_at",
    "started_at",
    "finished_at",
    "status",
    "outcome",
    "seed_commitment",
    "seed",
    "sandbox_of",
)
HEADER_2 = (*HEADER_1, "starts_at", "settings")
HEADERS = {FORMAT_1: HEADER_1, FORMAT_2: HEADER_2}
UNSIGNED = "the header's game id, names and times are covered by no signature"

__all__ = ["CAUSES", "FORMATS", "NotARecord", "verify", "verify_record"]


class NotARecord(ValueError):
    """The input is not a game record this verifier reads (its shape or its format)."""


@dataclass(frozen=True)
class Problem:
    where: str
    message: str
    version: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {"where": self.where, "message": self.message, "version": self.version}

    def __str__(self) -> str:
        return f"{self.where}: {self.message}"


def verify_record(
    record: Any, trusted: Sequence[str] | None = None, progress: Callable[[int, int], None] | None = None
) -> dict[str, Any]:
    """Verifies an exported record. ``trusted`` pins the keys a signature must come from, each
    a public key (base64) or its fingerprint (then an unsigned record fails too). The report
    has ``ok``, ``verdict``, ``format``, ``signature``, ``checks``, ``problems``,
    ``first_bad_step`` and ``steps``.

    :raises NotARecord: when ``record`` is not a record of a format this verifier reads.
    """
    fmt = _shape(record)
    header, events = record["header"], record["events"]
    replay, steps, problems = _verify(header, events, _seed(header), progress, HEADERS[fmt])
    checks = _checks(problems, replay)
    if replay is not None and not problems:
        listed = _decision_problems(record["decisions"], events, replay)
        checks["decisions_listed"] = not listed
        problems += listed
    key = None
    if fmt == FORMAT_2:  # after the checks of content, whose problems say more than "not signed"
        key, found = check_signature(record)
        signed = [Problem(where, why) for where, why in found]
        checks["signature_valid"] = key is not None and not any(p.where.startswith("signature") for p in signed)
        problems += signed
    if trusted is not None:
        checks["key_trusted"] = key is not None and any(key.named_by(name) for name in trusted)
        if not checks["key_trusted"]:
            problems.append(_untrusted(key))
    return _report(problems, checks, steps, fmt, key)


def verify(
    header: dict[str, Any],
    events: list[dict[str, Any]],
    seed: bytes | None,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Verifies ``events`` (their full form) and the ``header`` they were exported under, with
    ``seed`` (the server's own check of a game, before it is exported or while it runs)."""
    fields = HEADER_2 if "settings" in header else HEADER_1
    replay, steps, problems = _verify(header, events, seed, progress, fields)
    return _report(problems, _checks(problems, replay), steps, None, None)


def _verify(
    header: dict[str, Any],
    events: list[dict[str, Any]],
    seed: bytes | None,
    progress: Callable[[int, int], None] | None,
    fields: Sequence[str],
) -> tuple[Replay | None, list[Step], list[Problem]]:
    refused = _preflight(header, events, seed)
    if refused is not None:
        return None, [Step(refused.version or 0, "-", "record", ok=False, problem=refused.message)], [refused]
    assert seed is not None
    replay = Replay(events, seed, find_game(header["game"]))
    steps: list[Step] = []
    bad = walk(replay, steps, progress)
    if bad is not None:
        return replay, steps, [Problem(f"step at version {bad.version} ({bad.summary})", str(bad.problem), bad.version)]
    if not replay.ended:
        steps.append(Step(len(events), "-", "end", ok=False, problem="the record does not end with the game's end"))
        return replay, steps, [Problem("end", "the game never ended in this record", len(events))]
    return replay, steps, _header_problems(header, replay, fields)


def _preflight(header: dict[str, Any], events: list[Any], seed: bytes | None) -> Problem | None:
    """What makes a record uncheckable or its history incomplete, before any replay."""
    try:
        ruleset = find_game(str(header.get("game")))
    except ConfigError as e:
        return Problem("header.game", f"cannot re-decide: {e.message}")
    if not ruleset.redecides(str(header.get("engine")), str(header.get("variant"))):
        return Problem(
            "header.engine",
            f"cannot re-decide: the game was recorded with engine "
            f"{header.get('engine')!r} of {ruleset.slug}; this verifier runs engine "
            f"{ruleset.engine_version!r}",
        )
    if seed is None:
        return Problem("header.seed", "cannot re-decide: the record holds no revealed seed")
    if hashlib.sha256(seed).hexdigest() != header.get("seed_commitment"):
        return Problem(
            "header.seed",
            "the revealed seed does not hash to header.seed_commitment, the commitment published at creation",
        )
    return _gap(events)


def _gap(events: list[Any]) -> Problem | None:
    """Events are numbered 1, 2, 3...: the first one out of place, named by the version it lacks."""
    for i, event in enumerate(events):
        version = event.get("version") if isinstance(event, dict) else None
        if version == i + 1:
            continue
        where = f"events[{i}]"
        if isinstance(version, int) and version > i + 1:
            missing = f"v{i + 1}" if version == i + 2 else f"v{i + 1} to v{version - 1}"
            before = f"v{i} is followed by v{version}" if i else f"the first event is v{version}"
            return Problem(f"event v{i + 1}", f"{missing} missing from the record: {before}", i + 1)
        return Problem(where, f"the event after v{i} is numbered {version!r}, not {i + 1}", i + 1)
    return None


def _header_problems(header: dict[str, Any], r: Replay, fields: Sequence[str]) -> list[Problem]:
    """Each statement of the header, against the events it follows from."""
    problems = [
        Problem(f"header.{k}", f"not a field of a record's header ({', '.join(fields)})")
        for k in header
        if k not in fields
    ]
    facts = _facts(r)
    for key in fields:
        if key not in header:
            problems.append(Problem(f"header.{key}", "missing"))
        elif key in facts:
            diff = first_difference(header[key], facts[key], f"header.{key}")
            if diff is not None:
                path, said, found = diff
                source = "this verifier's rules" if key == "title" else "the events"
                problems.append(Problem(path, f"the header says {short(said)}, but {source} say {short(found)}"))
    return problems


def _facts(r: Replay) -> dict[str, Any]:
    """What the events say of each header field (``game_id`` is in no event: only a signature covers it)."""
    c = r.created
    facts = {
        "game": c["game"],
        "title": r.ruleset.title,
        "variant": c["variant"],
        "options": c["options"],
        "planned_seats": c["seats"],
        "seats": r.seats,
        "engine": c["engine"],
        "rules_version": f"{c['game']}/{c['engine']}",
        "time_control": c["time_control"],
        "creator": c["creator"],
        "created_at": r.created_at,
        "started_at": r.started_at,
        "finished_at": r.finished_at,
        "status": r.status,
        "outcome": r.outcome,
        "seed_commitment": c["seed_commitment"],
        "sandbox_of": c["sandbox_of"],
        "starts_at": c["starts_at"],
        "settings": c["settings"],
    }
    if r.revealed_seed is not None:
        facts["seed"] = r.revealed_seed
    return facts


def _decision_problems(listed: list[Any], events: list[dict[str, Any]], r: Replay) -> list[Problem]:
    """The record's decisions must be the events' decisions, as ``services.reads.steps`` lists them;
    a record made before some events cited their rule by their data may cite each by its type."""
    problems = _listing_problems(listed, decisions(events, r.ruleset, r.seats))
    by_type = problems and ".rules" in problems[0].where
    if by_type and not _listing_problems(listed, decisions(events, r.ruleset, r.seats, cited_by_type)):
        return []
    return problems


def _listing_problems(listed: list[Any], expected: list[dict[str, Any]]) -> list[Problem]:
    for i, (have, want) in enumerate(zip(listed, expected, strict=False)):
        diff = first_difference(have, want, f"decisions[{i}]")
        if diff is not None:
            path, said, found = diff
            version = want["version"]
            return [
                Problem(
                    path,
                    f"step {i + 1} (version {version}) says {short(said)}, but its events say {short(found)}",
                    version,
                )
            ]
    if len(listed) != len(expected):
        return [Problem("decisions", f"the record lists {len(listed)} decisions; its events hold {len(expected)}")]
    return []


def _shape(record: Any) -> str:
    if not isinstance(record, dict):
        raise NotARecord(f"a record is a JSON object, not {_json_kind(record)}")
    fmt = record.get("format")
    if fmt is None or not isinstance(record.get("header"), dict) or not isinstance(record.get("events"), list):
        raise NotARecord("a JSON object, but not a game record: it lacks format, header or events")
    if fmt not in FORMATS:
        raise NotARecord(
            f"format {short(fmt)!r} is not one this verifier reads ({', '.join(FORMATS)}); "
            "a newer dragonhall may read it"
        )
    if not isinstance(record.get("decisions"), list):
        raise NotARecord("a game record lists its decisions")
    return str(fmt)


def _json_kind(value: Any) -> str:
    names = {list: "a list", str: "a string", bool: "a boolean", int: "a number", float: "a number"}
    return "null" if value is None else names.get(type(value), type(value).__name__)


def _seed(header: dict[str, Any]) -> bytes | None:
    try:
        return bytes.fromhex(header["seed"]) if isinstance(header.get("seed"), str) else None
    except ValueError:
        return None


def _untrusted(key: PublicKey | None) -> Problem:
    if key is None:
        return Problem("signature", "the record carries no signature to check against the trusted keys")
    return Problem(
        "signature.public_key", f"signed by key {key.key_id} ({key.fingerprint}), which is not a trusted key"
    )


def _checks(problems: list[Problem], replay: Replay | None) -> dict[str, bool]:
    steps_ok = replay is not None and replay.ended and not any(p.where.startswith(("step", "end")) for p in problems)
    return {
        "decisions_reproduced": steps_ok,
        "state_hashes_match": steps_ok,
        "seed_matches_commitment": replay is not None,
        "header_matches_events": steps_ok and not any(p.where.startswith("header.") for p in problems),
    }


def _report(
    problems: list[Problem], checks: dict[str, bool], steps: list[Step], fmt: str | None, key: PublicKey | None
) -> dict[str, Any]:
    first_bad = next((s for s in steps if not s.ok), None)
    ok = not problems
    if not ok:
        verdict = f"REJECTED: {problems[0]}"
    elif fmt == FORMAT_1:
        verdict = (
            "VERIFIED (format 1, unsigned): every decision re-derives the recorded events from the "
            f"revealed seed and the header agrees with the events; {UNSIGNED}"
        )
    else:
        verdict = (
            "VERIFIED: every decision re-derives the recorded events from the revealed seed and the "
            "header agrees with the events" + (f"; signed by key {key.key_id}" if key else "")
        )
    return {
        "ok": ok,
        "verdict": verdict,
        "format": fmt,
        "checks": checks,
        "signature": None if key is None else key.to_json(),
        "problems": [p.to_json() for p in problems],
        "first_bad_step": None if first_bad is None else first_bad.to_json(),
        "steps": [s.to_json() for s in steps],
    }
