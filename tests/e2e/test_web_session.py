"""The web session: the token in an HttpOnly, SameSite cookie the API accepts; every write made
with it carries the session's CSRF token; nothing refused writes anything; every answer carries
the Content-Security-Policy."""

from __future__ import annotations

import re
from typing import Any

import pytest

from api.app import create_app
from api.web import session
from services.common import clock
from services.common.errors import NotAuthenticated

PAGES = ["/", "/signin", "/inbox"]


@pytest.fixture
def browser(platform: Any) -> Any:
    """A Flask test client that keeps cookies, as a browser does."""
    return create_app(platform).test_client()


PASSWORD = "correct horse battery"


def signed_up(browser: Any, name: str = "ann") -> str:
    """Signs up through the form; returns the page's CSRF token."""
    answer = browser.post("/signup", data={"name": name, "password": PASSWORD, "password_again": PASSWORD})
    assert answer.status_code == 200, answer.get_data(as_text=True)
    return csrf_of(browser.get("/").get_data(as_text=True))


def csrf_of(html: str) -> str:
    found = re.search(r'name="csrf-token" content="([0-9a-f]+)"', html)
    assert found, "the signed-in page prints its CSRF token"
    return found.group(1)


def new_game(browser: Any, csrf: str) -> str:
    """A Tarasque table against a bot, through the API with the cookie; returns its id."""
    answer = browser.post("/api/v1/games", json={"game": "tarasque", "players": 2}, headers={session.HEADER: csrf})
    assert answer.status_code == 201, answer.get_json()
    return str(answer.get_json()["id"])


def events_of(platform: Any, game_id: str) -> int:
    return len(list(platform.games.stored_events(game_id, after=0)))


def test_signing_up_sets_an_httponly_samesite_cookie_and_shows_the_recovery_codes_once(browser: Any) -> None:
    answer = browser.post("/signup", data={"name": "ann", "password": PASSWORD, "password_again": PASSWORD})
    cookie = answer.headers["Set-Cookie"]
    assert cookie.startswith(f"{session.COOKIE}=") and "HttpOnly" in cookie and "SameSite=Lax" in cookie
    token = cookie.split(";")[0].split("=", 1)[1]
    welcome = answer.get_data(as_text=True)
    codes = re.findall(r"<code>([A-Z0-9]{4}(?:-[A-Z0-9]{4}){3})</code>", welcome)
    assert len(codes) == 10 and token not in welcome, "a person gets recovery codes, never the token"
    assert answer.headers["Cache-Control"] == "no-store"
    assert codes[0] not in browser.get("/").get_data(as_text=True), "the codes are shown on the welcome page only"


def test_signing_up_refuses_two_different_passwords_and_makes_no_account(browser: Any, platform: Any) -> None:
    answer = browser.post("/signup", data={"name": "ann", "password": PASSWORD, "password_again": "another one"})
    assert answer.status_code == 400 and "differ" in answer.get_data(as_text=True)
    assert "Set-Cookie" not in answer.headers
    assert platform.accounts.names.find("ann") is None


def test_the_api_reads_as_the_cookies_account(browser: Any) -> None:
    signed_up(browser)
    me = browser.get("/api/v1/me")
    assert me.status_code == 200 and me.get_json()["name"] == "ann"


def test_a_write_with_the_cookie_needs_the_csrf_token_and_writes_nothing_without(browser: Any, platform: Any) -> None:
    csrf = signed_up(browser)
    game_id = new_game(browser, csrf)
    before = events_of(platform, game_id)
    for headers in ({}, {session.HEADER: "0" * 40}, {session.HEADER: csrf, "Sec-Fetch-Site": "cross-site"}):
        answer = browser.post(f"/api/v1/games/{game_id}/seats", json={}, headers=headers)
        assert answer.status_code == 403, headers
        assert answer.get_json()["error"]["code"] == "csrf_failed"
    assert events_of(platform, game_id) == before
    assert browser.post(f"/api/v1/games/{game_id}/seats", json={}, headers={session.HEADER: csrf}).status_code == 201


def test_a_bearer_token_needs_no_csrf_token(client: Any) -> None:
    """Bots send their token in the header, which no foreign page can make a browser send."""
    ann = client.player("ann")
    answer = client.call("POST", "/api/v1/games", {"game": "tarasque", "players": 2}, ann["token"])
    assert answer.status == 201


def test_a_form_without_the_csrf_token_is_refused_and_opens_no_game(browser: Any, platform: Any) -> None:
    signed_up(browser)
    form = {"variant": "tarasque/dragon-dice", "players": "2", "sit": "1", "others": "bots", "clock": "none"}
    answer = browser.post("/games", data=form)
    assert answer.status_code == 403
    assert "text/html" in answer.content_type
    assert platform.views.list_games(status=None, game=None, player=None, limit=10, offset=0) == []


def test_a_form_posted_from_another_site_is_refused(browser: Any) -> None:
    answer = browser.post("/signup", data={"name": "mallory"}, headers={"Origin": "https://evil.example"})
    assert answer.status_code == 403
    assert "Set-Cookie" not in answer.headers


