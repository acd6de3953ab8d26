"""The audit page shows a page of steps at a time, told as the whole log tells them.

It narrates only the steps it shows (a 2,000-event game's whole log cost 60 ms a request), so each
page must still say what the game's log says of those steps, and the step a dispute names keeps
its title when it lies on another page.
"""

from __future__ import annotations

import html
import random
import re
from typing import Any

from api.web.audit_pages import STEPS_PAGE
from services.reads.game_log import narrated_log


def _finished_game(client: Any) -> tuple[str, str, str]:
    ann, bea = client.player("ann"), client.player("bea")
    gid = client.new_game(ann["token"], game="tarasque", players=2)["id"]
    client.seat(gid, ann["token"])
    client.seat(gid, bea["token"])
    rng, games = random.Random(5), client.platform.games
    while (game := games.load(gid)).status == "active":
        seat = rng.choice(game.awaiting)
        move = rng.choice(list(game.ruleset.legal_moves(game.state, seat)))
        games.submit_move(gid, (ann, bea)[seat]["id"], game.ruleset.commands.dump(move))
    return gid, ann["id"], ann["token"]


def test_each_page_of_the_audit_tells_its_steps_as_the_log_does(client: Any) -> None:
    gid, ann, token = _finished_game(client)
    whole = narrated_log(client.platform.queries, gid, ann)["steps"]
    assert len(whole) > 2 * STEPS_PAGE
    last = (len(whole) + STEPS_PAGE - 1) // STEPS_PAGE  # however the steps divide
    for page in (1, 2, last):  # pages count from 1 in the address as on the page
        text = html.unescape(client.page(f"/games/{gid}/audit?page={page}", token).body)
        assert f"Page {page} of {last}" in text
        shown = whole[(page - 1) * STEPS_PAGE : page * STEPS_PAGE]
        assert f'aria-label="Steps {shown[0]["step"]} to {shown[-1]["step"]}"' in text
        titles = re.findall(r"</strong> · (.*?) <span", text)
        assert titles == [s["title"] for s in shown]
    disputed = whole[-1]["step"]
    text = html.unescape(client.page(f"/games/{gid}/audit?dispute={disputed}", token).body)
    assert f"Step {disputed}: {whole[-1]['title']}</p>" in text


def test_a_dispute_names_whoever_opened_it_not_the_seat_it_is_about(client: Any) -> None:
    """Once a game has ended anyone may dispute any seat's step: the page says who opened each
    dispute (a player by their seat, anyone else by their name), never the disputed seat instead."""
    gid, _, token = _finished_game(client)
    cid = client.player("cid")
    for who in (token, cid["token"]):
        opened = client.call("POST", f"/api/v1/games/{gid}/disputes", {"version": 6, "seat": 1, "claim": "odd"}, who)
        assert opened.status == 201, opened.body
    text = html.unescape(re.sub(r"<[^>]+>", "", client.page(f"/games/{gid}/audit", token).body))
    openers = re.findall(r"Opened [^\n]*? UTC by ([^,\n]+)", text)
    assert openers == ["you (teal)", "cid"], openers
    assert "every seat yours" in text and "every seat played by whoever opened the dispute" in text


def test_the_other_players_inbox_says_a_dispute_was_opened_and_where_never_its_claim(client: Any) -> None:
    ann, bea = client.player("ann"), client.player("bea")
    gid = client.new_game(ann["token"], game="tarasque", players=2)["id"]
    client.seat(gid, ann["token"])
    client.seat(gid, bea["token"])
    games = client.platform.games
    while 1 not in games.load(gid).awaiting:
        game = games.load(gid)
        move = game.ruleset.legal_moves(game.state, 0)[0]
        games.submit_move(gid, ann["id"], game.ruleset.commands.dump(move))
    version = games.load(gid).version
    body = {"version": version, "claim": "my secret reasoning"}
    opened = client.call("POST", f"/api/v1/games/{gid}/disputes", body, bea["token"])
    assert opened.status == 201, opened.body
    client.platform.wait_for_projections()
    page = client.page("/inbox", ann["token"]).body
    text = html.unescape(re.sub(r"<[^>]+>", "", page))
    assert "A dispute was opened on your game of Tarasque against bea" in text, text
    assert f'/games/{gid}/audit#dispute-{opened.body["id"]}"' in page
    assert "my secret reasoning" not in text, "the claim is the opener's while the game runs"
    assert "Disputes on your games" not in html.unescape(client.page("/inbox", bea["token"]).body)


def test_an_audit_page_past_the_last_is_not_found_and_a_nonsense_one_is_the_first(client: Any) -> None:
    gid, ann, token = _finished_game(client)
    last = (len(narrated_log(client.platform.queries, gid, ann)["steps"]) + STEPS_PAGE - 1) // STEPS_PAGE
    past = client.page(f"/games/{gid}/audit?page={last + 1}", token)
    assert past.status == 404
    assert f"There is no page {last + 1} of this game's steps: the last is page {last}." in html.unescape(past.body)
    for page in ("0", "-2", "later"):
        text = html.unescape(client.page(f"/games/{gid}/audit?page={page}", token).body)
        assert f"Page 1 of {last}" in text and "← Earlier steps" not in text
