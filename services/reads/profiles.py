"""Player profiles and leaderboards, read from the rating read models.

A profile shows what any player may know of another: name, kind, ratings per game, games
finished and won, and recent *ended* games only (a running game's seats stay where its own
document shows them). Server bots have no account; their profile comes from the games they
played, and their owner is the server. A server bot is named by its level, as the games' seats and
leaderboards name it ("Level 3 bot", ``server_bot_name``), and its profile says at which level of
each game's ladder it plays. A bot account registered by a player
(``POST /me/bots``) names that player as its owner.
"""

from __future__ import annotations

from typing import Any

from domain.kernel import ConfigError, all_games, find_game
from domain.kernel.narration import display_name
from services.accounts.players import SERVER_BOT_PREFIX, Accounts
from services.common.errors import GameNotFound, PlayerNotFound
from services.common.ports import RatingRows
from services.reads import rating_scale

PROVISIONAL_GAMES = 10
"""Rated games of a game below which a player's rating there is provisional (and off the default
leaderboard): sigma is still large and one result moves it far."""
RECENT_GAMES = 10
SERVER_OWNER = {"id": None, "name": "Dragonhall server"}


class Profiles:
    """Profiles and leaderboards over the accounts and the rating read models."""

    def __init__(self, accounts: Accounts, views: RatingRows) -> None:
        self.accounts = accounts
        self.views = views

    def profile(self, player_id: str) -> dict[str, Any]:
        """``PlayerNotFound`` for an id that is neither an account nor a server bot of a game."""
        head = self._server_bot(player_id) if player_id.startswith(SERVER_BOT_PREFIX) else self._account(player_id)
        ratings = [rating_json(r) for r in self.views.ratings_of(player_id)]
        recent = [_result(r) for r in self.views.results_of(player_id, RECENT_GAMES)]
        return {**head, "ratings": ratings, "games": self.views.record_of(player_id), "recent_games": recent}

    def _account(self, player_id: str) -> dict[str, Any]:
        player = self.accounts.get(player_id)
        owner = self.accounts.owner_of(player_id) if player.kind == "bot" else None
        return {
            "id": player.id,
            "name": player.name,
            "kind": player.kind,
            "bot": player.kind == "bot",
            "server_bot": False,
            "created_at": player.created_at,
            "owner": None if owner is None else {"id": owner.id, "name": owner.name},
            "levels": [],
        }

    def _server_bot(self, player_id: str) -> dict[str, Any]:
        bot = player_id.removeprefix(SERVER_BOT_PREFIX)
        if not any(bot in r.bots for r in all_games()):
            raise PlayerNotFound(f"no player {player_id}")
        return {
            "id": player_id,
            "name": server_bot_name(bot),
            "kind": "bot",
            "bot": True,
            "server_bot": True,
            "created_at": None,
            "owner": SERVER_OWNER,
            "levels": bot_levels(bot),
        }

    def history(self, player_id: str, game: str, limit: int, offset: int) -> dict[str, Any]:
        """The player's rated games of ``game``, latest first, each with the rating before and after.
        ``PlayerNotFound`` and ``GameNotFound`` as for a profile and a leaderboard."""
        slug = _slug(game)
        if not player_id.startswith(SERVER_BOT_PREFIX):
            self.accounts.get(player_id)
        else:
            self._server_bot(player_id)
        rows = self.views.rating_history(player_id, slug, limit, offset)
        entries = [
            {k: r[k] for k in ("n", "game_id", "place", "seats", "mu_before", "sigma_before", "mu", "sigma", "at")}
            for r in rows
        ]
        return {"player_id": player_id, "game": slug, "offset": offset, "history": entries}

    def leaderboard(
        self,
        game: str,
        limit: int,
        offset: int,
        provisional: bool,
        kind: str | None = None,
        order: str = "conservative",
    ) -> dict[str, Any]:
        """Players of ``game`` (of ``kind``, human or bot, if given), best first: by conservative
        rating (mu - 3 sigma), or with ``order="rating"`` settled players first, each part by the
        rating people read (mu); provisional ratings only when asked. ``GameNotFound`` for a
        game not in the catalog."""
        slug = _slug(game)
        least = 0 if provisional else PROVISIONAL_GAMES
        settled = PROVISIONAL_GAMES if order == "rating" else None
        rows = self.views.leaderboard(slug, least, limit, offset, kind, settled)
        players = [
            {"rank": offset + i + 1, "player_id": r["player_id"], "name": _board_name(slug, r), "kind": r["kind"],
             "bot": r["kind"] == "bot", **rating_json(r)}
            for i, r in enumerate(rows)
        ]  # fmt: skip
        total = self.views.leaderboard_size(slug, least, kind)
        return {"game": slug, "total": total, "offset": offset, "players": players}


def _board_name(slug: str, row: dict[str, Any]) -> str:
    """A leaderboard's name for a player: a server bot by its level in the game's ladder
    ("Level 4 bot"), as the game's seats name it; anyone else by the account's name."""
    if not str(row["player_id"]).startswith(SERVER_BOT_PREFIX):
        return str(row["name"])
    return display_name({"seat": 0, "bot": row["player_id"].removeprefix(SERVER_BOT_PREFIX)}, find_game(slug).bot_title)


def bot_levels(bot: str) -> list[dict[str, Any]]:
    """Where the server bot stands in each game's ladder (``Ruleset.ladder``), game by game:
    ``{game, level, title, about}``; nothing for a game whose ladder does not hold it."""
    return [
        {"game": r.slug, "level": n, "title": f"Level {n}", "about": rung.about}
        for r in all_games()
        for n, rung in enumerate(r.ladder, 1)
        if rung.bot == bot
    ]


def server_bot_name(bot: str) -> str:
    """A server bot's name across the games, for its profile: by its level ("Level 3 bot") as each
    game's seats and leaderboard name it (``domain.kernel.narration.display_name``); by its levels
    when the ladders put it at different ones ("Level 2 or Level 3 bot"); by its own name ("Random
    bot") when no game's ladder holds it."""
    titles = list(dict.fromkeys(level["title"] for level in bot_levels(bot)))
    return display_name({"seat": 0, "bot": bot}, (lambda _: " or ".join(titles)) if titles else None)


def _slug(game: str) -> str:
    try:
        return find_game(game).slug
    except ConfigError:
        raise GameNotFound(f"no game {game!r} in the catalog") from None


def rating_json(row: dict[str, Any]) -> dict[str, Any]:
    """A rating as the API shows it: the estimate (mu), its uncertainty (sigma), the conservative
    rating leaderboards sort by (mu - 3 sigma), both on the familiar scale people read
    (``services.reads.rating_scale``), and whether it is still provisional."""
    return {
        "game": row["game"],
        "mu": row["mu"],
        "sigma": row["sigma"],
        "rating": row["ordinal"],
        "display_rating": rating_scale.rating(row["mu"]),
        "display_uncertainty": rating_scale.uncertainty(row["sigma"]),
        "games": row["games"],
        "wins": row["wins"],
        "provisional": row["games"] < PROVISIONAL_GAMES,
    }


def _result(row: dict[str, Any]) -> dict[str, Any]:
    return {
        "game_id": row["game_id"],
        "game": row["game"],
        "variant": row["variant"],
        "status": row["status"],
        "seat": row["seat"],
        "place": row["place"],
        "seats": row["seats"],
        "rated": bool(row["rated"]),
        "ended_at": row["ended_at"],
    }
