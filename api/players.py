"""Players: registration (the token is shown once) and the caller's own account, its tokens included."""

from __future__ import annotations

from typing import Any

from api import competition_schemas, people_schemas
from api.actions import register_person
from api.auth import optional_player, required_player
from api.context import current_platform
from api.parser import blueprint

blp = blueprint("players", "Register players and manage your account.")


@blp.route("/players", methods=["POST"])
@blp.contract(auth="none", scope=None, rate_limit="register", errors=[409])
@blp.arguments(people_schemas.PlayerCreate())
@blp.response(201, people_schemas.PlayerWithCodes())
def create_player(body: dict[str, Any]) -> dict[str, Any]:
    """Register a human or a bot; the response's token is shown only once. It holds every scope
    (``read``, ``play``, ``bot``, ``account``): make narrower tokens with POST /me/tokens. With a
    ``password``, the account can also sign in by name (POST /sessions), and the response holds
    its recovery codes, shown only once. 409 ``name_taken`` for a name another account holds, or
    one that differs from it only in case or in letters that look alike."""
    return register_person(body["name"], body["kind"], body.get("password"))


@blp.route("/players", methods=["GET"])
@blp.contract(auth="optional", scope="read")
@blp.arguments(people_schemas.NameSearchArgs(), location="query")
@blp.response(200, people_schemas.PlayerList())
def search_players(args: dict[str, Any]) -> dict[str, Any]:
    """Accounts whose name holds ``q`` (case ignored), names starting with it first: the
    suggestions of a form that invites players by name."""
    optional_player()
    return {"players": current_platform().accounts.names.search(args["q"], args["limit"])}


@blp.route("/players/<player_id>", methods=["GET"])
@blp.contract(auth="optional", scope="read", errors=[404])
@blp.response(200, competition_schemas.Profile())
def profile(player_id: str) -> dict[str, Any]:
    """A player's profile: name, kind, ratings per game (with their uncertainty), games finished
    and won, recent ended games, and for a bot its owner. Server bots have profiles too
    (``server-bot:<bot>``)."""
    return current_platform().profiles.profile(player_id)


@blp.route("/players/<player_id>/ratings/<game>", methods=["GET"])
@blp.contract(auth="optional", scope="read", errors=[404])
@blp.arguments(competition_schemas.PageOnly(), location="query")
@blp.response(200, competition_schemas.RatingHistory())
def rating_history(args: dict[str, Any], player_id: str, game: str) -> dict[str, Any]:
    """A player's rating history in one game: each rated game, latest first, with the rating
    (mu, sigma) before and after it."""
    optional_player()
    return current_platform().profiles.history(player_id, game, args["limit"], args["offset"])


@blp.route("/me/bots", methods=["POST"])
@blp.contract(auth="required", scope="account", errors=[409])
@blp.arguments(competition_schemas.BotCreate())
@blp.response(201, people_schemas.PlayerWithToken())
def create_bot(body: dict[str, Any]) -> dict[str, Any]:
    """Register a bot account that you own: its profile names you as its owner. The response's
    token (every scope) is shown only once."""
    bot, token = current_platform().accounts.register_bot(required_player(), body["name"])
    return {**bot.to_json(), "token": token}


@blp.route("/me/bots", methods=["GET"])
@blp.contract(auth="required", scope="read")
@blp.response(200, people_schemas.PlayerList())
def my_bots() -> dict[str, Any]:
    """The bot accounts you registered (POST /me/bots), by name."""
    bots = current_platform().accounts.bots_of(required_player().id)
    return {"players": [{"id": b.id, "name": b.name, "kind": b.kind} for b in bots]}


@blp.route("/me", methods=["GET"])
@blp.contract(auth="required", scope="read")
@blp.response(200, people_schemas.Player())
def me() -> dict[str, Any]:
    """The caller's account."""
    return required_player().to_json()


@blp.route("/me/webhook", methods=["PUT"])
@blp.contract(auth="required", scope="account")
@blp.arguments(people_schemas.WebhookUpdate())
@blp.response(200, people_schemas.PlayerWithWebhookSecret())
def set_webhook(body: dict[str, Any]) -> dict[str, Any]:
    """Register (or clear, with null) the URL that receives the account events of the chosen
    types (turn reminders by default); a URL's signing secret is shown only in this response."""
    player, secret = current_platform().accounts.set_webhook(required_player().id, body["url"])
    events = current_platform().webhooks.subscribe(player.id, body["events"] if body["url"] else None)
    return {**player.to_json(), "webhook_events": events, **({"webhook_secret": secret} if secret else {})}


@blp.route("/me/inbox", methods=["GET"])
@blp.contract(auth="required", scope="read")
@blp.response(200, people_schemas.Inbox())
def inbox() -> dict[str, Any]:
    """Games awaiting your decision (soonest deadline first), reminders and invitations."""
    player = required_player()
    return current_platform().timers.inbox_of(player.id)


@blp.route("/me/vacation", methods=["GET"])
@blp.contract(auth="required", scope="read")
@blp.response(200, people_schemas.Vacation())
def vacation() -> dict[str, Any]:
    """Your vacation days and what is left of each year's allowance."""
    return current_platform().vacations.summary(required_player().id)


@blp.route("/me/vacation", methods=["POST"])
@blp.contract(auth="required", scope="account")
@blp.arguments(people_schemas.VacationRequest())
@blp.response(201, people_schemas.Vacation())
def declare_vacation(body: dict[str, Any]) -> dict[str, Any]:
    """Declare vacation days: your clocks stand still on them in all your games. They are the
    account's and cannot be withdrawn, so a bot's token (read and play) may not declare them."""
    return current_platform().vacations.declare(required_player().id, body["start"], body["days"])


@blp.route("/me/tokens", methods=["POST"])
@blp.contract(auth="required", scope="account")
@blp.arguments(people_schemas.TokenCreate())
@blp.response(201, people_schemas.TokenWithSecret())
def create_token(body: dict[str, Any]) -> dict[str, Any]:
    """Make another token of your account, with the scopes named; its secret is shown only in this
    response. A token makes only tokens within its own scopes (403 ``insufficient_scope``)."""
    record, secret = current_platform().accounts.create_token(required_player(), body["name"], body["scopes"])
    return {**record, "token": secret}


@blp.route("/me/tokens", methods=["GET"])
@blp.contract(auth="required", scope="account")
@blp.response(200, people_schemas.TokenList())
def list_tokens() -> dict[str, Any]:
    """Your account's live tokens, without their secrets."""
    return {"tokens": current_platform().accounts.tokens(required_player().id)}


@blp.route("/me/tokens/<token_id>", methods=["DELETE"])
@blp.contract(auth="required", scope="account", errors=[404])
@blp.response(204)
def revoke_token(token_id: str) -> None:
    """Revoke one of your tokens: every process refuses it from its next request on, and a stream
    opened with it ends. 404 for an id that is not a live token of your account."""
    current_platform().accounts.revoke_token(required_player().id, token_id)
