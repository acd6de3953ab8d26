"""People around the table, in Chromium, as a person does it: an account with a name and a password
and a way back in; invitations by name, declined with a reason and accepted; a rating on a familiar
scale; a young server's leaderboard; the lobby's options in words; play now; a seat given up before
the start; an invitation sent from the table and accepted there; a tournament counted down in the
browser's time zone, its notice, withdrawal, a bot entered, started early and cancelled.
Every page is checked with axe-core and at a phone's width (``check_page``); the guard fails a test
on any console error or failed request."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import open_page
from tests.browser.guard import PageGuard
from tests.browser.pages import PASSWORD, open_table, sign_up
from tests.browser.test_web_client import A11y, Shoot, check_page
from tests.support.processes import Server

pytestmark = pytest.mark.slow
SHOWN = re.compile(r"\b[0-9a-f]{8}-[0-9a-f]{4}|\{\"|\bTrue\b|\bFalse\b|\bNone\b|round_limit|strict_edges")
"""What no page of these may show a person: an id, JSON, a Python literal, an option's code name."""


def reads_as_words(page: Page) -> None:
    text = page.locator("body").inner_text()
    found = SHOWN.search(text)
    assert found is None, f"{page.url} shows {found.group(0)!r}"


def sign_out(page: Page) -> None:
    page.get_by_role("button", name="Sign out").click()
    expect(page.get_by_role("link", name="Sign in or sign up")).to_be_visible()


def sign_in(page: Page, base: str, name: str, password: str = PASSWORD) -> None:
    page.goto(f"{base}/signin")
    page.get_by_label("Your name", exact=True).first.fill(name)
    page.get_by_label("Your password", exact=True).fill(password)
    page.get_by_role("button", name="Sign in", exact=True).click()
    expect(page.get_by_text(f"Signed in as {name}")).to_be_visible()


def person(browser: Browser, guard: PageGuard, **context: Any) -> Page:
    """Another person at another browser (a context of their own)."""
    if not context:
        return open_page(browser, guard)
    fresh = browser.new_context(viewport={"width": 1440, "height": 900}, **context)
    page = fresh.new_page()
    guard.watch(page)
    return page


@pytest.mark.expect_http_error(409, "/signup")  # the names taken, refused as they should be
def test_an_account_with_a_password_and_a_way_back_in(
    page: Page, web_server: Server, shoot: Shoot, check_a11y: A11y
) -> None:
    base = web_server.base
    page.goto(f"{base}/signin")
    check_page(page, "signin", shoot, check_a11y)
    codes = sign_up(page, base, "Mira")
    assert len(codes) == 10
    page.get_by_role("link", name="Mira (your profile)").click()  # the header's link to one's own profile
    expect(page.get_by_role("heading", name=re.compile("Mira"))).to_be_visible()
    expect(page.get_by_role("heading", name="Your account")).to_be_visible()
    check_page(page, "own-profile", shoot, check_a11y)
    sign_out(page)

    page.context.clear_cookies()  # the cookie is gone: back in with the password
    sign_in(page, base, "mira")
    sign_out(page)
    page.context.clear_cookies()  # and the password forgotten: back in with a recovery code
    page.goto(f"{base}/signin")
    page.get_by_label("Your name", exact=True).last.fill("Mira")
    page.get_by_label("A recovery code").fill(codes[0])
    page.get_by_role("button", name="Sign in with the code").click()
    expect(page.get_by_text("9 codes left")).to_be_visible()
    check_page(page, "recovered", shoot, check_a11y)
    page.get_by_label("New password", exact=True).fill("a fresh password")
    page.get_by_label("The same password again").fill("a fresh password")
    page.get_by_role("button", name="Save the password").click()
    expect(page.get_by_text("Your new password is saved.")).to_be_visible()
    sign_out(page)
    sign_in(page, base, "Mira", "a fresh password")
    sign_out(page)

    for twin in ("MIRA", "Мira"):  # another case; a Cyrillic capital Em
        page.goto(f"{base}/signin")
        page.get_by_label("Choose a name").fill(twin)
        page.get_by_label("Choose a password").fill(PASSWORD)
        page.get_by_label("The same password again").fill(PASSWORD)
        page.get_by_role("button", name="Sign up").click()
        alert = page.get_by_role("alert")
        expect(alert).to_contain_text("is taken, or looks too much like one that is")
    check_page(page, "name-taken", shoot, check_a11y)


