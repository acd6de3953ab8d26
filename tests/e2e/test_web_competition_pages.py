"""The competition pages (profiles, leaderboards, tournaments) as a browser reads them, and their
forms: each page shows what the API answers, an unknown id is the HTML 404 page, and a form
without the session's CSRF token is refused and writes nothing."""

from __future__ import annotations

import html as entities
import random
import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import quote

import pytest

from api.app import create_app
from domain.kernel import find_game
from services.common import clock
from services.common.clock import FakeClock
from services.common.errors import NotAcceptingMoves
from tests.e2e.test_web_session import signed_up
from tests.support.rated_games import play_out, play_table


@pytest.fixture
def browser(platform: Any) -> Any:
    """A Flask test client that keeps cookies, as a browser does."""
    return create_app(platform).test_client()


@pytest.fixture
def fake_clock() -> Iterator[FakeClock]:
    """The platform's clock, from now on moving only when the test moves it."""
    fake = FakeClock(datetime.now(UTC).replace(microsecond=0))
    previous = clock.use(fake)
    yield fake
    clock.use(previous)


def html(answer: Any) -> str:
    assert answer.status_code == 200, answer.get_data(as_text=True)[:2000]
    assert "text/html" in answer.content_type
    return str(answer.get_data(as_text=True))


def read_text(page: str) -> str:
    """What a person reads of a page: its words, without its tags, their attributes (form values,
    links) or its scripts' data."""
    return entities.unescape(re.sub(r"<[^>]+>", " ", re.sub(r"<script\b.*?</script>", " ", page, flags=re.S)))


def profile_href(player_id: str) -> str:
    return f'href="/players/{quote(player_id, safe=":")}"'


def rated_game(platform: Any, ada: Any, bob: Any) -> Any:
    """A finished rated dice race between ada and bob, played by bots for them."""
    game = play_table(platform, "dice-race", [(ada.id, "random"), (bob.id, "random")], random.Random(7))
    platform.wait_for_projections()
    return game


def start_form(fake_clock: FakeClock, minutes: int = 60) -> str:
    """A start time for the form's ``datetime-local`` field (UTC), ``minutes`` from now."""
    return (fake_clock.now() + timedelta(minutes=minutes)).strftime("%Y-%m-%dT%H:%M")


def tournament_form(csrf: str, fake_clock: FakeClock, **extra: str) -> dict[str, str]:
    return {
        "csrf": csrf,
        "name": "winter cup",
        "variant": "tarasque/dragon-dice",
        "seats": "2",
        "format": "swiss",
        "rounds": "2",
        "capacity": "8",
        "starts_at": start_form(fake_clock),
        "round_seconds": "3600",
        "clock": "per_move",
        "seconds": "600",
        "timeout_policy": "auto",
        **extra,
    }


def a_minute_ahead(fake_clock: FakeClock, name: str, **extra: Any) -> dict[str, Any]:
    """A two-seat Tarasque swiss of two rounds, as the service takes it, starting a minute from now."""
    return {"name": name, "game": "tarasque", "variant": None, "options": None, "seats": 2,
            "format": "swiss", "rounds": 2, "capacity": 8, "time_control": None,
            "starts_at": fake_clock.now() + timedelta(minutes=1), "round_seconds": 3600, **extra}  # fmt: skip


def test_the_nav_leads_to_the_leaderboards_and_tournaments(browser: Any) -> None:
    page = html(browser.get("/"))
    assert 'href="/leaderboards">Leaderboards</a>' in page
    assert 'href="/tournaments">Tournaments</a>' in page


