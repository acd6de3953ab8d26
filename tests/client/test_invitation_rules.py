"""A bot answers invitations by the rules on its command line, declining with the reason that says why."""

from __future__ import annotations

import threading

import httpx
import pytest

from api.cli import command_line
from api.client_commands import invitation_rules
from dragonhall import BotRunner, InvitationRules, Unauthenticated
from tests.client.fakes import Script, body, client, error, ndjson

INVITATION = {
    "type": "invitation",
    "invitation_id": "i1",
    "game_id": "g1",
    "game": "mekong",
    "variant": "classic",
    "options": {},
    "seats": 3,
    "time_control": {"kind": "per_move", "seconds": 600},
    "rated": True,
    "inviter": {"id": "p1", "name": "Ann", "kind": "human"},
}


@pytest.mark.parametrize(
    ("rules", "changes", "answer"),
    [
        (InvitationRules(), {}, (True, None)),
        (InvitationRules(games=frozenset({"tarasque"})), {}, (False, "generic")),
        (InvitationRules(variants=frozenset({"standard"})), {}, (False, "variant")),
        (InvitationRules(clock="none"), {}, (False, "time_control")),
        (InvitationRules(clock="timed"), {"time_control": {"kind": "none"}}, (False, "time_control")),
        (InvitationRules(min_seconds=3600), {}, (False, "too_fast")),
        (InvitationRules(max_seconds=60), {}, (False, "too_slow")),
        (InvitationRules(max_seconds=60), {"time_control": {"kind": "none"}}, (True, None)),
        (InvitationRules(rated="casual"), {}, (False, "casual")),
        (InvitationRules(rated="rated"), {"rated": False}, (False, "rated")),
        (InvitationRules(games=frozenset({"mekong"}), clock="timed", rated="rated"), {}, (True, None)),
    ],
)
def test_the_rules_accept_or_name_the_reason_to_decline(
    rules: InvitationRules, changes: dict, answer: tuple[bool, str | None]
) -> None:
    assert rules.answer({**INVITATION, **changes}) == answer


def test_the_command_line_gives_the_rules() -> None:
    args = command_line().parse_args(
        [
            "bot",
            "--accept",
            "--games",
            "mekong,tarasque",
            "--clock",
            "timed",
            "--min-seconds",
            "60",
            "--rated",
            "casual",
        ]
    )
    rules = invitation_rules(args)
    assert rules == InvitationRules(frozenset({"mekong", "tarasque"}), None, "timed", 60.0, None, "casual")
    assert invitation_rules(command_line().parse_args(["bot"])) is None


def test_the_runner_declines_once_with_the_reason_and_accepts_what_the_rules_allow() -> None:
    other = {**INVITATION, "invitation_id": "i2", "game_id": "g2", "game": "tarasque"}
    answered = threading.Event()

    def accepted(request: httpx.Request) -> httpx.Response:
        answered.set()
        return httpx.Response(200, json={"id": "g2", "status": "open", "version": 3})

    def refused_once_answered(request: httpx.Request) -> httpx.Response:
        answered.wait(10)
        return error(401, "unauthenticated")

    script = Script(
        {
            "GET /api/v1/stream/events": [ndjson(INVITATION, other, INVITATION), refused_once_answered],
            "POST /api/v1/invitations/i1/decline": [httpx.Response(200, json={**INVITATION, "status": "declined"})],
            "POST /api/v1/invitations/i2/accept": [accepted],
            "GET /api/v1/games/g2/stream": [error(401, "unauthenticated")],
        }
    )
    dh, _ = client(script)
    runner = BotRunner(dh, lambda view, moves, game: moves[0], InvitationRules(games=frozenset({"tarasque"})))
    with pytest.raises(Unauthenticated):
        runner.run()
    assert [body(r) for r in script.sent("POST /api/v1/invitations/i1/decline")] == [{"reason": "generic"}]
    assert len(script.sent("POST /api/v1/invitations/i2/accept")) == 1


def test_without_rules_the_runner_leaves_invitations_unanswered() -> None:
    script = Script({"GET /api/v1/stream/events": [ndjson(INVITATION), error(401, "unauthenticated")]})
    dh, _ = client(script)
    with pytest.raises(Unauthenticated):
        BotRunner(dh, lambda view, moves, game: moves[0]).run()
    assert not [r for r in script.requests if "invitations" in r.url.path]
