"""Playing a server bot's turn: the bot sees only its seat's observation, within a time budget."""

from __future__ import annotations

import concurrent.futures
import hashlib
import hmac
import logging
import random
from collections.abc import Callable

from domain.kernel import Command, RandomBot, choose_move
from services.play.aggregate import Game
from workers.platform import JobPlatform

log = logging.getLogger("dragonhall.bots")
_pool = concurrent.futures.ThreadPoolExecutor(max_workers=4, thread_name_prefix="bot")


def decision_rng(seed: bytes, version: int, seat: int) -> random.Random:
    """A bot's randomness for one decision: the game's secret ``seed`` keyed by version and seat
    (the benches draw theirs the same way, so they play as the server does)."""
    return random.Random(hmac.new(seed, f"dragonhall-bot:{version}:{seat}".encode(), hashlib.sha256).digest())


def bot_choice(game: Game, seat: int, bot_name: str | None, budget: float, seed: bytes) -> Command:
    """The command ``bot_name`` (or the game's default bot) picks for ``seat``.

    The bot sees only the seat's observation, and draws its own randomness from the
    game's secret ``seed`` (keyed by version and seat), so its choice depends on
    nothing but what the seat knows and the game's recorded seed.

    The bot gets ``budget`` seconds as a soft limit; past twice that, its answer
    is dropped and a uniformly random legal move is played instead, so a slow
    bot can never stall a table.
    """
    ruleset = game.ruleset
    bot = ruleset.bot(bot_name or ruleset.default_bot)
    rng = decision_rng(seed, game.version, seat)
    future = _pool.submit(choose_move, ruleset, bot, game.state, seat, rng, budget)
    try:
        return future.result(timeout=max(2 * budget, 0.05))
    except concurrent.futures.TimeoutError:
        log.warning("bot %s overran its %.1f s budget in game %s; playing a random move", bot_name, budget, game.id)
        return RandomBot(ruleset).choose(game.state, seat, rng)


def play_bot_turn(
    platform: JobPlatform, game_id: str, seat: int, version: int, before_save: Callable[[], object] | None = None
) -> bool:
    """Plays the server bot in ``seat`` if the decision it was awaited for at ``version`` is still
    to be made (``GameService.play_for``)."""
    budget = platform.settings.bot_budget

    def choose(game: Game) -> Command:
        return bot_choice(game, seat, game.seat_info(seat)["bot"], budget, platform.seeds.of(game.id))

    return bool(platform.games.play_for(game_id, seat, version, choose, before_save))
