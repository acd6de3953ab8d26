"""The forms of a person's own account, on their profile page: a new password, new recovery
codes, and a bot account of their own (whose token is shown once). Each checks the session's
CSRF token as every form does (``api.web.forms.signed_in``) and calls the service the API's
route calls (``PUT /me/password``, ``POST /me/recovery-codes``, ``POST /me/bots``)."""

from __future__ import annotations

from flask import Response, request, url_for

from api.context import current_platform
from api.parser import page_contract
from api.web import pages
from api.web.competition_pages import player_page
from api.web.forms import acting, see_other, signed_in
from api.web.pages import web


@web.route("/account/password", methods=["POST"])
@page_contract(auth="required", scope="account")
def change_password() -> Response | tuple[str, int]:
    """Sets a new password (typed twice); the profile page is shown next."""
    me = signed_in()
    if request.form.get("password") != request.form.get("password_again"):
        return player_page(me.id, ["The two passwords differ: type the same password twice."]), 400

    def act() -> Response:
        current_platform().credentials.set_password(me.id, request.form.get("password", ""))
        return see_other(url_for("web.player_page", player_id=me.id, saved="password"))

    return acting(act, lambda errors: player_page(me.id, errors))


@web.route("/account/recovery-codes", methods=["POST"])
@page_contract(auth="required", scope="account")
def new_recovery_codes() -> Response:
    """Ten new recovery codes, shown once; the older ones stop working."""
    me = signed_in()
    codes = current_platform().credentials.new_recovery_codes(me.id)
    response = Response(pages.render("codes.html", codes=codes))
    response.headers["Cache-Control"] = "no-store"
    return response


@web.route("/account/bots", methods=["POST"])
@page_contract(auth="required", scope="account")
def new_bot() -> Response | tuple[str, int]:
    """Registers a bot account owned by the signed-in person and shows its token, once."""
    me = signed_in()

    def act() -> Response:
        bot, token = current_platform().accounts.register_bot(me, request.form.get("name", ""))
        response = Response(pages.render("bot_made.html", bot=bot, token=token))
        response.headers["Cache-Control"] = "no-store"
        return response

    return acting(act, lambda errors: player_page(me.id, errors))
