"""The bot job (``workers.jobs.play_bot``): a task that finds its decision made sends the seat's next one."""

from __future__ import annotations

from typing import Any

from services.deadlines.timers import Action, PlayBot
from workers import jobs


def _bot_game(platform: Any) -> str:
    owner = platform.accounts.register("o", "human")[0].id
    game = platform.games.create_game(owner, "dice-race", None, None, 2)
    for _ in range(2):
        platform.games.take_seat(str(game.id), "server-bot:random", "random bot", "bot", bot="random")
    return str(game.id)


def test_a_bot_task_whose_decision_was_made_sends_the_task_of_the_seats_next_decision(platform: Any) -> None:
    """Its claim kept any other task for the seat unsent meanwhile: without this, the seat would
    wait for the nudge."""
    gid = _bot_game(platform)
    start = platform.games.load(gid).version
    sent: list[Action] = []
    for seat in (0, 1):  # both bid: the round ends and both are awaited again
        assert jobs.play_bot(platform, sent.extend, gid, seat, platform.games.load(gid).version)
    game = platform.games.load(gid)
    assert 0 in game.awaiting and sent == []
    assert jobs.play_bot(platform, sent.extend, gid, 0, start) is False  # seat 0 acted since: a duplicate
    assert sent == [PlayBot(gid, 0, game.version)]


def test_a_bot_task_that_plays_sends_nothing_itself(platform: Any) -> None:
    gid = _bot_game(platform)
    sent: list[Action] = []
    assert jobs.play_bot(platform, sent.extend, gid, 0, platform.games.load(gid).version)
    assert sent == [], "the plan after its save sends what follows (services.deadlines.timers)"