def test_an_invitation_by_name_is_declined_with_a_reason_then_another_accepted(
    page: Page, browser: Browser, guard: PageGuard, web_server: Server, shoot: Shoot, check_a11y: A11y
) -> None:
    base = web_server.base
    guest = person(browser, guard)
    try:
        sign_up(guest, base, "Gustav")
        sign_up(page, base, "Hana")

        def invite_gustav() -> str:
            page.goto(f"{base}/")
            page.get_by_label("Game and variant").select_option("tarasque/dragon-dice")
            page.get_by_label(re.compile("Invite people or bot accounts by name")).press_sequentially("gus")
            suggestion = page.get_by_role("option", name="Gustav")
            expect(suggestion).to_be_visible()
            suggestion.click()
            expect(page.get_by_label(re.compile("Invite people"))).to_have_value("Gustav, ")
            page.get_by_role("button", name="Open the table").click()
            page.wait_for_url(re.compile(r"/games/[0-9a-f-]{36}$"))
            return page.url.rsplit("/", 1)[1]

        first = invite_gustav()
        guest.goto(f"{base}/inbox")
        invitation = guest.locator("li.invitation")
        expect(invitation).to_contain_text("Hana invites you to Tarasque: Dragon dice, 2 players, rated, no clock")
        check_page(guest, "inbox-invited", shoot, check_a11y)
        invitation.get_by_label("Reason").select_option(
            label="This is not the right time for me; please ask again later."
        )
        invitation.get_by_role("button", name=re.compile("^Decline")).click()
        expect(guest.get_by_text("No invitation waits for your answer.")).to_be_visible()

        page.goto(f"{base}/inbox")
        sent = page.get_by_role("region", name="Invitations you sent").or_(
            page.locator("section", has_text="Invitations you sent")
        )
        expect(sent.first).to_contain_text("declined: “This is not the right time for me; please ask again later.”")
        check_page(page, "inbox-declined", shoot, check_a11y)
        reads_as_words(page)

        second = invite_gustav()
        assert second != first
        guest.goto(f"{base}/inbox")
        guest.locator("li.invitation").get_by_role("button", name=re.compile("^Accept")).click()
        guest.wait_for_url(f"{base}/games/{second}")
        assert web_server.wait_status(second, "active")["status"] == "active"
        page.goto(f"{base}/inbox")
        expect(page.locator("section", has_text="Invitations you sent").first).to_contain_text("accepted")
    finally:
        guest.context.close()


