"""Server bots are named by their level in the game's ladder, and two bots of one game apart.

A person chose "Level 2" in the lobby, so every page, sentence and API answer names that seat
"Level 2 bot", never by the bot's code name ("beginner bot"); two seats whose names read alike
are numbered apart in seat order ("Level 2 bot (1)", "Level 2 bot (2)"), the same way in the
game's document, the list of games, the narrated log and the leaderboard.
"""

from __future__ import annotations

import random
from typing import Any

from domain.kernel import choose_move
from domain.kernel.narration import Names, display_name, seat_names
from services.reads.game_log import narrated_log
from services.reads.seat_names import names_of

TITLES = {"random": "Level 1", "beginner": "Level 2", "greedy": "Level 3"}.get


def test_a_ladder_bot_reads_as_its_level_and_alike_names_are_numbered_in_seat_order() -> None:
    players = [
        {"seat": 0, "name": "ann"},
        {"seat": 1, "name": "beginner bot", "bot": "beginner"},
        {"seat": 2, "name": "greedy bot", "bot": "greedy"},
        {"seat": 3, "name": "beginner bot", "bot": "beginner"},
    ]
    names = Names.of(players, ("red", "blue", "green", "yellow"), [0], lambda b: TITLES(b) or b)
    assert [names(s) for s in range(4)] == ["You", "Level 2 bot (1)", "Level 3 bot", "Level 2 bot (2)"]
    assert names.full(3) == "Level 2 bot (2) (yellow)"
    assert display_name({"seat": 1, "name": "odd bot", "bot": "odd"}, lambda b: b) == "Odd bot"


def test_names_already_shown_read_the_same_again() -> None:
    """The API's seats carry the names people read; naming them again changes nothing (a page
    names the seats of a document the API answered)."""
    players = [
        {"seat": 0, "name": "greedy bot", "bot": "greedy"},
        {"seat": 1, "name": "greedy bot", "bot": "greedy"},
        {"seat": 2, "name": "ann"},
        {"seat": 3, "name": "Ann"},
    ]
    for title in (None, lambda b: TITLES(b) or b):
        once = seat_names(players, title)
        again = seat_names([{**p, "name": once[p["seat"]]} for p in players], title)
        assert again == once and len(set(once.values())) == 4, once


def _bot_table(platform: Any, bots: list[str], rated: bool = False) -> tuple[str, str]:
    ann = platform.accounts.register("ann", "human")[0].id
    settings = {"rated": True} if rated else None
    game = platform.games.create_game(ann, "tarasque", None, None, len(bots) + (not rated), settings=settings)
    gid = str(game.id)
    if not rated:
        platform.games.take_seat(gid, ann, "ann", "human")
    for bot in bots:
        platform.games.add_bot(gid, ann, bot)
    return gid, ann


def test_the_api_seats_the_list_and_the_log_name_two_beginners_apart(platform: Any) -> None:
    gid, ann = _bot_table(platform, ["beginner", "beginner"])
    doc = platform.queries.document(gid, ann)
    assert [s["name"] for s in doc["seats"]] == ["ann", "Level 2 bot (1)", "Level 2 bot (2)"]
    assert [s["bot"] for s in doc["seats"]] == [None, "beginner", "beginner"]
    platform.wait_for_projections()
    listed = platform.queries.list_games(None, None, None, 10, 0)
    assert [s["name"] for s in listed[0]["seats"]] == ["ann", "Level 2 bot (1)", "Level 2 bot (2)"]
    names = names_of(doc, ann)
    assert [names.full(s) for s in names.seats] == [f"You ({names.colour(0)})",
                                                    f"Level 2 bot (1) ({names.colour(1)})",
                                                    f"Level 2 bot (2) ({names.colour(2)})"]  # fmt: skip
    titles = [step["title"] for step in narrated_log(platform.queries, gid, ann)["steps"]]
    assert f"Level 2 bot (1) ({names.colour(1)}) took a seat" in titles
    assert f"Level 2 bot (2) ({names.colour(2)}) took a seat" in titles
    assert not [t for t in titles if "beginner" in t.lower()]


def test_the_leaderboard_names_server_bots_by_level(platform: Any) -> None:
    gid, _ = _bot_table(platform, ["random", "beginner"], rated=True)
    rng = random.Random(5)
    game = platform.games.load(gid)
    while game.status == "active":
        seat = game.awaiting[0]
        bot = game.ruleset.bot(game.seat_info(seat)["bot"])
        choice = lambda g, s=seat, b=bot: choose_move(g.ruleset, b, g.state, s, rng)  # noqa: E731
        platform.games.play_for(gid, seat, game.version, choice)
        game = platform.games.load(gid)
    platform.wait_for_projections()
    board = platform.profiles.leaderboard("tarasque", 10, 0, provisional=True)
    assert sorted(p["name"] for p in board["players"]) == ["Level 1 bot", "Level 2 bot"]


def test_an_account_the_server_plays_keeps_its_name_as_its_profile_and_the_standings_call_it(
    platform: Any,
) -> None:
    """A bot account entered in a tournament and played by the server's Level 3 bot is still that
    account in its games' seats, lists and logs: only the server's own bot reads as a level."""
    ann = platform.accounts.register("ann", "human")[0]
    rusty = platform.accounts.register_bot(ann, "rusty")[0]
    gid = str(platform.games.create_game(ann.id, "tarasque", None, None, 2).id)
    platform.games.take_seat(gid, rusty.id, rusty.name, "bot", bot="greedy")
    platform.games.add_bot(gid, ann.id, "greedy")
    doc = platform.queries.document(gid, ann.id)
    assert [(s["name"], s["bot"]) for s in doc["seats"]] == [("rusty", "greedy"), ("Level 3 bot", "greedy")]
    names = names_of(doc, ann.id)
    assert [names(s) for s in names.seats] == ["rusty", "Level 3 bot"]
    platform.wait_for_projections()
    listed = platform.queries.list_games(None, None, None, 10, 0)
    assert [s["name"] for s in listed[0]["seats"]] == ["rusty", "Level 3 bot"]
    titles = [step["title"] for step in narrated_log(platform.queries, gid, ann.id)["steps"]]
    assert any(t.startswith("rusty (") for t in titles), titles
