"""The time-driven use cases of the game service: timeouts, scheduled starts, bank clocks.

A mixin of ``GameService`` (``services.games``): these methods use its loading,
locking, seeding and saving, and keep the same guard as every task, which is
that nothing is written unless the game is still at the version the caller saw.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from services import clocks
from services.accounts import server_bot_id
from services.aggregate import Game


class TimedCases:
    """Mixed into ``GameService``."""

    def _settle_clocks(self: Any, game: Game) -> None:
        """Charges the bank of every seat whose turn ended in this save (vacation days free)."""
        tc = game.time_control
        if game.status != "active" or not game.unsettled or tc.get("kind") != "bank":
            return
        used, banks = {}, {}
        for seat, (since, ended) in sorted(game.unsettled.items()):
            days = self.vacations.days(game.holder(int(seat))) if self.vacations else frozenset()
            spent = clocks.elapsed(clocks.parse(since), clocks.parse(ended), days)
            used[seat] = round(spent, 3)
            banks[seat] = round(clocks.settle(tc, game.banks.get(seat, float(tc["initial"])), spent), 3)
        game.trigger_event(Game.ClockSettled, used=used, banks=banks)

    def time_out(self: Any, game_id: str, seat: int, version: int, deadline: datetime,
                 bot: Callable[[Game], Any]) -> bool:
        """Records ``TurnTimedOut`` for ``seat`` and its consequence under the game's policy:
        ``auto`` (the default bot plays), ``forfeit`` (the seat leaves) or ``skip`` (the
        decision is lost where the rules allow, else ``auto``). Writes nothing if the
        game is no longer at ``version``."""
        gid = self.game_uuid(game_id)
        game = self.load(gid)
        if not self.awaits(game, seat, version):
            return False
        policy = game.time_control.get("timeout_policy", "auto")
        skipped = game.ruleset.skip(game.state, seat, self.rng(game)) if policy == "skip" else None
        applied = policy if policy != "skip" or skipped is not None else "auto"
        command = bot(game) if applied == "auto" else None
        with self.lock(gid):
            game = self.load(gid)
            if not self.awaits(game, seat, version):
                return False
            rng = self.rng(game)
            if applied == "forfeit":
                events = game.ruleset.leave(game.state, seat, rng)
            elif applied == "skip":
                events = game.ruleset.skip(game.state, seat, rng) or []
            else:
                events = game.ruleset.decide(game.state, seat, command, rng)
            move = None if command is None else game.ruleset.commands.dump(command)
            game.record(Game.TurnTimedOut, {"seat": seat, "deadline": deadline.isoformat(), "policy": policy,
                                            "applied": applied, "move": move}, events)
            game.finish_if_over(self.seed(game.id).hex())
            return self._try_save(game) is not None

    def start_scheduled(self: Any, game_id: str, now: datetime) -> bool:
        """At its time, a scheduled game fills its empty seats with bots (or is cancelled) and starts.
        Several tasks may race to start it (the sweep and the timer, on two processes): the one
        whose save loses writes nothing and returns False."""
        gid = self.game_uuid(game_id)
        with self.lock(gid):
            game = self.load(gid)
            if game.status != "scheduled" or not game.starts_at or clocks.parse(game.starts_at) > now:
                return False
            free = game.free_seats()
            if free and game.settings.get("fill", "bot") == "cancel":
                game.trigger_event(Game.Abandoned, reason=f"{len(free)} seat(s) still empty at the scheduled start",
                                   seed=self.seed(game.id).hex())
            else:
                bot = game.settings.get("fill_bot")
                if bot not in game.ruleset.bots:  # unset, or stored before creation checked it
                    bot = game.ruleset.default_bot
                for seat in free:
                    game.trigger_event(Game.SeatTaken, seat=seat, player_id=server_bot_id(bot), name=f"{bot} bot",
                                       kind="bot", bot=bot)
                self._start_now(game)
            return self._try_save(game) is not None  # else another process started it