def test_a_newcomers_rating_after_a_loss_and_a_young_servers_leaderboard(
    page: Page, web_server: Server, shoot: Shoot, check_a11y: A11y
) -> None:
    base = web_server.base
    status, rowan = web_server.call("POST", "/api/v1/players", {"name": "Rowan", "password": PASSWORD})
    assert status == 201, rowan
    _, game = web_server.call("POST", "/api/v1/games", {"game": "tarasque", "players": 2}, rowan["token"])
    web_server.call("POST", f"/api/v1/games/{game['id']}/seats", {}, rowan["token"])
    web_server.call("POST", f"/api/v1/games/{game['id']}/seats", {"bot": "greedy"}, rowan["token"])
    assert web_server.call("POST", f"/api/v1/games/{game['id']}/resign", {}, rowan["token"])[0] == 201
    web_server.wait_status(game["id"])

    sign_in(page, base, "Rowan")
    page.get_by_role("link", name="Rowan (your profile)").click()
    ratings = page.get_by_role("region", name="Ratings").first
    expect(ratings).to_contain_text("provisional")
    rating = int(re.search(r"(\d+) ± (\d+)", ratings.inner_text()).group(1))  # type: ignore[union-attr]
    assert 1300 < rating < 1500, rating
    assert "−" not in ratings.inner_text() and "-" not in ratings.inner_text()
    check_page(page, "profile-rated", shoot, check_a11y)

    ratings.get_by_role("link", name="Tarasque").click()
    people = page.get_by_role("region", name="People").first
    bots = page.get_by_role("region", name="Bots").first
    expect(people.get_by_role("link", name="Rowan")).to_be_visible()
    expect(people).to_contain_text("provisional")
    expect(bots.get_by_role("link", name="Level 3 bot")).to_be_visible()  # greedy, named by its level
    expect(people.get_by_role("link", name=re.compile("Level 3 bot|greedy"))).to_have_count(0)
    check_page(page, "leaderboard-young", shoot, check_a11y)
    reads_as_words(page)


def test_every_lobby_option_in_words_with_its_control_clock_fields_and_bots_per_game(
    page: Page, web_server: Server, shoot: Shoot, check_a11y: A11y
) -> None:
    base = web_server.base
    sign_up(page, base, "Pia")
    page.goto(f"{base}/")
    page.keyboard.press("Tab")  # the skip link
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    focused = page.evaluate("document.activeElement.id")
    assert focused == "now-game", f"three key presses reach the lobby's first form, not {focused!r}"

    _, catalog = web_server.call("GET", "/api/v1/catalog")
    form = page.locator("#new-game")
    for game in catalog["games"]:
        for variant in game["variants"]:
            page.get_by_label("Game and variant").select_option(f"{game['game']}/{variant['name']}")
            options = form.locator(f'fieldset.options[data-variant="{game["game"]}/{variant["name"]}"]')
            for o in variant["options"]:
                if o["type"] == "bool":
                    expect(options.get_by_role("checkbox", name=o["label"])).to_be_visible()
                elif o.get("per_seat"):
                    group = options.get_by_role("group", name=o["label"])
                    expect(group.get_by_role("combobox", name="Player 1")).to_be_visible()
                elif o.get("choices"):
                    select = options.get_by_role("combobox", name=o["label"])
                    texts = [t.strip() for t in select.locator("option").all_inner_texts()]
                    assert texts == [c["label"] for c in o["choices"]], (variant["name"], texts)
                else:
                    field = options.get_by_role("spinbutton", name=o["label"])
                    expect(field).to_have_attribute("min", str(o["minimum"]))
                    expect(field).to_have_attribute("max", str(o["maximum"]))
            others = form.locator("fieldset.options:visible")
            expect(others).to_have_count(1 if variant["options"] else 0)
            bots = [
                t.strip() for t in page.get_by_label("Server bot").locator("option:not([hidden])").all_inner_texts()
            ]
            assert all(b.startswith(game["title"]) for b in bots[1:]) and len(bots) == len(game["bots"]) + 1, bots
    reads_as_words(page)

    page.get_by_label("Game and variant").select_option("seven-dragons/basic")
    page.get_by_label("Players", exact=True).fill("3")
    expect(form.get_by_role("combobox", name="Player 3")).to_be_visible()
    expect(form.get_by_role("combobox", name="Player 4")).to_be_hidden()
    for clock, shown, hidden in (
        ("none", [], ["Seconds for each move", "Seconds in the bank at the start"]),
        ("per_move", ["Seconds for each move"], ["Seconds in the bank at the start", "Seconds added after each move"]),
        ("bank", ["Seconds in the bank at the start", "Most seconds the bank may hold"], ["Seconds for each move"]),
    ):
        page.get_by_label("Clock", exact=True).select_option(clock)
        for label in shown:
            expect(page.get_by_label(label)).to_be_visible()
        for label in hidden:
            expect(page.get_by_label(label)).to_be_hidden()
    check_page(page, "lobby-form", shoot, check_a11y)

    basic = form.locator('fieldset.options[data-variant="seven-dragons/basic"]')
    basic.get_by_label("Every touching edge must match").check()
    form.get_by_role("combobox", name="Player 2").select_option("4")
    page.get_by_label("Clock", exact=True).select_option("none")
    page.get_by_role("button", name="Open the table").click()
    page.wait_for_url(re.compile(r"/games/[0-9a-f-]{36}$"))
    _, doc = web_server.call("GET", f"/api/v1/games/{page.url.rsplit('/', 1)[1]}")
    assert doc["options"] == {"targets": [7, 4, 7], "strict_edges": True}