def test_a_profile_shows_ratings_record_and_recent_games_linking_to_them(browser: Any, platform: Any) -> None:
    ada, _ = platform.accounts.register("ada", "human")
    bob, _ = platform.accounts.register("bob", "human")
    game = rated_game(platform, ada, bob)
    profile = platform.profiles.profile(ada.id)
    [rating] = profile["ratings"]
    page = html(browser.get(f"/players/{ada.id}"))
    assert "<h1>ada <small>a person</small></h1>" in page
    shown = f"<strong>{rating['display_rating']}</strong> <small>± {rating['display_uncertainty']}</small>"
    assert shown in page, "the rating on the familiar scale, with its uncertainty"
    assert 1000 < rating["display_rating"] < 2000 and f"{rating['mu']:.2f}" not in page
    assert "provisional" in page, "one rated game leaves the rating provisional"
    assert "<dt>Games finished</dt><dd>1</dd>" in page
    assert f"<dt>Games won</dt><dd>{profile['games']['won']}</dd>" in page
    assert f'href="/games/{game.id}"' in page


def test_a_server_bots_profile_names_the_server_as_its_owner(browser: Any) -> None:
    page = html(browser.get("/players/server-bot:greedy"))
    assert "Dragonhall server" in page


def test_a_server_bots_profile_names_it_by_its_level_as_its_games_and_the_leaderboard_do(
    browser: Any, platform: Any
) -> None:
    """Issue 33: the leaderboard's "Level 3 bot" leads to a profile that calls it the same, never
    "greedy bot"; the profile says at which level of each game it plays."""
    ada, _ = platform.accounts.register("ada", "human")
    gid = str(platform.games.create_game(ada.id, "tarasque", None, None, 2).id)
    platform.games.add_bot(gid, ada.id, "greedy")
    platform.games.add_bot(gid, ada.id, "random")
    assert play_out(platform, gid).status == "finished"
    platform.wait_for_projections()
    board = html(browser.get("/leaderboards/tarasque"))
    assert profile_href("server-bot:greedy") + ">Level 3 bot</a>" in board
    game = html(browser.get(f"/games/{gid}"))
    assert profile_href("server-bot:greedy") + ">Level 3 bot (" in game
    page = html(browser.get("/players/server-bot:greedy"))
    assert "<title>Level 3 bot · Dragonhall</title>" in page
    assert "<h1>Level 3 bot <small>a server bot</small></h1>" in page
    assert "<li>Level 3 of Tarasque: weighs every move by the harvest it expects</li>" in page
    assert "<li>Level 3 of Seven Dragons: " in page
    assert "Ratings of Level 3 bot per game" in page and f'href="/games/{gid}"' in page
    said = read_text(page).lower()
    assert not [bot for bot in find_game("tarasque").bots if bot in said], "an internal name on the page"


def test_a_bot_accounts_profile_links_to_its_owner(browser: Any, platform: Any) -> None:
    ada, _ = platform.accounts.register("ada", "human")
    bot, _ = platform.accounts.register_bot(ada, "ada-bot")
    page = html(browser.get(f"/players/{bot.id}"))
    assert "<dt>Owner</dt>" in page and profile_href(ada.id) + ">ada</a>" in page


def test_the_leaderboard_lists_rated_players_a_page_at_a_time(browser: Any, platform: Any) -> None:
    ada, _ = platform.accounts.register("ada", "human")
    bob, _ = platform.accounts.register("bob", "human")
    rated_game(platform, ada, bob)
    page = html(browser.get("/leaderboards/dice-race"))
    board = platform.profiles.leaderboard("dice-race", 25, 0, True, "bot", "rating")  # seated as bots
    ranked = re.findall(r'<td data-label="Rank">(\d+)</td>\s*<td data-label="[^"]+"><a href="/players/([^"]+)">', page)
    assert ranked == [(str(p["rank"]), p["player_id"]) for p in board["players"]], "a young server lists everyone"
    assert len(ranked) == 2 and page.count("provisional</span>") == 2
    assert "No people have finished a rated game of Dice Race yet." in page
    assert "Lower →" not in page
    assert html(browser.get("/leaderboards/dice-race?page=1")) == page  # pages count from 1, as they read
    past = browser.get("/leaderboards/dice-race?page=2")
    assert past.status_code == 404
    said = "There is no page 2 of the leaderboard of Dice Race: the last is page 1."
    assert said in read_text(past.get_data(as_text=True))


