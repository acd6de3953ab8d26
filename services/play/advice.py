"""Advice: the move one of the server's bots would play for the caller's seat.

A client that cannot rebuild a bot's state (only the server holds it, and a
seat's view is not enough for every bot) asks the server instead: the bot
decides as a seated server bot does, on ``ruleset.observe(state, seat, rng)``,
a state in which all that is hidden from the seat is drawn anew
(``domain.kernel.choose_move``), so its advice tells the seat nothing it could
not learn by playing. A ``seed`` makes the advice repeatable; without one, it
draws fresh randomness.
"""

from __future__ import annotations

import concurrent.futures
import logging
import random
from typing import Any

from domain.kernel import Command, RandomBot, Ruleset, choose_move
from services.common.errors import InvalidRequest, NotAcceptingMoves, NotAwaited
from services.play.games import GameService
from services.play.table_seats import reading_seat

log = logging.getLogger("dragonhall.advice")
WORKERS = 2
"""Bots thinking at once for advice in one process: more requests wait their turn (and their budget)."""


class Advisor:
    """Answers ``GET /games/{id}/advice``: a built-in bot's move for the caller's awaited seat."""

    def __init__(self, games: GameService, budget: float) -> None:
        self.games = games
        self.budget = budget
        self._pool = concurrent.futures.ThreadPoolExecutor(max_workers=WORKERS, thread_name_prefix="advice")

    def advise(
        self, game_id: str, player_id: str, bot: str | None = None, seat: int | None = None, seed: int | None = None
    ) -> dict[str, Any]:
        """``{version, seat, bot, move}``: the move ``bot`` (the game's default bot when None) would play
        now for the caller's ``seat`` (the first it holds that is awaited, when None).

        Raises ``NotAPlayer`` when the caller does not hold the seat, ``NotAcceptingMoves`` when the
        game is not running, ``NotAwaited`` when the seat is not awaited, and ``InvalidRequest`` (field
        ``bot``, listing the game's bots) for a bot the game does not have."""
        game = self.games.load(game_id)
        ruleset = game.ruleset
        seat = reading_seat(game, player_id, seat)
        if game.status != "active":
            raise NotAcceptingMoves(f"game {game.id} is {game.status}: no move to advise")
        if seat not in game.awaiting or seat in game.left:
            raise NotAwaited(f"game {game.id} does not await seat {seat} at version {game.version}")
        name = bot or ruleset.default_bot
        if name not in ruleset.bots:
            names = ", ".join(sorted(ruleset.bots))
            raise InvalidRequest(f"{ruleset.slug} has no bot {name!r}; its bots: {names}", field="bot")
        rng = random.Random(seed) if seed is not None else random.Random()
        move = self._choose(game.id, ruleset, name, game.state, seat, rng)
        return {"version": game.version, "seat": seat, "bot": name, "move": ruleset.commands.dump(move)}

    def _choose(
        self, game_id: object, ruleset: Ruleset[Any], name: str, state: Any, seat: int, rng: random.Random
    ) -> Command:
        """The bot's move within the budget, as a seated bot plays (``workers.bot_turns``): past twice
        the budget, a uniformly random legal move instead, drawn from a generator of its own (the
        bot's may still be in use by the overrunning bot)."""
        fallback = random.Random(rng.getrandbits(64))
        future = self._pool.submit(choose_move, ruleset, ruleset.bot(name), state, seat, rng, self.budget)
        try:
            return future.result(timeout=max(2 * self.budget, 0.05))
        except concurrent.futures.TimeoutError:
            log.warning("bot %s overran its %.1f s budget advising in game %s; advising a random move", name,
                        self.budget, game_id)  # fmt: skip
            return RandomBot(ruleset).choose(state, seat, fallback)

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