def test_play_now_seats_the_next_person_at_the_waiting_table(
    page: Page, browser: Browser, guard: PageGuard, web_server: Server, shoot: Shoot, check_a11y: A11y
) -> None:
    base = web_server.base
    other = person(browser, guard)
    try:
        for who, name in ((page, "Pax"), (other, "Quin")):
            sign_up(who, base, name)
            who.locator("#play-now").get_by_label("Game").select_option(label="Les Dragons du Mékong")
            who.get_by_role("button", name="Play now").click()
            who.wait_for_url(re.compile(r"/games/[0-9a-f-]{36}$"))
        assert page.url == other.url, "the second person sits at the table the first opened"
        assert web_server.wait_status(page.url.rsplit("/", 1)[1], "active")["status"] == "active"
    finally:
        other.context.close()


def test_a_tournament_in_the_browsers_time_zone_with_notice_withdrawal_a_bot_start_and_cancel(
    browser: Browser, guard: PageGuard, web_server: Server, shoot: Shoot, check_a11y: A11y
) -> None:
    base, zone = web_server.base, "Asia/Tokyo"
    page = person(browser, guard, timezone_id=zone)
    entrant = person(browser, guard)
    try:
        sign_up(entrant, base, "Ulla")
        sign_up(page, base, "Otto")
        page.get_by_role("link", name="Otto (your profile)").click()
        page.get_by_label("A new bot's name").fill("Otto's drake")
        page.get_by_role("button", name="Make the bot account").click()
        expect(page.get_by_label("Token", exact=True)).to_have_value(re.compile("^dh_"))

        def announce(name: str) -> str:
            page.goto(f"{base}/tournaments")
            starts = (datetime.now(ZoneInfo(zone)) + timedelta(days=2)).replace(second=0, microsecond=0)
            page.get_by_label("Name", exact=True).fill(name)
            page.get_by_label("Game and variant").select_option("tarasque/dragon-dice")
            page.get_by_label("Seats per table").fill("2")
            page.get_by_label(re.compile("^Starts at")).fill(starts.strftime("%Y-%m-%dT%H:%M"))
            page.get_by_role("button", name="Announce the tournament").click()
            page.wait_for_url(re.compile(r"/tournaments/[0-9a-f-]{36}$"))
            shown = page.locator("dd time").first
            expect(shown).to_contain_text(starts.strftime("%I:%M %p"))  # the hour typed, in Tokyo time (en-US)
            expect(shown).to_contain_text("GMT+9")
            expect(page.locator("[data-countdown]").first).to_contain_text(re.compile(r"in (1 day|2 days)"))
            return page.url

        cup = announce("winter cup")
        check_page(page, "tournament-countdown", shoot, check_a11y)
        page.get_by_role("button", name="Register for this tournament").click()
        page.get_by_label("Enter your bot").select_option(label="Otto's drake")
        page.get_by_role("button", name="Register the bot").click()
        expect(page.get_by_text("Your bot Otto's drake is registered.")).to_be_visible()

        entrant.goto(cup)
        entrant.get_by_role("button", name="Register for this tournament").click()
        entrant.get_by_role("button", name="Withdraw from this tournament").click()
        expect(entrant.get_by_role("button", name="Register for this tournament")).to_be_visible()
        entrant.get_by_role("button", name="Register for this tournament").click()
        expect(entrant.get_by_text("You are registered.")).to_be_visible()

        page.reload()
        page.get_by_role("button", name="Start it now").click()
        notice = page.locator(".notice").filter(has_text="Round 1").first
        expect(notice).to_contain_text(re.compile(r"(your game|the game of your bot Otto's drake)\s+starts"))
        expect(notice).to_contain_text(re.compile(r"\(in \d+ min \d+ s\)"))
        expect(notice).to_contain_text("GMT+9")
        check_page(page, "tournament-notice", shoot, check_a11y)
        entrant.goto(cup)  # started: nobody withdraws any more
        expect(entrant.get_by_text("You are registered.")).to_be_visible()
        expect(entrant.get_by_role("button", name="Withdraw from this tournament")).to_have_count(0)
        page.goto(f"{base}/inbox")  # the notice is in the inbox too (and on the account stream)
        told = page.locator("section", has_text="Tournaments").first
        expect(told).to_contain_text("winter cup: round 1")
        expect(told).to_contain_text("GMT+9")

        announce("spring cup")
        page.once("dialog", lambda dialog: dialog.dismiss())  # "Cancel this tournament for good?": no
        page.get_by_role("button", name="Cancel the tournament").click()
        expect(page.locator(".status").first).not_to_have_text("cancelled")
        page.once("dialog", lambda dialog: dialog.accept())
        page.get_by_role("button", name="Cancel the tournament").click()
        expect(page.locator(".status").first).to_have_text("cancelled")
        expect(page.locator("main")).to_contain_text("This tournament was cancelled: it will not be played.")
        expect(page.locator("main")).to_contain_text("No round was played.")
        reads_as_words(page)
    finally:
        page.context.close()
        entrant.context.close()