def test_the_leaderboards_page_chooses_a_game(browser: Any) -> None:
    page = html(browser.get("/leaderboards"))
    for slug in ("tarasque", "seven-dragons", "mekong", "drachenreiter"):
        assert f'href="/leaderboards/{slug}"' in page
    chosen = browser.get("/leaderboards?game=mekong")
    assert chosen.status_code == 303 and chosen.headers["Location"].endswith("/leaderboards/mekong")


@pytest.mark.parametrize(
    "path", ["/players/nobody", "/leaderboards/chess", "/tournaments/00000000-0000-4000-8000-000000000000"]
)
def test_an_unknown_id_answers_the_html_404_page(browser: Any, path: str) -> None:
    answer = browser.get(path)
    assert answer.status_code == 404
    assert "text/html" in answer.content_type and "<h1>Not found</h1>" in answer.get_data(as_text=True)


@pytest.mark.parametrize(
    ("path", "said"),
    [
        ("/players/nobody", "There is no such player."),
        ("/no/such/page", "There is no page at this address: it may be mistyped, or the link that led here is out"),
        ("/?page=99", "There is no page 99 of the games."),
        ("/tournaments?page=4", "There is no page 4 of the tournaments."),
    ],
)
def test_a_page_not_found_says_so_in_the_sites_words_in_its_layout(browser: Any, path: str, said: str) -> None:
    answer = browser.get(path)
    text = read_text(answer.get_data(as_text=True))
    assert answer.status_code == 404 and "text/html" in answer.content_type
    assert said in text and "Back to the lobby" in text and "Leaderboards" in text  # the site's layout
    assert "requested URL" not in text and "nobody" not in text
    assert browser.get("/api/v1/no/such/thing").get_json()["error"]["code"] == "not_found"  # the API's stays JSON


@pytest.mark.parametrize("page", ["", "?page=1", "?page=0", "?page=-3", "?page=first"])
def test_the_lists_page_numbers_count_from_1_and_a_nonsense_one_reads_the_first(browser: Any, page: str) -> None:
    for path in ("/", "/tournaments", "/leaderboards/tarasque"):
        assert browser.get(path + page).status_code == 200, path + page


def test_a_person_announces_a_tournament_and_registers_from_its_page(
    browser: Any, platform: Any, fake_clock: FakeClock
) -> None:
    csrf = signed_up(browser, "ann")
    assert "Announce a tournament" in html(browser.get("/tournaments"))
    created = browser.post("/tournaments", data=tournament_form(csrf, fake_clock))
    assert created.status_code == 303, created.get_data(as_text=True)
    tid = created.headers["Location"].rsplit("/", 1)[1]
    t = platform.tournaments.get(tid)
    assert (t["name"], t["game"], t["seats"], t["time_control"]["seconds"]) == ("winter cup", "tarasque", 2, 600)
    assert "Register for this tournament" in html(browser.get(f"/tournaments/{tid}"))
    registered = browser.post(f"/tournaments/{tid}/register", data={"csrf": csrf})
    assert registered.status_code == 303
    assert [p["name"] for p in platform.tournaments.get(tid)["players"]] == ["ann"]
    page = html(browser.get(f"/tournaments/{tid}"))
    assert "You are registered." in page and "Register for this tournament" not in page
    listing = html(browser.get("/tournaments"))
    assert f'href="/tournaments/{tid}">winter cup</a>' in listing


