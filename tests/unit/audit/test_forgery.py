"""Forgeries: every field of a record, changed, fails verification, naming the field or the step.

A record (format 2) is signed part by part, so under the server's signature any change
is named by the signature check. A forger may also sign the changed record again with a
key of their own: then every statement must still be caught by checking it against
the events it follows from, except what only a signature covers (the game id, and
times no other statement depends on); pinning the server's key catches those too.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from services.audits.verification import NotARecord, verify_record
from tests.support.runs import thorough
from tests.unit.audit.sample_records import FORGER, GAMES, fields_of, forged, timed_record

ONLY_SIGNED = {("header", "game_id")}
"""Statements no event states: only the signature covers them."""


@pytest.fixture(scope="module")
def records() -> Iterator[dict[str, dict[str, Any]]]:
    from services.common.ports import NullWork
    from tests.conftest import make_settings
    from wiring import bootstrap

    platform = bootstrap(make_settings("memory"), work=NullWork())
    yield {game: timed_record(platform, game) for game in GAMES}
    platform.close()


def verified(record: dict[str, Any], trusted: list[str] | None = None) -> dict[str, Any]:
    """The verifier's report; a record of no format it reads is refused with the reason."""
    try:
        return verify_record(record, trusted)
    except NotARecord as e:
        return {"ok": False, "problems": [{"where": "format", "message": str(e)}], "signature": None}


def names(report: dict[str, Any], path: tuple[Any, ...], record: dict[str, Any]) -> bool:
    """Whether the report's problems name the field at ``path``, or the step that holds it."""
    text = " | ".join(f"{p['where']}: {p['message']}" for p in report["problems"])
    part = path[0]
    if part in ("events", "decisions"):
        version = record[part][path[1]]["version"]
        return f"{part}[{path[1]}]" in text or re.search(rf"\b(version |v){version}\b", text) is not None
    if part == "header":
        return f"header.{path[1]}" in text
    return ".".join(str(p) for p in path) in text or part in text


def _independent(path: tuple[Any, ...], record: dict[str, Any]) -> bool:
    """Whether a change at ``path`` can be caught without the signature: not the audit (the
    server's own verdict, which the verifier's replaces), not the signature, not a time that
    no statement depends on (a rule event's, a bank charge's)."""
    if path[0] in ("audit", "signature", "format") or tuple(path) in ONLY_SIGNED:
        return False
    if path[0] == "events" and path[2] == "at":
        event = record["events"][path[1]]
        return event["source"] == "platform" and event["type"] != "ClockSettled"
    return True


def test_the_sample_records_verify_and_hold_every_kind_of_event(records: dict[str, dict[str, Any]]) -> None:
    kinds: set[str] = set()
    for record in records.values():
        report = verify_record(record)
        assert report["ok"], report["verdict"]
        assert report["checks"]["signature_valid"] and record["format"] == "dragonhall-record/2"
        kinds |= {e["type"] for e in record["events"]}
    assert {"TurnTimedOut", "PolicyPlayed", "ClockSettled", "Resigned", "Joined", "Finished"} <= kinds


@pytest.mark.parametrize("game", GAMES)
def test_every_field_changed_under_the_servers_signature_fails_naming_it(
    records: dict[str, dict[str, Any]], game: str
) -> None:
    record = records[game]
    for path in fields_of(record, every_event=False):
        report = verified(forged(record, path))
        assert not report["ok"], f"{path} changed, and the record still verifies"
        assert names(report, path, record), (path, report["problems"][:3])


@pytest.mark.parametrize("game", GAMES)
def test_every_statement_changed_and_signed_again_by_another_key_fails_naming_it(
    records: dict[str, dict[str, Any]], game: str
) -> None:
    record = records[game]
    for path in fields_of(record, every_event=False):
        if not _independent(path, record):
            continue
        report = verified(forged(record, path, resign=True))
        assert not report["ok"], f"{path} changed and signed again, and the record still verifies"
        assert path[0] == "format" or report["signature"]["key_id"] == FORGER.public.key_id
        assert names(report, path, record) or report["problems"][0]["where"].startswith(("header.", "decisions")), (
            path,
            report["problems"][:3],
        )


def test_a_record_signed_again_by_another_key_fails_once_the_servers_key_is_pinned(
    records: dict[str, dict[str, Any]],
) -> None:
    record = records["tarasque"]
    server_key = record["signature"]["public_key"]
    fingerprint = record["signature"]["fingerprint"]
    assert verify_record(record, trusted=[server_key])["ok"]
    assert verify_record(record, trusted=[fingerprint])["ok"]
    game_id = forged(record, ("header", "game_id"), resign=True)
    assert verify_record(game_id)["ok"], "no event states the game id: only a trusted key catches this"
    report = verify_record(game_id, trusted=[fingerprint])
    assert not report["ok"] and report["problems"][0]["where"] == "signature.public_key"
    assert FORGER.public.key_id in report["verdict"] and "not a trusted key" in report["verdict"]


def test_an_unsigned_record_fails_when_a_key_is_pinned(records: dict[str, dict[str, Any]]) -> None:
    record = dict(records["mekong"])
    record.pop("signature")
    assert not verify_record(record)["ok"], "a format 2 record is signed"
    report = verify_record(
        {**record, "format": "dragonhall-record/1", "header": _format_1(record["header"])},
        trusted=[records["mekong"]["signature"]["public_key"]],
    )
    assert not report["ok"] and "no signature" in report["verdict"]


def _format_1(header: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in header.items() if k not in ("starts_at", "settings")}


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_every_field_of_more_records_changed_fails_naming_it(game: str) -> None:
    """Two more records of each game (other seats' moves, other lengths): in ``make test`` the fields of
    the first event of each kind, as above; with ``--thorough`` every field of every event and decision."""
    from services.common.ports import NullWork
    from tests.conftest import make_settings
    from wiring import bootstrap

    platform = bootstrap(make_settings("memory"), work=NullWork())
    try:
        samples = [timed_record(platform, game, number=n, moves=moves) for n, moves in ((2, 6), (3, 10))]
    finally:
        platform.close()
    for record in samples:
        for path in fields_of(record, every_event=thorough()):  # make test: each kind's first; all with --thorough
            report = verified(forged(record, path))
            assert not report["ok"] and names(report, path, record), (path, report["problems"][:3])
            if _independent(path, record):
                assert not verified(forged(record, path, resign=True))["ok"], path
