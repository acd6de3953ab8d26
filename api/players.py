"""Players: registration (the token is shown once) and the caller's own account."""

from __future__ import annotations

from typing import Any

from api import schemas
from api.auth import required_player
from api.context import current_platform
from api.parser import blueprint

blp = blueprint("players", "Register players and manage your account.")


@blp.route("/players", methods=["POST"])
@blp.contract(auth="none")
@blp.arguments(schemas.PlayerCreate())
@blp.response(201, schemas.PlayerWithToken())
def create_player(body: dict[str, Any]) -> dict[str, Any]:
    """Register a human or a bot; the response's token is shown only once."""
    player, token = current_platform().accounts.register(body["name"], body["kind"])
    return {**player.to_json(), "token": token}


@blp.route("/me", methods=["GET"])
@blp.contract(auth="required")
@blp.response(200, schemas.Player())
def me() -> dict[str, Any]:
    """The caller's account."""
    return required_player().to_json()


@blp.route("/me/webhook", methods=["PUT"])
@blp.contract(auth="required")
@blp.arguments(schemas.WebhookUpdate())
@blp.response(200, schemas.PlayerWithWebhookSecret())
def set_webhook(body: dict[str, Any]) -> dict[str, Any]:
    """Register (or clear, with null) the URL that receives the account events of the chosen
    types (turn reminders by default); a URL's signing secret is shown only in this response."""
    player, secret = current_platform().accounts.set_webhook(required_player().id, body["url"])
    events = current_platform().webhooks.subscribe(player.id, body["events"] if body["url"] else None)
    return {**player.to_json(), "webhook_events": events, **({"webhook_secret": secret} if secret else {})}


@blp.route("/me/inbox", methods=["GET"])
@blp.contract(auth="required")
@blp.response(200, schemas.Inbox())
def inbox() -> dict[str, Any]:
    """Games awaiting your decision (soonest deadline first), reminders and invitations."""
    player = required_player()
    return current_platform().timers.inbox_of(player.id)


@blp.route("/me/vacation", methods=["GET"])
@blp.contract(auth="required")
@blp.response(200, schemas.Vacation())
def vacation() -> dict[str, Any]:
    """Your vacation days and what is left of each year's allowance."""
    return current_platform().vacations.summary(required_player().id)


@blp.route("/me/vacation", methods=["POST"])
@blp.contract(auth="required")
@blp.arguments(schemas.VacationRequest())
@blp.response(201, schemas.Vacation())
def declare_vacation(body: dict[str, Any]) -> dict[str, Any]:
    """Declare vacation days: your clocks stand still on them in all your games."""
    return current_platform().vacations.declare(required_player().id, body["start"], body["days"])
