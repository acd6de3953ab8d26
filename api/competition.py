"""Competitive play: leaderboards (from the rating read models) and tournaments (``services.tournaments``)."""

from __future__ import annotations

from typing import Any

from api import competition_schemas
from api.auth import optional_player, required_player
from api.context import current_platform
from api.parser import blueprint

blp = blueprint("competition", "Leaderboards of rated games, and tournaments of scheduled games.")


@blp.route("/leaderboards/<game>", methods=["GET"])
@blp.contract(auth="optional", scope="read", errors=[404])
@blp.arguments(competition_schemas.LeaderboardArgs(), location="query")
@blp.response(200, competition_schemas.Leaderboard())
def leaderboard(args: dict[str, Any], game: str) -> dict[str, Any]:
    """The players of a game by conservative rating (mu - 3 sigma), best first, a page at a time.
    Provisional ratings (fewer than 10 rated games) are listed only with ``provisional=true``."""
    optional_player()
    return current_platform().profiles.leaderboard(game, args["limit"], args["offset"], args["provisional"])


@blp.route("/tournaments", methods=["POST"])
@blp.contract(auth="required", scope="play")
@blp.arguments(competition_schemas.TournamentCreate())
@blp.response(201, competition_schemas.Tournament())
def create_tournament(body: dict[str, Any]) -> dict[str, Any]:
    """Announce a tournament: round-robin or Swiss, tables of 2 to 6 seats. Accounts register
    until ``starts_at``; then each round's tables are created as scheduled games, and the next
    round is paired when the last table ends or the round's deadline passes."""
    return current_platform().tournaments.create(required_player(), body)


@blp.route("/tournaments", methods=["GET"])
@blp.contract(auth="optional", scope="read")
@blp.arguments(competition_schemas.TournamentListArgs(), location="query")
@blp.response(200, competition_schemas.TournamentList())
def list_tournaments(args: dict[str, Any]) -> dict[str, Any]:
    """Tournaments, latest start first, optionally of one status."""
    optional_player()
    return {"tournaments": current_platform().tournaments.listing(args.get("status"), args["limit"], args["offset"])}


@blp.route("/tournaments/<tournament_id>", methods=["GET"])
@blp.contract(auth="optional", scope="read", errors=[404])
@blp.response(200, competition_schemas.Tournament())
def get_tournament(tournament_id: str) -> dict[str, Any]:
    """The tournament: its players, each round's tables (with their games and places) and the
    standings, with their tie-breaks (docs/ratings.md)."""
    optional_player()
    return current_platform().tournaments.get(tournament_id)


@blp.route("/tournaments/<tournament_id>/registrations", methods=["POST"])
@blp.contract(auth="required", scope="play", errors=[403, 404, 409])
@blp.arguments(competition_schemas.Registration())
@blp.response(201, competition_schemas.Tournament())
def register(body: dict[str, Any], tournament_id: str) -> dict[str, Any]:
    """Register yourself, or a bot account you own (``player_id``, optionally played by one of the
    server's bots: ``bot``), until the tournament starts. 409 once it has started or is full."""
    return current_platform().tournaments.register(
        tournament_id, required_player(), body.get("player_id"), body.get("bot")
    )
