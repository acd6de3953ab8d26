"""How to play each game: a page a newcomer reaches from the lobby and from a game's page, saying
every rule the engine plays by, in English, with its rulebook's passage, and nothing of the API."""

from __future__ import annotations

from typing import Any

import pytest

from api.app import create_app
from domain.catalog import GAMES
from tests.e2e.test_web_competition_pages import read_text
from tests.e2e.test_web_session import signed_up
from tests.support.page_text import machine_words


@pytest.mark.parametrize("ruleset", GAMES, ids=lambda r: r.slug)
def test_each_game_says_how_it_is_played_rule_by_rule(platform: Any, ruleset: Any) -> None:
    browser = create_app(platform).test_client()
    lobby = browser.get("/").get_data(as_text=True)
    assert f'href="/rules/{ruleset.slug}"' in lobby, "the lobby links every game's rules"
    answer = browser.get(f"/rules/{ruleset.slug}")
    text = " ".join(read_text(answer.get_data(as_text=True)).split())
    assert answer.status_code == 200 and f"How to play {ruleset.title}" in text
    own = [r for r in ruleset.rules if not r.id.startswith("platform.")]
    assert own and all(" ".join(r.text.split()) in text for r in own), "every rule of the game, in English"
    assert all(v.description in text for v in ruleset.variants)
    passages = [r.section for r in own if r.book != "platform"]
    assert passages and all(" ".join(p.split()) in text for p in passages), "each with its rulebook's passage"
    assert "A move is one of the game's commands" not in text, "the platform's API rules are not a game's"
    assert not machine_words(text), machine_words(text)


def test_a_game_page_links_its_rules_and_an_unknown_game_has_none(platform: Any) -> None:
    browser = create_app(platform).test_client()
    csrf = signed_up(browser, "ann")
    form = {"variant": "tarasque/dragon-dice", "players": "2", "sit": "1", "others": "people", "clock": "none"}
    page = browser.post("/games", data={**form, "csrf": csrf}).headers["Location"]
    assert 'href="/rules/tarasque">How to play Tarasque</a>' in browser.get(page).get_data(as_text=True)
    assert browser.get("/rules/chess").status_code == 404
