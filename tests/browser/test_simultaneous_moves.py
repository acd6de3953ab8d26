"""Two players decide at once (Drachenreiter's secret speeds): a person's move that reaches the server
just after the other player's is not refused as "the game moved on". The other's decision changed
nothing the person decides on, so the page sends the same move again at the game's new version."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.board_play import hold_a_move_from_the_board
from tests.browser.pages import wait_for_turn_or_end
from tests.browser.reading import register, sign_in, table
from tests.support.processes import Server

pytestmark = pytest.mark.slow


@pytest.mark.expect_http_error(409, "/moves")
def test_a_speed_set_just_after_the_other_player_s_is_played_not_refused(page: Page, web_server: Server) -> None:
    ann, bruno = register(web_server, "ann at once"), register(web_server, "bruno at once")
    gid = table(web_server, "drachenreiter", [ann, bruno])
    sign_in(page, web_server.base, ann)
    page.goto(f"{web_server.base}/games/{gid}")
    assert wait_for_turn_or_end(page)
    status, game = web_server.call("GET", f"/api/v1/games/{gid}", token=ann.token)
    assert status == 200 and sorted(game["awaiting"]) == [0, 1], "both set their speed at once"

    held = hold_a_move_from_the_board(page)
    status, legal = web_server.call("GET", f"/api/v1/games/{gid}/legal-moves?limit=1000", token=bruno.token)
    played = {"move": legal["moves"][0], "expected_version": legal["version"]}
    assert web_server.call("POST", f"/api/v1/games/{gid}/moves", played, bruno.token)[0] == 201
    for route in held:
        route.continue_()  # reaches the server after bruno's speed: stale, then sent again
    page.unroute("**/api/v1/games/*/moves")

    for _ in range(150):  # the page reads the events since, finds only bruno's, and sends again
        _, after = web_server.call("GET", f"/api/v1/games/{gid}/events?after={legal['version']}", token=ann.token)
        if any(e["type"] == "SpeedSet" and e["data"]["seat"] == 0 for e in after["events"]):
            break
        page.wait_for_timeout(100)
    else:
        raise AssertionError("ann's speed was not played: the page asked her to choose again")
    expect(page.locator("#move-error")).not_to_contain_text("moved on")
