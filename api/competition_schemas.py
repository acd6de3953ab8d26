"""marshmallow schemas of profiles, leaderboards and tournaments (``api.players``, ``api.competition``)."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from api.game_schemas import TimeControl, options_field
from api.schema_fields import LARGEST, MAX_PLAYER_ID, MAX_SECONDS, BotName, GameSlug, VariantName, ahead, strict_int
from services.competition.tournament_notices import DEFAULT_NOTICE, LEAST_NOTICE, MOST_NOTICE


class Rating(Schema):
    game = fields.String(required=True)
    mu = fields.Float(required=True, metadata={"description": "The estimated skill (OpenSkill Plackett-Luce)."})
    sigma = fields.Float(required=True, metadata={"description": "The uncertainty of mu (one standard deviation)."})
    rating = fields.Float(
        required=True, metadata={"description": "The conservative rating, mu - 3 sigma, that leaderboards sort by."}
    )
    display_rating = fields.Integer(
        required=True,
        metadata={
            "description": "The rating as people read it: 1500 + 29.48 (mu - 25), never below 0; a newcomer's is "
            "1500, and 400 points apart the stronger of two settled players wins ten games in eleven "
            "(docs/ratings.md)."
        },
    )
    display_uncertainty = fields.Integer(
        required=True, metadata={"description": "sigma on the same scale: how far display_rating may be off."}
    )
    games = fields.Integer(required=True, metadata={"description": "Rated games of this game played."})
    wins = fields.Integer(required=True)
    provisional = fields.Boolean(required=True, metadata={"description": "Fewer than 10 rated games of this game."})


class Owner(Schema):
    id = fields.String(allow_none=True, metadata={"description": "The owning account; null for the server."})
    name = fields.String(required=True)


class GamesRecord(Schema):
    played = fields.Integer(required=True, metadata={"description": "Finished games (not sandboxes)."})
    won = fields.Integer(required=True, metadata={"description": "Finished games with a seat placed first."})


class RecentGame(Schema):
    game_id = fields.String(required=True)
    game = fields.String(required=True)
    variant = fields.String(required=True)
    status = fields.String(required=True, metadata={"description": "finished or abandoned."})
    seat = fields.Integer(required=True)
    place = fields.Integer(allow_none=True)
    seats = fields.Integer(required=True)
    rated = fields.Boolean(required=True)
    ended_at = fields.String(required=True)


class ServerBotLevel(Schema):
    game = fields.String(required=True)
    level = fields.Integer(required=True, metadata={"description": "From 1, the weakest."})
    title = fields.String(required=True, metadata={"description": "`Level N`, the name people read."})
    about = fields.String(required=True, metadata={"description": "How the bot plays, in a phrase."})


class Profile(Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    kind = fields.String(required=True)
    bot = fields.Boolean(required=True)
    server_bot = fields.Boolean(required=True, metadata={"description": "A bot run by the server (no account)."})
    created_at = fields.String(allow_none=True)
    owner = fields.Nested(Owner, allow_none=True, metadata={"description": "For a bot: who runs it."})
    ratings = fields.List(fields.Nested(Rating), required=True)
    games = fields.Nested(GamesRecord, required=True)
    recent_games = fields.List(fields.Nested(RecentGame), required=True, metadata={"description": "Ended games."})
    levels = fields.List(
        fields.Nested(ServerBotLevel),
        required=True,
        metadata={"description": "For a server bot: its level in each game's ladder (empty for an account)."},
    )


class HistoryEntry(Schema):
    n = fields.Integer(required=True, metadata={"description": "The player's rated game of this game, from 1."})
    game_id = fields.String(required=True)
    place = fields.Integer(required=True)
    seats = fields.Integer(required=True)
    mu_before = fields.Float(required=True)
    sigma_before = fields.Float(required=True)
    mu = fields.Float(required=True)
    sigma = fields.Float(required=True)
    at = fields.String(required=True)


class RatingHistory(Schema):
    player_id = fields.String(required=True)
    game = fields.String(required=True)
    offset = fields.Integer(required=True)
    history = fields.List(fields.Nested(HistoryEntry), required=True, metadata={"description": "Latest first."})


class PageOnly(Schema):
    limit = fields.Integer(load_default=50, validate=validate.Range(1, 200))
    offset = fields.Integer(load_default=0, validate=validate.Range(0, LARGEST))


class BotCreate(Schema):
    name = fields.String(required=True, validate=validate.Length(1, 80))


class LeaderboardArgs(Schema):
    limit = fields.Integer(load_default=50, validate=validate.Range(1, 200))
    offset = fields.Integer(load_default=0, validate=validate.Range(0, LARGEST))
    provisional = fields.Boolean(
        load_default=False, metadata={"description": "Also list players whose rating is still provisional."}
    )
    kind = fields.String(
        validate=validate.OneOf(("human", "bot")),
        metadata={"description": "Only people (human) or only bots (server bots and bot accounts)."},
    )
    order = fields.String(
        load_default="conservative",
        validate=validate.OneOf(("conservative", "rating")),
        metadata={
            "description": "conservative: by mu - 3 sigma; rating: settled players (10 rated games or more) "
            "first, each part by display_rating."
        },
    )


class LeaderboardEntry(Rating):
    rank = fields.Integer(required=True)
    player_id = fields.String(required=True)
    name = fields.String(required=True)
    kind = fields.String(required=True)
    bot = fields.Boolean(required=True)


class Leaderboard(Schema):
    game = fields.String(required=True)
    total = fields.Integer(required=True, metadata={"description": "Players on this leaderboard in all pages."})
    offset = fields.Integer(required=True)
    players = fields.List(fields.Nested(LeaderboardEntry), required=True)


class TournamentCreate(Schema):
    name = fields.String(required=True, validate=validate.Length(1, 80))
    game = GameSlug(required=True, metadata={"description": "A game slug from GET /api/v1/catalog."})
    variant = VariantName(load_default=None, allow_none=True)
    options = options_field()
    seats = strict_int(
        required=True, validate=validate.Range(2, 6), metadata={"description": "Seats per table (2 to 6)."}
    )
    format = fields.String(required=True, validate=validate.OneOf(("swiss", "round_robin")))
    rounds = strict_int(required=True, validate=validate.Range(1, 50))
    capacity = strict_int(required=True, validate=validate.Range(2, 512))
    time_control = fields.Nested(TimeControl, load_default=None, allow_none=True)
    starts_at = ahead("Registration closes; round 1 is paired.", required=True)
    round_seconds = strict_int(
        required=True,
        validate=validate.Range(5, MAX_SECONDS),
        metadata={
            "description": "Each round's deadline, from its games' start: tables still running then score as ties."
        },
    )
    notice_seconds = strict_int(
        load_default=DEFAULT_NOTICE,
        validate=validate.Range(LEAST_NOTICE, MOST_NOTICE),
        metadata={
            "description": "From a round's pairing to its games' start: each player is told their table then "
            f"(a tournament_round account event) and has this long to arrive. Default {DEFAULT_NOTICE}."
        },
    )


class Registration(Schema):
    player_id = fields.String(
        validate=validate.Length(1, MAX_PLAYER_ID),
        metadata={"description": "A bot account you own (POST /me/bots); yourself when absent."},
    )
    bot = BotName(
        metadata={"description": "For a bot account: the server plays its seats with this bot of the game."},
    )


class TournamentTable(Schema):
    table = fields.Integer(required=True)
    game_id = fields.String(allow_none=True, metadata={"description": "Null for a bye."})
    players = fields.List(fields.String(), required=True, metadata={"description": "Player ids by seat."})
    bye = fields.Boolean(required=True)
    places = fields.List(fields.Integer(), allow_none=True, metadata={"description": "Null until the table ends."})
    unfinished = fields.Boolean(required=True, metadata={"description": "Still running at the round's deadline."})


class TournamentRound(Schema):
    round = fields.Integer(required=True)
    tables = fields.List(fields.Nested(TournamentTable), required=True)


class Entrant(Schema):
    player_id = fields.String(required=True)
    name = fields.String(required=True)
    kind = fields.String(required=True)
    bot = fields.String(allow_none=True, metadata={"description": "The server bot playing this account's seats."})


class Standing(Schema):
    rank = fields.Integer(required=True)
    player_id = fields.String(required=True)
    points = fields.Float(required=True)
    buchholz = fields.Float(required=True)
    wins = fields.Integer(required=True)


class TournamentSummary(Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    game = fields.String(required=True)
    variant = fields.String(required=True)
    seats = fields.Integer(required=True)
    format = fields.String(required=True)
    rounds_planned = fields.Integer(required=True)
    capacity = fields.Integer(required=True)
    time_control = fields.Raw(required=True)
    starts_at = fields.String(required=True)
    round_seconds = fields.Integer(required=True)
    creator = fields.String(required=True)
    status = fields.String(required=True, metadata={"description": "registering, running, finished or cancelled."})
    round = fields.Integer(required=True, metadata={"description": "The round being played (0 before the start)."})
    round_deadline = fields.String(allow_none=True)


class Tournament(TournamentSummary):
    notice_seconds = fields.Integer(required=True, metadata={"description": "From a round's pairing to its games."})
    players = fields.List(fields.Nested(Entrant), required=True)
    rounds = fields.List(fields.Nested(TournamentRound), required=True)
    standings = fields.List(fields.Nested(Standing), required=True)


class TournamentList(Schema):
    tournaments = fields.List(fields.Nested(TournamentSummary), required=True)


class TournamentListArgs(Schema):
    status = fields.String(validate=validate.OneOf(("registering", "running", "finished", "cancelled")))
    limit = fields.Integer(load_default=50, validate=validate.Range(1, 200))
    offset = fields.Integer(load_default=0, validate=validate.Range(0, LARGEST))
