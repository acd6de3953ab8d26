"""What a page says when something goes wrong, or cannot be done yet, is said in words: no game's
id, no field's wire name, no list index, no status as the API spells it."""

from __future__ import annotations

import re
from typing import Any

import pytest

from api.app import create_app
from tests.e2e.test_web_competition_pages import read_text
from tests.e2e.test_web_session import signed_up
from tests.support.page_text import machine_words

NOBODY = "0b0b0b0b-0b0b-4b0b-8b0b-0b0b0b0b0b0b"
FORM = {"variant": "tarasque/dragon-dice", "players": "2", "sit": "1", "others": "people", "clock": "none"}


@pytest.fixture
def browser(platform: Any) -> Any:
    return create_app(platform).test_client()


@pytest.mark.parametrize(
    ("path", "said"),
    [
        (f"/games/{NOBODY}", "There is no such game."),
        (f"/games/{NOBODY}/replay", "There is no such game."),
        (f"/players/{NOBODY}", "There is no such player."),
        (f"/tournaments/{NOBODY}", "There is no such tournament."),
        ("/leaderboards/nope", "No game “nope” in the catalog."),
    ],
)
def test_a_page_for_something_that_does_not_exist_says_so_without_its_id(browser: Any, path: str, said: str) -> None:
    answer = browser.get(path)
    text = read_text(answer.get_data(as_text=True))
    assert answer.status_code == 404 and said in text, text[-600:]
    assert not machine_words(text), machine_words(text)


@pytest.mark.parametrize(
    ("form", "said"),
    [
        ({"clock": "bank", "initial": "", "increment": "5", "cap": "0"}, "The clock, its starting time: "),
        ({"starts_at": "2000-01-01T10:00"}, "The start: must be in the future."),
        ({"invite": "x" * 70}, "The players invited, the first: Length must be between 1 and 64."),
        ({"invite": "Nobody Here"}, "Nobody is called “Nobody Here”: check the name."),
    ],
)
def test_a_refused_lobby_form_names_its_fields_as_the_form_does(
    browser: Any, platform: Any, form: dict[str, str], said: str
) -> None:
    csrf = signed_up(browser)
    answer = browser.post("/games", data={**FORM, **form, "csrf": csrf})
    text = read_text(answer.get_data(as_text=True))
    assert answer.status_code == 400 and said in text, text[-900:]
    for wire in ("time_control", "starts_at", "invite: 0", "initial:"):
        assert wire not in text
    assert platform.views.list_games(status=None, game=None, player=None, limit=10, offset=0) == []


def test_an_open_table_offers_no_resignation_and_says_what_it_needs_to_start(browser: Any, platform: Any) -> None:
    csrf = signed_up(browser)
    opened = browser.post("/games", data={**FORM, "csrf": csrf})
    assert opened.status_code == 303, opened.get_data(as_text=True)[-500:]
    page = opened.headers["Location"]
    text = read_text(browser.get(page).get_data(as_text=True))
    assert "Resign" not in text and "Leave this game" not in text
    assert "Start now" not in text and "It can start once 2 players are seated: 1 more is needed." in text
    assert "open for players" in text and not machine_words(text)
    platform.wait_for_projections()
    lobby = read_text(browser.get("/?status=open").get_data(as_text=True))
    assert "open for players" in lobby
    assert re.search(r"\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC", lobby), (
        "a time without its zone (the page's script shows it locally)"
    )


def test_the_creator_closes_an_open_table_from_its_page(browser: Any, platform: Any) -> None:
    csrf = signed_up(browser)
    page = browser.post("/games", data={**FORM, "csrf": csrf}).headers["Location"]
    assert "Close this table" in read_text(browser.get(page).get_data(as_text=True))
    closed = browser.post(page + "/close", data={"csrf": csrf})
    assert closed.status_code == 303, closed.get_data(as_text=True)[-500:]
    text = read_text(browser.get(page).get_data(as_text=True))
    assert "Close this table" not in text and "its creator closed the table" in text, text[-1500:]
    assert not machine_words(text)
    platform.wait_for_projections()
    lobby = read_text(browser.get("/").get_data(as_text=True))
    assert "abandoned" in lobby and "open)" not in lobby  # no seat to take at a closed table


def test_a_stranger_is_not_offered_a_seat_kept_for_an_invitee(browser: Any, platform: Any) -> None:
    csrf = signed_up(browser, "ann")
    invitee = create_app(platform).test_client()
    signed_up(invitee, "bruno")
    page = browser.post("/games", data={**FORM, "invite": "bruno", "csrf": csrf}).headers["Location"]
    stranger = create_app(platform).test_client()
    signed_up(stranger, "cid")
    assert "Take a seat" not in read_text(stranger.get(page).get_data(as_text=True)), "kept for bruno"
    assert "Accept and take your seat" in read_text(invitee.get(page).get_data(as_text=True))


def test_an_invitation_nobody_has_is_told_without_its_id() -> None:
    from api.web.page_words import said

    assert said(f"you have no invitation {NOBODY}") == "There is no such invitation."
