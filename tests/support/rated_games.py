"""Playing seeded bot games through a platform's services, and rebuilding its read models from zero.

Used by the ratings tests and ``bench/ratings.py``. Games are played by the server's own bot path
(``workers.bot_turns.bot_choice``) in this thread, without workers, so a run is fixed by its seed:
game ids come from a seeded generator, and a game's seed (and so its bots' choices) from its id.
"""

from __future__ import annotations

import random
import uuid
from collections.abc import Sequence
from typing import Any

from eventsourcing.persistence import InfrastructureFactory, Tracking
from eventsourcing.utils import Environment

from projections.read_models import projections
from projections.views import VIEWS, GameViewsSQL, SQLiteGameViews
from services.play.aggregate import Game
from workers.bot_turns import bot_choice

BUDGET = 10.0
"""The bots' soft time limit: far above what they take, so that no choice falls back to a random
move on a busy machine (``workers.bot_turns.bot_choice``) and a seed fixes every game."""


def seeded_id(rng: random.Random) -> uuid.UUID:
    return uuid.UUID(int=rng.getrandbits(128), version=4)


def play_table(
    platform: Any,
    game: str,
    players: Sequence[tuple[str, str]],
    rng: random.Random,
    variant: str | None = None,
    rated: bool = True,
) -> Game:
    """Seats ``players`` (``(player_id, bot)`` each, a bot playing for that id) at a new table of
    ``game`` and plays it to its end with their bots; returns the finished game."""
    creator = players[0][0]
    table = platform.games.create_game(
        creator, game, variant, None, len(players), settings={"rated": rated}, game_id=seeded_id(rng)
    )
    gid = str(table.id)
    for player_id, bot in players:
        platform.games.take_seat(gid, player_id, player_id, "bot", bot=bot)
    return play_out(platform, gid)


def play_out(platform: Any, gid: str) -> Game:
    """Plays every awaited seat of ``gid`` with its seat's bot until the game ends."""
    games = platform.games
    game = games.load(gid)
    while game.status == "active":
        seat = game.awaiting[0]
        bot = game.seat_info(seat)["bot"]
        seed = platform.seeds.of(game.id)
        games.play_for(gid, seat, game.version, lambda g, s=seat, b=bot, k=seed: bot_choice(g, s, b, BUDGET, k))
        game = games.load(gid)
    return game


def population(strong: str, size: int = 4) -> list[tuple[str, str]]:
    """``size`` players of the ``strong`` bot and ``size`` of the random bot, as ``(player_id, bot)``."""
    return [(f"{strong}-{k}", strong) for k in range(size)] + [(f"random-{k}", "random") for k in range(size)]


def play_population(platform: Any, game: str, pool: Sequence[tuple[str, str]], games: int, seed: int) -> None:
    """``games`` rated games of 2 to 4 seats, each drawn at random from ``pool``."""
    rng = random.Random(seed)
    for _ in range(games):
        play_table(platform, game, rng.sample(list(pool), rng.choice([2, 3, 4])), rng)


def fresh_views() -> GameViewsSQL:
    """Empty read models in a private in-memory SQLite database."""
    env = {
        "PERSISTENCE_MODULE": "eventsourcing.sqlite",
        "SQLITE_DBNAME": f"file:rebuild-{uuid.uuid4().hex}?mode=memory&cache=shared",
    }
    factory = InfrastructureFactory[GameViewsSQL].construct(Environment(VIEWS, env))
    return factory.tracking_recorder(SQLiteGameViews)


def rebuild(store: Any, views: GameViewsSQL | None = None, batch: int = 500) -> GameViewsSQL:
    """The read models rebuilt from zero from every event of ``store``, as a runner would feed them:
    in stream order, in batches, each with the tracking record of its last event."""
    views = views or fresh_views()
    built = projections(views, store, None)
    head = store.recorder.max_notification_id() or 0
    start = 1
    while start <= head:
        notes = store.recorder.select_notifications(start, batch)
        if not notes:
            break
        items = [(store.mapper.to_domain_event(n), Tracking(store.name, n.id)) for n in notes]
        for projection in built:
            projection.process_batch(items)
        start = notes[-1].id + 1
    return views


RATING_TABLES = ("dh_rating_games", "dh_results", "dh_ratings", "dh_rating_history", "dh_rating_seats")


def rating_tables(views: GameViewsSQL) -> dict[str, list[dict[str, Any]]]:
    dump = views.dump()
    return {t: dump[t] for t in RATING_TABLES}


def corpus_events(record: dict[str, Any], players: dict[int, str], gid: uuid.UUID) -> list[Any]:
    """The stored events of a recorded game (``tests/regression/corpus``) as game ``gid`` (the
    corpus reuses ids between games), with seat ``s`` held by ``players[s]``: the corpus seats a
    bot's one server id at several seats, which would make every table self-play (not rated);
    a pool of distinct ids makes them contests."""
    from datetime import datetime

    from services.play.aggregate import rule_event_class

    header = record["header"]
    out = []
    for e in record["events"]:
        fields = dict(e["data"])
        if e["type"] in ("SeatTaken", "Joined"):
            fields["player_id"] = players[fields["seat"]]
        if e["type"] == "Started":
            fields["seats"] = [{**s, "player_id": players[s["seat"]]} for s in fields["seats"]]
        at = datetime.fromisoformat(e["at"])
        common = {"originator_id": gid, "originator_version": e["version"], "timestamp": at}
        if e["source"] == "rules":
            cls: Any = rule_event_class(header["game"], e["type"])
            extra = {"state_hash": e["state_hash"], "awaiting": e["awaiting"], "engine": e["engine"]}
            out.append(cls(**common, data=fields, **extra))
        elif e["type"] == "Created":
            out.append(Game.Created(**common, originator_topic="dragonhall:Game", **fields))
        else:
            out.append(getattr(Game, e["type"])(**common, **fields))
    return out


def corpus_players(record: dict[str, Any], pool: int = 6) -> dict[int, str]:
    """Distinct player ids for a recorded table: ``corpus-<bot>-<k>``, with ``k`` running over a pool
    of ``pool`` per bot from an offset the game id fixes, so the same ids meet at many tables."""
    seats = record["header"]["seats"]
    offset = uuid.UUID(record["header"]["game_id"]).int % pool
    seen: dict[str, int] = {}
    out = {}
    for s in seats:
        k = seen.get(s["bot"], 0)
        seen[s["bot"]] = k + 1
        out[s["seat"]] = f"corpus-{s['bot']}-{(offset + k) % pool}"
    return out
