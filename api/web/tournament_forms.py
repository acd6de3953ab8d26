"""A tournament's forms besides registering (``api.web.competition_pages``): withdraw oneself or a
bot of one's own before the start, and the organiser's start-now and cancel. Each checks the
session's CSRF token (``api.web.forms.signed_in``) and calls the service the API's route calls."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Response, request, url_for

from api.context import current_platform
from api.parser import page_contract
from api.web.competition_pages import tournament_page
from api.web.forms import acting, see_other, signed_in
from api.web.pages import web


def _then_page(tournament_id: str, act: Callable[[], Any]) -> Response | tuple[str, int]:
    def run() -> Response:
        act()
        return see_other(url_for("web.tournament_page", tournament_id=tournament_id))

    return acting(run, lambda errors: tournament_page(tournament_id, errors))


@web.route("/tournaments/<tournament_id>/withdraw", methods=["POST"])
@page_contract(auth="required", scope="play")
def withdraw_from_tournament(tournament_id: str) -> Response | tuple[str, int]:
    me = signed_in()
    entrant = request.form.get("player_id") or None
    return _then_page(tournament_id, lambda: current_platform().tournaments.withdraw(tournament_id, me, entrant))


@web.route("/tournaments/<tournament_id>/start", methods=["POST"])
@page_contract(auth="required", scope="play")
def start_tournament(tournament_id: str) -> Response | tuple[str, int]:
    me = signed_in()
    return _then_page(tournament_id, lambda: current_platform().tournaments.start_now(tournament_id, me))


@web.route("/tournaments/<tournament_id>/cancel", methods=["POST"])
@page_contract(auth="required", scope="play")
def cancel_tournament(tournament_id: str) -> Response | tuple[str, int]:
    me = signed_in()
    return _then_page(tournament_id, lambda: current_platform().tournaments.cancel(tournament_id, me))
