"""Builds the regression corpus: finished games of every game and variant, recorded by the platform.

Run it only when a rules change is meant to alter history (and bump the game's
``engine_version``): ``python -m tests.regression.build_corpus``. Each game is
played by bots on an in-memory platform with a fixed server key, game ids and bot
seeds, and exported as its record (gzipped JSON) under ``tests/regression/corpus/``.
"""

from __future__ import annotations

import gzip
import json
import random
import sys
import uuid
from pathlib import Path
from typing import Any

from rich.progress import track

from domain.kernel import all_games, choose_move
from services.audits.records import game_record
from services.common.config import Settings
from services.common.ports import NullWork

CORPUS = Path(__file__).parent / "corpus"
PER_GAME = 24
KEY = "44" * 32


def plan() -> list[tuple[Any, str, int, int]]:
    """(ruleset, variant, seats, seed) for PER_GAME games of each game, spread over its variants."""
    out = []
    for ruleset in all_games():
        if ruleset.slug == "dice-race":
            continue
        variants = ruleset.variants
        for k in range(PER_GAME):
            v = variants[k % len(variants)]
            seats = v.min_seats + (k // len(variants)) % (v.max_seats - v.min_seats + 1)
            out.append((ruleset, v.name, seats, 1000 + k))
    return out


def play(platform: Any, ruleset: Any, variant: str, seats: int, seed: int, last_first: bool = False) -> dict[str, Any]:
    """A game of server bots, and its record. The corpus's games take a simultaneous phase in seat
    order; ``last_first`` has the last seat awaited answer first, as a server game's seats may."""
    rng = random.Random(seed)
    owner = "corpus"
    game_id = uuid.UUID(int=rng.getrandbits(128), version=4)
    game = platform.games.create_game(owner, ruleset.slug, variant, None, seats, game_id=game_id)
    bots = sorted(ruleset.bots)
    for s in range(seats):
        name = bots[(seed + s) % len(bots)]
        platform.games.take_seat(str(game.id), f"server-bot:{name}", f"{name} bot", "bot", bot=name)
    for _ in range(ruleset.max_decisions + 10):
        game = platform.games.load(str(game.id))
        if game.status != "active":
            break
        seat = game.awaiting[-1 if last_first else 0]
        bot = ruleset.bot(game.seat_info(seat)["bot"])
        command = choose_move(ruleset, bot, game.state, seat, rng, 0.2)
        platform.games.play_for(str(game.id), seat, game.version, lambda g, c=command: c)
    return game_record(platform.games, str(game.id))


def main() -> None:
    from wiring import bootstrap

    platform = bootstrap(
        Settings.from_env({"DRAGONHALL_STORE": "memory", "DRAGONHALL_SECRET_KEY": KEY}), work=NullWork()
    )
    only = set(sys.argv[1:])
    for ruleset, variant, seats, seed in track(plan(), description="recording games"):
        if only and ruleset.slug not in only:
            continue
        record = play(platform, ruleset, variant, seats, seed)
        assert record["audit"]["ok"], record["audit"]
        folder = CORPUS / ruleset.slug
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{variant}-{seats}p-{seed}.json.gz"
        with gzip.open(path, "wt", encoding="utf-8") as f:
            json.dump(record, f, separators=(",", ":"))
    platform.close()


if __name__ == "__main__":
    main()