def test_a_registration_without_the_csrf_token_is_refused_and_writes_nothing(
    browser: Any, platform: Any, fake_clock: FakeClock
) -> None:
    csrf = signed_up(browser, "ann")
    tid = browser.post("/tournaments", data=tournament_form(csrf, fake_clock)).headers["Location"].rsplit("/", 1)[1]
    for form in ({}, {"csrf": "0" * 40}):
        answer = browser.post(f"/tournaments/{tid}/register", data=form)
        assert answer.status_code == 403 and "text/html" in answer.content_type
    assert platform.tournaments.get(tid)["players"] == []
    refused = browser.post("/tournaments", data={**tournament_form(csrf, fake_clock), "csrf": ""})
    assert refused.status_code == 403
    assert len(platform.tournaments.listing(None, 10, 0)) == 1


def test_a_refused_tournament_form_shows_the_list_again_with_why(browser: Any, fake_clock: FakeClock) -> None:
    csrf = signed_up(browser, "ann")
    answer = browser.post("/tournaments", data=tournament_form(csrf, fake_clock, seats="9"))
    assert answer.status_code == 400
    assert 'role="alert"' in answer.get_data(as_text=True) and "seats" in answer.get_data(as_text=True)


def test_registering_after_the_start_shows_the_page_with_why(
    browser: Any, platform: Any, fake_clock: FakeClock
) -> None:
    csrf = signed_up(browser, "ann")
    tid = browser.post("/tournaments", data=tournament_form(csrf, fake_clock)).headers["Location"].rsplit("/", 1)[1]
    fake_clock.advance(3601)
    answer = browser.post(f"/tournaments/{tid}/register", data={"csrf": csrf})
    assert answer.status_code == 409 and "registration is closed" in answer.get_data(as_text=True)
    assert platform.tournaments.get(tid)["players"] == []


def test_a_running_tournament_shows_its_standings_and_tables_linking_to_their_games(
    browser: Any, platform: Any, fake_clock: FakeClock
) -> None:
    owner, _ = platform.accounts.register("ada", "human")
    bots = [platform.accounts.register_bot(owner, f"bot{k}")[0] for k in range(3)]
    t = platform.tournaments.create(owner, a_minute_ahead(fake_clock, "spring cup"))
    for bot in bots:
        platform.tournaments.register(t["id"], owner, bot.id, "random")
    fake_clock.advance(61)
    assert platform.tournaments.advance(t["id"]) == "running"
    t = platform.tournaments.get(t["id"])
    page = html(browser.get(f"/tournaments/{t['id']}"))
    assert "round 1 of 2" in page and "<h3>Round 1</h3>" in page
    for table in t["rounds"][0]["tables"]:
        if table["bye"]:
            assert "a bye" in page
        else:
            assert f'href="/games/{table["game_id"]}"' in page
    for s in t["standings"]:
        assert profile_href(s["player_id"]) in page
    assert "Register for this tournament" not in page


def test_the_game_page_and_the_lobby_link_seats_to_their_profiles(browser: Any, platform: Any) -> None:
    ada, _ = platform.accounts.register("ada", "human")
    gid = str(platform.games.create_game(ada.id, "tarasque", None, None, 2).id)
    platform.games.take_seat(gid, ada.id, ada.name, ada.kind)
    platform.games.add_bot(gid, ada.id, "greedy")
    platform.wait_for_projections()
    for path, named in ((f"/games/{gid}", "ada (teal)"), ("/", "ada")):
        page = html(browser.get(path))
        assert profile_href(ada.id) + f">{named}</a>" in page, path
        assert profile_href("server-bot:greedy") in page, path


