"""The forms of invitations and of "play now": invite more players to one's open table, accept an
invitation (and go to its table), decline it with a reason, or sit at the open table of a game
that has waited longest. Each checks the session's CSRF token (``api.web.forms.signed_in``) and
calls the service the API's route calls (``POST /games/{id}/invitations``,
``POST /invitations/{id}/accept``, ``/decline``, ``POST /play-now``)."""

from __future__ import annotations

from flask import Response, request, url_for
from marshmallow import ValidationError

from api import game_schemas
from api.context import current_platform
from api.parser import page_contract
from api.web import inbox_page, pages
from api.web.forms import acting, see_other, signed_in
from api.web.page_words import said
from api.web.pages import web


@web.route("/games/<game_id>/invite", methods=["POST"])
@page_contract(auth="required", scope="play")
def invite_to_table(game_id: str) -> Response | tuple[str, int]:
    """The creator of a table not started invites more people or bot accounts by name (commas
    between them), as the lobby's form does when it opens one."""
    me = signed_in()
    names = [n.strip() for n in request.form.get("invite", "").split(",") if n.strip()]
    try:  # the API's own schema: the form keeps the route's rules
        body = game_schemas.InviteRequest().load({"invite": names})
    except ValidationError:
        return pages.game_page(game_id, [said(_wrong_names(names))]), 400

    def act() -> Response:
        current_platform().seating.invite(game_id, me.id, body["invite"])
        return see_other(url_for("web.game_page", game_id=game_id))

    return acting(act, lambda errors: pages.game_page(game_id, errors))


@web.route("/invitations/<invitation_id>/accept", methods=["POST"])
@page_contract(auth="required", scope="play")
def accept_invitation(invitation_id: str) -> Response | tuple[str, int]:
    me = signed_in()

    def act() -> Response:
        game = current_platform().seating.accept(invitation_id, me)
        return see_other(url_for("web.game_page", game_id=str(game.id)))

    return acting(act, lambda errors: inbox_page.inbox(errors))


@web.route("/invitations/<invitation_id>/decline", methods=["POST"])
@page_contract(auth="required", scope="play")
def decline_invitation(invitation_id: str) -> Response | tuple[str, int]:
    me = signed_in()

    def act() -> Response:
        declined = current_platform().invitations.decline(invitation_id, me, request.form.get("reason", "generic"))
        if request.form.get("back") == "table":  # declined on the table's own page
            return see_other(url_for("web.game_page", game_id=declined["game_id"]))
        return see_other(url_for("web.inbox") + "#invitations-heading")

    return acting(act, lambda errors: inbox_page.inbox(errors))


@web.route("/play-now", methods=["POST"])
@page_contract(auth="required", scope="play")
def play_now() -> Response | tuple[str, int]:
    """Seats the signed-in person at a public table of the chosen game, or opens one."""
    me = signed_in()

    def act() -> Response:
        game = current_platform().seating.play_now(me, request.form.get("game", ""))
        return see_other(url_for("web.game_page", game_id=str(game.id)))

    return acting(act, lambda errors: pages.lobby(errors))


def _wrong_names(names: list[str]) -> str:
    """Why the invite form's names were refused, in words."""
    if not names:
        return "write the names of the players to invite, separated by commas"
    if len(names) > game_schemas.MAX_INVITES:
        return f"invite at most {game_schemas.MAX_INVITES} players at once"
    return "nobody has a name that long: check the names"