def test_a_player_leaves_a_table_before_it_starts_and_the_creator_takes_a_bot_off(
    page: Page, browser: Browser, guard: PageGuard, web_server: Server
) -> None:
    """The seat given up is open again on every page, and the log says who left, in words."""
    base = web_server.base
    guest = person(browser, guard)
    try:
        sign_up(guest, base, "Ivo")
        sign_up(page, base, "Jana")
        open_table(page, "tarasque/dragon-dice", 4, others="open")
        table = page.url
        page.get_by_role("button", name="Add a server bot").click()
        take_off = page.get_by_role("button", name=re.compile(r"^Take Level \d bot .*off the table$"))
        expect(take_off).to_be_visible()
        expect(page.get_by_role("button", name="Leave this table")).to_have_count(0)  # its creator closes it

        invite = page.get_by_label(re.compile("Invite people or bot accounts by name"))
        invite.press_sequentially("Ze")  # the creator is typing a name as Ivo sits down
        page.evaluate("window.sameTablePage = true; document.getElementById('status-line').dataset.kept = '1'")
        said = page.locator("#status-line").inner_text()
        guest.goto(table)
        guest.get_by_role("button", name="Take a seat").click()
        expect(guest.locator("#seats")).to_contain_text("You")
        expect(page.locator("#seats")).to_contain_text("Ivo")  # the creator's page, live: no reload by hand
        expect(page.locator("main")).to_contain_text("3 of 4 seats taken")
        expect(invite).to_have_value("Ze")  # drawn again in place: what was typed stays, and the focus
        expect(invite).to_be_focused()
        assert page.evaluate("window.sameTablePage === true"), "the page was reloaded for a seat taken"
        status = page.locator("#status-line[data-kept]")  # a live region: its words change, not its node
        expect(status).to_have_count(1)
        expect(status).not_to_have_text(said)
        guest.once("dialog", lambda dialog: dialog.accept())  # "Leave this table? Your seat will be free..."
        guest.get_by_role("button", name="Leave this table").click()
        expect(guest.get_by_role("button", name="Take a seat")).to_be_visible()
        expect(guest.locator("#seats")).not_to_contain_text("You")
        expect(guest.locator("#log")).to_contain_text("You left the table")

        expect(page.locator("#seats")).not_to_contain_text("Ivo")
        expect(page.locator("#log")).to_contain_text("Ivo left the table")
        page.get_by_role("button", name=re.compile(r"^Take Level \d bot .*off the table$")).click()
        expect(page.locator("#seats")).not_to_contain_text("bot")
        expect(page.locator("#log")).to_contain_text("was taken off the table")
        reads_as_words(page)
        reads_as_words(guest)
    finally:
        guest.context.close()


