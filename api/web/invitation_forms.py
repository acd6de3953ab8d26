"""The forms of invitations and of "play now": accept an invitation (and go to its table),
decline it with a reason, or sit at the open table of a game that has waited longest. Each
checks the session's CSRF token (``api.web.forms.signed_in``) and calls the service the
API's route calls (``POST /invitations/{id}/accept``, ``/decline``, ``POST /play-now``)."""

from __future__ import annotations

from flask import Response, request, url_for

from api.context import current_platform
from api.parser import page_contract
from api.web import inbox_page, pages
from api.web.forms import acting, see_other, signed_in
from api.web.pages import web


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
