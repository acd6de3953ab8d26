"""What the clock decides: a timed-out turn played out, a scheduled table filled, banks charged.

``services.play.games`` calls these from its time-driven use cases, and the unit of work
calls ``ClockSettler`` just before each save. Each works on a game the caller holds
(a private copy) and records events on it; saving is the caller's.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime
from typing import Any

from domain.kernel import Command, Event
from services.accounts.players import server_bot_id
from services.deadlines import clocks
from services.play.aggregate import Game
from services.play.seeds import Seeds

Bot = Callable[[Game], Command]
"""A stand-in that chooses a seat's command from the game (deciding on the seat's observation)."""


def play_out_turn(game: Game, seat: int, deadline: datetime, bot: Bot, seeds: Seeds) -> None:
    """Records on ``game`` the timed-out turn of ``seat`` as the game's policy plays it: one
    ``TurnTimedOut`` with its first decision, then each further decision of the same turn as
    a ``PolicyPlayed``, until the seat is no longer awaited or the game ends. ``auto`` lets
    the bot play each decision; ``skip`` loses each decision where the rules allow it (else
    the bot plays); ``forfeit`` makes the seat leave, once. Each decision draws from
    ``Rng(seed, f"v{version}")`` of the version before it, as every decision does."""
    policy = game.time_control.get("timeout_policy", "auto")
    cause: type[Any] = Game.TurnTimedOut
    fields: dict[str, Any] = {"seat": seat, "deadline": deadline.isoformat(), "policy": policy}
    for _ in range(game.ruleset.max_decisions):
        applied, events, move = _policy_decision(game, seat, policy, bot, seeds)
        game.record(cause, {**fields, "applied": applied, "move": move}, events)
        if game.finish_if_over(seeds.revealed(game)) or not events or not turn_goes_on(game, seat):
            return
        cause, fields = Game.PolicyPlayed, {"seat": seat}


def _policy_decision(
    game: Game, seat: int, policy: str, bot: Bot, seeds: Seeds
) -> tuple[str, list[Event], dict[str, Any] | None]:
    """``(applied, events, move)`` of one decision of a timed-out seat under ``policy``."""
    rng = seeds.rng(game)
    if policy == "forfeit":
        return "forfeit", game.ruleset.leave(game.state, seat, rng), None
    if policy == "skip":
        skipped = game.ruleset.skip(game.state, seat, rng)
        if skipped is not None:
            return "skip", skipped, None
    command = bot(game)
    events = game.ruleset.decide(game.state, seat, command, rng)
    return "auto", events, game.ruleset.commands.dump(command)


def turn_goes_on(game: Game, seat: int) -> bool:
    """Whether ``seat``'s turn runs on after a decision: it is still awaited, has not left,
    and the game goes on."""
    return game.status == "active" and seat in game.awaiting and seat not in game.left


def fill_or_cancel(game: Game, seeds: Seeds) -> bool:
    """At a scheduled game's start, its empty seats get server bots (``fill: bot``, the
    default) and it may start (True), or it is cancelled (``fill: cancel``; False)."""
    free = game.free_seats()
    if free and game.settings.get("fill", "bot") == "cancel":
        reason = f"{len(free)} seat(s) still empty at the scheduled start"
        game.trigger_event(Game.Abandoned, reason=reason, seed=seeds.revealed(game))
        return False
    bot = str(game.settings.get("fill_bot"))
    if bot not in game.ruleset.bots:  # unset, or stored before creation checked it
        bot = game.ruleset.default_bot
    for seat in free:
        game.trigger_event(
            Game.SeatTaken, seat=seat, player_id=server_bot_id(bot), name=f"{bot} bot", kind="bot", bot=bot
        )
    return True


class ClockSettler:
    """Charges, just before a save, the bank of every seat whose turn ended in it: one
    ``ClockSettled`` for the save, vacation days not counted."""

    def __init__(self, vacation_days: Callable[[str], frozenset[date]]) -> None:
        self.vacation_days = vacation_days

    def __call__(self, game: Game) -> None:
        tc = game.time_control
        if game.status != "active" or not game.unsettled or tc.get("kind") != "bank":
            return
        used, banks = {}, {}
        for seat, (since, ended) in sorted(game.unsettled.items()):
            days = self.vacation_days(game.holder(int(seat)))
            spent = clocks.elapsed(clocks.parse(since), clocks.parse(ended), days)
            used[seat] = round(spent, 3)
            banks[seat] = round(clocks.settle(tc, game.banks.get(seat, float(tc["initial"])), spent), 3)
        game.trigger_event(Game.ClockSettled, used=used, banks=banks)