def test_the_creator_invites_from_the_table_and_the_invitees_answer_there(
    page: Page, browser: Browser, guard: PageGuard, web_server: Server, shoot: Shoot, check_a11y: A11y
) -> None:
    """The invitees' seats say whom they wait for; one declines on the table, which the creator's
    page shows without a reload; the other accepts there."""
    base = web_server.base
    kai, mia = person(browser, guard), person(browser, guard)
    try:
        sign_up(kai, base, "Kai")
        sign_up(mia, base, "Mia")
        sign_up(page, base, "Lena")
        open_table(page, "tarasque/dragon-dice", 3, others="open")
        table = page.url
        invite = page.get_by_label(re.compile("Invite people or bot accounts by name"))
        invite.press_sequentially("ka")
        suggestion = page.get_by_role("option", name="Kai")
        expect(suggestion).to_be_visible()
        suggestion.click()
        invite.press_sequentially("Mia")
        page.get_by_role("button", name="Invite", exact=True).click()
        expect(page.locator("#seats")).to_contain_text("kept for Kai, who is invited")
        expect(page.locator("#seats")).to_contain_text("kept for Mia, who is invited")
        check_page(page, "table-invited", shoot, check_a11y)

        kai.goto(table)
        expect(kai.locator("main")).to_contain_text("Lena invites you to this table")
        expect(kai.locator("#seats")).to_contain_text("kept for you")
        expect(kai.get_by_role("button", name="Take a seat")).to_have_count(0)
        kai.get_by_label("Reason").select_option(label="This variant is not for me right now.")
        kai.get_by_role("button", name="Decline").click()
        expect(kai.locator("main")).to_contain_text("You declined Lena's invitation to this table.")
        expect(page.locator("main")).to_contain_text(  # the creator's page, live: no reload by hand
            "Kai declined your invitation: “This variant is not for me right now.”"
        )
        expect(page.locator("#seats")).not_to_contain_text("kept for Kai")

        mia.goto(table)
        mia.get_by_role("button", name="Accept and take your seat").click()
        expect(mia.locator("#seats")).to_contain_text("You")
        expect(page.locator("#seats")).to_contain_text("Mia")
        reads_as_words(page)
        reads_as_words(kai)
    finally:
        kai.context.close()
        mia.context.close()


def test_back_to_the_lobby_its_options_follow_the_chosen_variant(page: Page, web_server: Server) -> None:
    base = web_server.base
    sign_up(page, base, "Noor")
    page.get_by_label("Game and variant").select_option("mekong/classic")
    # chosen perhaps before the lobby's script has run (it reads the choice as it starts): on a loaded
    # machine the deferred script may come seconds after the page's text
    legend = page.locator("fieldset.options:not([hidden]) legend")
    expect(legend).to_contain_text("Les Dragons du Mékong", timeout=15_000)
    page.get_by_role("link", name="Leaderboards").click()
    page.go_back()
    expect(page.get_by_label("Game and variant")).to_have_value("mekong/classic")
    expect(page.locator("fieldset.options:not([hidden]) legend")).to_contain_text("Les Dragons du Mékong")