def test_the_lobbys_form_opens_a_table_with_its_bots(browser: Any) -> None:
    csrf = signed_up(browser)
    form = {"csrf": csrf, "variant": "mekong/classic", "players": "3", "sit": "1", "others": "bots", "clock": "bank",
            "initial": "600", "increment": "10", "cap": "1800", "option:mekong/classic:round_limit": "12"}  # fmt: skip
    answer = browser.post("/games", data=form)
    assert answer.status_code == 303
    game_id = answer.headers["Location"].rsplit("/", 1)[1]
    doc = browser.get(f"/api/v1/games/{game_id}").get_json()
    assert [s["kind"] for s in doc["seats"]] == ["human", "bot", "bot"]
    assert doc["options"]["round_limit"] == 12
    assert doc["time_control"]["kind"] == "bank"


def test_a_refused_form_shows_the_page_again_with_why(browser: Any) -> None:
    csrf = signed_up(browser)
    form = {"csrf": csrf, "variant": "tarasque/dragon-dice", "players": "9", "others": "bots", "clock": "none"}
    answer = browser.post("/games", data=form)
    assert answer.status_code in (400, 422)
    assert 'role="alert"' in answer.get_data(as_text=True)


def test_signing_out_forgets_the_cookie_and_revokes_its_token(browser: Any, platform: Any) -> None:
    csrf = signed_up(browser)
    token = browser.get_cookie(session.COOKIE).value
    answer = browser.post("/signout", data={"csrf": csrf})
    assert answer.status_code == 303
    assert f"{session.COOKIE}=;" in answer.headers["Set-Cookie"]
    assert 'name="csrf-token"' not in browser.get("/").get_data(as_text=True)
    with pytest.raises(NotAuthenticated):
        platform.accounts.authenticate(token)


def test_signing_in_by_name_and_password_and_by_recovery_code(browser: Any, platform: Any) -> None:
    """Back in with the password, then with a code (which works once), as a person whose cookie is gone."""
    welcome = browser.post("/signup", data={"name": "Ann", "password": PASSWORD, "password_again": PASSWORD})
    code = re.findall(r"<code>([A-Z0-9-]{19})</code>", welcome.get_data(as_text=True))[0]
    browser.delete_cookie(session.COOKIE)
    wrong = browser.post("/signin", data={"name": "ann", "password": "not the password"})
    assert wrong.status_code == 401 and "Set-Cookie" not in wrong.headers
    right = browser.post("/signin", data={"name": "ANN", "password": PASSWORD})
    assert right.status_code == 303 and browser.get("/api/v1/me").get_json()["name"] == "Ann"
    browser.delete_cookie(session.COOKIE)
    back = browser.post("/recover", data={"name": "ann", "code": code.lower()})
    assert back.status_code == 200 and "9 codes left" in back.get_data(as_text=True)
    assert browser.get("/api/v1/me").get_json()["name"] == "Ann"
    browser.delete_cookie(session.COOKIE)
    assert browser.post("/recover", data={"name": "ann", "code": code}).status_code == 401