def test_a_tournament_offers_the_server_bots_to_play_a_bot_account_by_their_levels(
    browser: Any, platform: Any, fake_clock: FakeClock
) -> None:
    csrf = signed_up(browser, "ann")
    tid = browser.post("/tournaments", data=tournament_form(csrf, fake_clock)).headers["Location"].rsplit("/", 1)[1]
    ann = platform.accounts.get(platform.tournaments.get(tid)["creator"])
    platform.accounts.register_bot(ann, "ann-bot")
    page = html(browser.get(f"/tournaments/{tid}"))
    start = page.index('<select id="enter-bot-player"')
    chooser = page[start : page.index("</select>", start)]
    offered = re.findall(r'<option value="(\w*)">([^<]*)</option>', chooser)
    assert offered[0] == ("", "its own program (its token)")
    assert offered[1:] == [
        ("random", "the server&#39;s Level 1 bot, which plays any legal move at random"),
        ("beginner", "the server&#39;s Level 2 bot, which knows the good moves but pushes its luck and sometimes "
                     "overlooks the board"),
        ("greedy", "the server&#39;s Level 3 bot, which weighs every move by the harvest it expects"),
        ("search", "the server&#39;s Level 4 bot, which plays like Level 3 but works out every roll still to "
                   "come before it sets dice aside"),
    ]  # fmt: skip


def test_the_tournament_list_filters_by_status(browser: Any, platform: Any, fake_clock: FakeClock) -> None:
    csrf = signed_up(browser, "ann")
    browser.post("/tournaments", data=tournament_form(csrf, fake_clock))
    assert "winter cup" in html(browser.get("/tournaments?status=registering"))
    finished = html(browser.get("/tournaments?status=finished&page=0"))
    assert "winter cup" not in finished and "No tournament here yet." in finished


def test_pages_take_their_own_query_parameters_and_the_api_still_refuses_unknown_ones(browser: Any) -> None:
    """The lobby's filters and pager are the page's own: the API's 400 for an undeclared
    parameter is for the API's operations."""
    assert browser.get("/?game=tarasque&status=open&page=1").status_code == 200
    assert browser.get("/api/v1/catalog?page=1").status_code == 400


def test_a_full_tournament_offers_no_registration(browser: Any, platform: Any, fake_clock: FakeClock) -> None:
    csrf = signed_up(browser, "ann")
    form = tournament_form(csrf, fake_clock, capacity="2")
    tid = browser.post("/tournaments", data=form).headers["Location"].rsplit("/", 1)[1]
    owner, _ = platform.accounts.register("ada", "human")
    for k in range(2):
        platform.tournaments.register(tid, owner, platform.accounts.register_bot(owner, f"bot{k}")[0].id)
    page = html(browser.get(f"/tournaments/{tid}"))
    assert "This tournament is full." in page and "Register for this tournament" not in page
    assert browser.post(f"/tournaments/{tid}/register", data={"csrf": csrf}).status_code == 409


def test_a_rounds_games_read_as_starting_not_playing_before_they_start(
    browser: Any, platform: Any, fake_clock: FakeClock
) -> None:
    """A round is paired a notice before its games start: its tables say when, and so does the game."""
    owner, token = platform.accounts.register("ada", "human")
    bots = [platform.accounts.register_bot(owner, f"bot{k}")[0] for k in range(2)]
    t = platform.tournaments.create(owner, a_minute_ahead(fake_clock, "autumn cup", notice_seconds=300))
    for bot in bots:
        platform.tournaments.register(t["id"], owner, bot.id, "random")
    fake_clock.advance(61)
    assert platform.tournaments.advance(t["id"]) == "running"
    t = platform.tournaments.get(t["id"])
    gid = t["rounds"][0]["tables"][0]["game_id"]
    assert platform.queries.document(gid, None)["status"] == "scheduled"
    text = read_text(html(browser.get(f"/tournaments/{t['id']}")))
    assert "(starts " in text and "(playing)" not in text
    game = read_text(html(browser.get(f"/games/{gid}")))
    assert "Waiting for the start" in game and "The game starts " in game
    creator = platform.games.load(gid).creator
    with pytest.raises(NotAcceptingMoves):  # a tournament's table is the tournament's to cancel
        platform.games.close(gid, creator)
    browser.set_cookie("dragonhall_session", token)
    assert "Close this table" not in read_text(html(browser.get(f"/games/{gid}")))
