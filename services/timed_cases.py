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

    def time_out(
        self: Any, game_id: str, seat: int, version: int, deadline: datetime, bot: Callable[[Game], Any]
    ) -> bool:
        """Records one ``TurnTimedOut`` for ``seat``'s missed deadline, then every further
        decision its turn holds as a ``PolicyPlayed``, all in one save, until the seat is no
        longer awaited or the game ends. The game's policy plays each decision: ``auto``
        (the default bot, ``bot(game)``, decides on the seat's observation), ``skip`` (the
        decision is lost where the rules allow, else the bot plays) or ``forfeit`` (the
        seat leaves, once). Writes nothing if the game is no longer at ``version``.

        The bot thinks outside the game's lock, on a private copy; under the lock the
        copy is saved only if the game is still at ``version`` (then the copy was
        current, and each decision drew on ``Rng(seed, f"v{its version - 1}")``)."""
        gid = self.game_uuid(game_id)
        game = self.load(gid)
        if not self.awaits(game, seat, version):
            return False
        self._play_out_turn(game, seat, deadline, bot)
        with self.lock(gid):
            if not self.awaits(self.load(gid), seat, version):
                return False
            return self._try_save(game) is not None

    def _play_out_turn(self: Any, game: Game, seat: int, deadline: datetime, bot: Callable[[Game], Any]) -> None:
        """Records on ``game`` the timed-out turn of ``seat`` as its policy plays it."""
        policy = game.time_control.get("timeout_policy", "auto")
        cause: type[Any] = Game.TurnTimedOut
        fields: dict[str, Any] = {"seat": seat, "deadline": deadline.isoformat(), "policy": policy}
        for _ in range(game.ruleset.max_decisions):
            applied, events, move = self._policy_decision(game, seat, policy, bot)
            game.record(cause, {**fields, "applied": applied, "move": move}, events)
            if game.finish_if_over(self.seed(game.id).hex()) or not events or not turn_goes_on(game, seat):
                return
            cause, fields = Game.PolicyPlayed, {"seat": seat}

    def _policy_decision(
        self: Any, game: Game, seat: int, policy: str, bot: Callable[[Game], Any]
    ) -> tuple[str, list[Any], dict[str, Any] | None]:
        """``(applied, events, move)`` of one decision of a timed-out seat under ``policy``."""
        rng = self.rng(game)
        if policy == "forfeit":
            return "forfeit", game.ruleset.leave(game.state, seat, rng), None
        if policy == "skip":
            skipped = game.ruleset.skip(game.state, seat, rng)
            if skipped is not None:
                return "skip", skipped, None
        command = bot(game)
        events = game.ruleset.decide(game.state, seat, command, rng)
        return "auto", events, game.ruleset.commands.dump(command)

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
                game.trigger_event(
                    Game.Abandoned,
                    reason=f"{len(free)} seat(s) still empty at the scheduled start",
                    seed=self.seed(game.id).hex(),
                )
            else:
                bot = game.settings.get("fill_bot")
                if bot not in game.ruleset.bots:  # unset, or stored before creation checked it
                    bot = game.ruleset.default_bot
                for seat in free:
                    game.trigger_event(
                        Game.SeatTaken, seat=seat, player_id=server_bot_id(bot), name=f"{bot} bot", kind="bot", bot=bot
                    )
                self._start_now(game)
            return self._try_save(game) is not None  # else another process started it


def turn_goes_on(game: Game, seat: int) -> bool:
    """Whether ``seat``'s turn runs on after a decision: it is still awaited, has not left,
    and the game goes on."""
    return game.status == "active" and seat in game.awaiting and seat not in game.left
