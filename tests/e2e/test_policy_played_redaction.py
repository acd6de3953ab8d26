"""A move the timeout policy plays for a seat is as secret as the seat's own move.

One missed deadline is one ``TurnTimedOut``, then a ``PolicyPlayed`` for each further
decision of the turn. In Drachenreiter the last seat to fly in a round is awaited at
once for the next round's secret speed, so its timed-out turn goes on into a
``PolicyPlayed`` whose move is a ``set_speed``: while the game runs, the other seat
must not read that speed, as it may not read a ``MoveMade``'s or a ``TurnTimedOut``'s.
(``services/reads/redaction.py`` redacts the moves of both by their command's ``SECRET``
fields; ``PolicyPlayed`` needs the same.)
"""

from __future__ import annotations

import random
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

from domain.kernel import Viewer, choose_move, find_game
from services.common import clock
from services.common.clock import FakeClock
from services.play.aggregate import Game


def _secret_policy_move(client: Any) -> tuple[str, str, Game.PolicyPlayed]:
    """A running Drachenreiter game (a fixed one) where the policy played a ``set_speed``;
    its id, the other seat's token, and that event."""
    previous = clock.use(FakeClock(datetime(2026, 3, 2, 9, 0, tzinfo=UTC)))
    try:
        platform = client.platform
        a, b = client.player("a"), client.player("b")
        game = platform.games.create_game(
            a["id"],
            "drachenreiter",
            None,
            None,
            2,
            time_control={"kind": "per_move", "seconds": 60, "timeout_policy": "auto"},
            game_id=uuid.UUID(int=1, version=4),
        )
        gid = str(game.id)
        for player in (a, b):
            platform.games.take_seat(gid, player["id"], player["name"], "human")
        for _ in range(200):
            g = platform.games.load(gid)
            seat = g.awaiting[0]
            clock._clock.set(platform.timers.deadline(g, seat) + timedelta(seconds=1))  # type: ignore[attr-defined]
            platform.timers.fire_deadline(
                gid,
                seat,
                g.version,
                lambda gg, s=seat: choose_move(
                    gg.ruleset, gg.ruleset.bot(gg.ruleset.default_bot), gg.state, s, random.Random(gg.version), 0.05
                ),
            )
            for e in platform.games.stored_events(gid, g.version):
                if isinstance(e, Game.PolicyPlayed) and (e.move or {}).get("type") == "set_speed":
                    assert platform.games.load(gid).status == "active"
                    return gid, (b if e.seat == 0 else a)["token"], e
        raise AssertionError("no set_speed played by the policy")
    finally:
        clock.use(previous)


def test_a_speed_the_policy_set_is_hidden_from_the_other_seat_while_the_game_runs(client: Any) -> None:
    gid, other, played = _secret_policy_move(client)
    events = client.call("GET", f"/api/v1/games/{gid}/events", token=other).body["events"]
    (shown,) = [e for e in events if e["version"] == played.originator_version]
    ruleset = find_game("drachenreiter")
    command = ruleset.parse_move(played.move)
    hidden = {"type": command.TYPE, **command.visible_data(played.seat, Viewer.of(1 - played.seat))}
    assert hidden != played.move, "a set_speed has secret fields"
    assert shown["data"]["move"] == hidden
