"""Competitive play: leaderboards (from the rating read models) and tournaments
(``services.competition.tournaments``)."""

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
    """The players of a game by conservative rating (mu - 3 sigma), best first, a page at a time;
    with ``order=rating``, settled players first, each part by the rating people read. Provisional
    ratings (fewer than 10 rated games) are listed only with ``provisional=true``; ``kind`` keeps
    only people or only bots."""
    optional_player()
    return current_platform().profiles.leaderboard(
        game, args["limit"], args["offset"], args["provisional"], args.get("kind"), args["order"]
    )


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


@blp.route("/tournaments/<tournament_id>/registrations/<player_id>", methods=["DELETE"])
@blp.contract(auth="required", scope="play", errors=[403, 404, 409])
@blp.response(200, competition_schemas.Tournament())
def withdraw(tournament_id: str, player_id: str) -> dict[str, Any]:
    """Withdraw yourself, or a bot account you own, before the tournament starts (409 after);
    withdrawing someone not registered changes nothing."""
    return current_platform().tournaments.withdraw(tournament_id, required_player(), player_id)


@blp.route("/tournaments/<tournament_id>/start", methods=["POST"])
@blp.contract(auth="required", scope="play", errors=[403, 404, 409])
@blp.response(200, competition_schemas.Tournament())
def start_tournament(tournament_id: str) -> dict[str, Any]:
    """The organiser starts the tournament now: registration closes and round 1 is paired, its
    games starting after the tournament's notice. 409 when it has started, or fewer players are
    registered than the game's fewest seats."""
    return current_platform().tournaments.start_now(tournament_id, required_player())


@blp.route("/tournaments/<tournament_id>/cancel", methods=["POST"])
@blp.contract(auth="required", scope="play", errors=[403, 404, 409])
@blp.response(200, competition_schemas.Tournament())
def cancel_tournament(tournament_id: str) -> dict[str, Any]:
    """The organiser cancels the tournament, before or while it runs: no further round is paired,
    games already made play on, and every entrant is told (``tournament_cancelled``)."""
    return current_platform().tournaments.cancel(tournament_id, required_player())
