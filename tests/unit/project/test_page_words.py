"""The browser tests' reader of page text (``tests.support.page_text``) finds what it looks for: a
check that matched nothing, or everything, would pass every page."""

from __future__ import annotations

import pytest

from domain.catalog import GAMES
from tests.support.page_text import bot_names, machine_words


@pytest.mark.parametrize("bot", sorted({bot for game in GAMES for bot in game.bots}))
def test_a_server_bot_named_by_its_code_name_is_found(bot: str) -> None:
    assert bot_names(f"Alice lost to the {bot} bot.")
    assert bot_names(f"Seats: {bot.capitalize()} Bot (red)")


def test_a_bot_named_by_its_level_or_a_word_beside_bot_is_not() -> None:
    said = "The Level 3 bot won. Bruno played a random move; the bots' ladder has four levels."
    assert bot_names(said) == []
    assert machine_words(said) == []