@pytest.mark.parametrize("path", PAGES)
def test_every_page_carries_a_content_security_policy_without_inline_script(browser: Any, path: str) -> None:
    answer = browser.get(path)
    policy = answer.headers["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy.split("script-src")[1].split(";")[0]
    assert "frame-ancestors 'none'" in policy
    assert answer.headers["X-Content-Type-Options"] == "nosniff"
    assert not re.search(r"<script(?![^>]*\b(src|type=\"application/json\"))", answer.get_data(as_text=True))


def test_a_page_error_is_a_page_and_an_api_error_stays_json(browser: Any) -> None:
    page = browser.get("/games/no-such-game")
    assert page.status_code == 404 and "text/html" in page.content_type
    api = browser.get("/api/v1/games/no-such-game")
    assert api.status_code == 404 and api.get_json()["error"]["code"] == "game_not_found"


def test_a_server_bot_of_another_game_is_refused_in_words_and_opens_nothing(browser: Any, platform: Any) -> None:
    csrf = signed_up(browser)
    form = {"csrf": csrf, "variant": "mekong/classic", "players": "2", "sit": "1", "others": "bots",
            "bot": "tarasque/greedy", "clock": "none"}  # fmt: skip
    answer = browser.post("/games", data=form)
    assert answer.status_code == 400
    assert "plays Tarasque, not Les Dragons du Mékong" in answer.get_data(as_text=True)
    assert platform.views.list_games(status=None, game=None, player=None, limit=10, offset=0) == []


def test_the_lobbys_form_reads_checkboxes_and_one_value_per_seat(browser: Any) -> None:
    csrf = signed_up(browser)
    prefix = "option:seven-dragons/single-action:"
    form = {"csrf": csrf, "variant": "seven-dragons/single-action", "players": "2", "sit": "1", "others": "bots",
            "clock": "none", f"{prefix}action": "zap_card", f"{prefix}strict_edges": "true"}  # fmt: skip
    game_id = browser.post("/games", data=form).headers["Location"].rsplit("/", 1)[1]
    options = browser.get(f"/api/v1/games/{game_id}").get_json()["options"]
    assert options == {"action": "zap_card", "silver": False, "strict_edges": True}, "an unchecked box is no"
    basic = "option:seven-dragons/basic:targets"
    form = {"csrf": csrf, "variant": "seven-dragons/basic", "players": "2", "sit": "1", "others": "bots",
            "clock": "none", f"{basic}:1": "7", f"{basic}:2": "7", f"{basic}:3": "3"}  # fmt: skip
    game_id = browser.post("/games", data=form).headers["Location"].rsplit("/", 1)[1]
    assert browser.get(f"/api/v1/games/{game_id}").get_json()["options"]["targets"] == []  # every seat the usual


def test_the_lobbys_form_invites_by_name_and_leaves_the_invited_seat_open(browser: Any, platform: Any) -> None:
    bruno, _ = platform.accounts.register("Bruno", "human")
    csrf = signed_up(browser)
    form = {"csrf": csrf, "variant": "tarasque/dragon-dice", "players": "3", "sit": "1", "others": "bots",
            "clock": "none", "invite": "bruno, "}  # fmt: skip
    game_id = browser.post("/games", data=form).headers["Location"].rsplit("/", 1)[1]
    doc = browser.get(f"/api/v1/games/{game_id}").get_json()
    assert [s["kind"] for s in doc["seats"]] == ["human", "bot"] and doc["status"] == "open"
    [invitation] = platform.invitations.received(bruno.id)
    assert invitation["game_id"] == game_id and invitation["inviter"]["name"] == "ann"


def test_a_start_time_is_read_in_the_browsers_time_zone(browser: Any, platform: Any) -> None:
    csrf = signed_up(browser)
    year = clock.now().year + 2  # within the dates' range (``services.common.date_rules``)
    form = {"csrf": csrf, "variant": "tarasque/dragon-dice", "players": "2", "sit": "1", "others": "open",
            "clock": "none", "starts_at": f"{year}-01-01T09:30", "tz": "Asia/Tokyo"}  # fmt: skip
    game_id = browser.post("/games", data=form).headers["Location"].rsplit("/", 1)[1]
    assert browser.get(f"/api/v1/games/{game_id}").get_json()["starts_at"].startswith(f"{year}-01-01T00:30:00")
    refused = browser.post("/games", data={**form, "tz": "Mars/Olympus"})
    assert refused.status_code == 400 and "Unknown time zone" in refused.get_data(as_text=True)


def _ended_elsewhere(browser: Any, platform: Any) -> tuple[str, str]:
    """Ann signed in, with a table of hers; her session then signed out from another browser that
    holds the same cookie: this browser keeps a cookie whose token no longer signs anyone in."""
    csrf = signed_up(browser)
    gid = new_game(browser, csrf)
    token = browser.get_cookie(session.COOKIE).value
    platform.accounts.close_session(token)
    return gid, token


def test_a_page_read_with_a_session_ended_elsewhere_forgets_its_cookie_and_reads_as_a_watcher(
    browser: Any, platform: Any
) -> None:
    """The page's scripts then read the log and the stream as a signed-out watcher does, where the
    dead cookie had every read refused "you are signed out"."""
    gid, _ = _ended_elsewhere(browser, platform)
    page = browser.get(f"/games/{gid}")
    assert page.status_code == 200 and "Sign in or sign up" in page.get_data(as_text=True)
    assert f"{session.COOKIE}=;" in page.headers["Set-Cookie"]
    assert browser.get_cookie(session.COOKIE) is None
    assert browser.get(f"/api/v1/games/{gid}/log").status_code == 200


def test_an_api_call_refused_for_a_session_ended_elsewhere_forgets_its_cookie(browser: Any, platform: Any) -> None:
    """The script that heard the 401 reads again as a watcher (common.js); the stream opened anew does too."""
    gid, _ = _ended_elsewhere(browser, platform)
    refused = browser.get(f"/api/v1/games/{gid}/log")
    assert refused.status_code == 401 and f"{session.COOKIE}=;" in refused.headers["Set-Cookie"]
    assert browser.get(f"/api/v1/games/{gid}/log").status_code == 200


def test_a_live_session_keeps_its_cookie_and_signing_in_over_a_dead_one_keeps_the_new_one(
    browser: Any, platform: Any
) -> None:
    csrf = signed_up(browser)
    gid = new_game(browser, csrf)
    assert "Set-Cookie" not in browser.get(f"/games/{gid}").headers
    platform.accounts.close_session(browser.get_cookie(session.COOKIE).value)
    answer = browser.post("/signin", data={"name": "ann", "password": PASSWORD})
    assert answer.status_code == 303, answer.get_data(as_text=True)[:500]
    assert csrf_of(browser.get("/").get_data(as_text=True))  # signed in again: the new cookie was kept
