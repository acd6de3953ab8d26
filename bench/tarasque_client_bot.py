"""Strength of the example client strategy (``examples/tarasque_bot.py``) in two-player Tarasque.

The strategy plays from what a client receives: its seat's view and its legal moves in their wire
form, made here by the rules themselves (``view`` and ``legal_moves`` for its seat), without a server.
Its opponents are the server's bots, deciding on their seat's observation as on the server. Plays
``games`` games (200 by default) against each opponent with fixed seeds, alternating who starts and the
variant, and prints the strategy's win rate (a shared first place counts as half a win).

Usage: ``.venv/bin/python bench/tarasque_client_bot.py [games]``
"""

from __future__ import annotations

import importlib.util
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from domain.kernel import Rng, Viewer, choose_move
from domain.tarasque import RULESET

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "tarasque_bot.py"
WireStrategy = Callable[[dict[str, Any], list[dict[str, Any]], dict[str, Any]], dict[str, Any]]


def example_strategy() -> WireStrategy:
    spec = importlib.util.spec_from_file_location("tarasque_bot", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.choose  # type: ignore[no-any-return]


def play(game: int, strategy: WireStrategy, opponent: str) -> float:
    """One game of ``strategy`` against the server bot ``opponent``; the strategy's share of the win."""
    rules = RULESET
    variant = rules.variants[(game // 2) % len(rules.variants)].name
    mine = game % 2
    bot = rules.bot(opponent)
    rng = random.Random(game)
    state, _ = rules.new_game(rules.configure(variant, None, 2), Rng(b"client-bot-%d" % game, "setup"))
    version = 0
    while awaited := rules.awaiting(state):
        seat = awaited[0]
        if seat == mine:
            moves = [rules.commands.dump(m) for m in rules.legal_moves(state, seat)]
            view = rules.view(state, Viewer(seat=seat))
            document = {"game": rules.slug, "variant": variant, "status": "active", "your_seats": [seat], "view": view}
            move = rules.parse_move(strategy(view, moves, document))
        else:
            move = choose_move(rules, bot, state, seat, rng)
        for event in rules.decide(state, seat, move, Rng(b"client-bot-%d" % game, f"v{version}")):
            state = rules.evolve(state, event)
        version += 1
    outcome = rules.outcome(state)
    assert outcome is not None
    return (1.0 / len(outcome.winners)) if mine in outcome.winners else 0.0


def win_rate(strategy: WireStrategy, opponent: str, games: range) -> float:
    return sum(play(g, strategy, opponent) for g in games) / len(games)


def uniform(seed: int = 0) -> WireStrategy:
    """The baseline: a client strategy uniform over its legal moves."""
    rng = random.Random(seed)
    return lambda view, moves, game: rng.choice(moves)


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    for name, strategy in (("examples/tarasque_bot.py", example_strategy()), ("a uniform client strategy", uniform())):
        for opponent in ("random", "greedy"):
            start = time.perf_counter()
            rate = win_rate(strategy, opponent, range(games))
            print(
                f"tarasque, 2 players: {name} against the server's {opponent} bot "
                f"won {100 * rate:.1f}% of {games} games ({time.perf_counter() - start:.1f} s)"
            )


if __name__ == "__main__":
    main()
