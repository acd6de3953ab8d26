"""Every book a game cites has a title people read: the replay and the audit show it where the API
gives the file name (a person never reads ``seven-dragons.nl-fr.txt``)."""

from __future__ import annotations

import pytest

from domain.catalog import GAMES
from domain.kernel import Ruleset
from domain.kernel.rules import book_title


@pytest.mark.parametrize("ruleset", GAMES, ids=lambda r: r.slug)
def test_every_book_a_game_cites_has_a_title(ruleset: Ruleset) -> None:
    books = {rule.book for rule in ruleset.rules}
    assert len(books) >= 2  # its own book and the decisions, at least
    untitled = sorted(b for b in books if book_title(b) == b)
    assert not untitled, f"{ruleset.slug} cites books with no title: {untitled}"
    assert all(not title.endswith((".txt", ".md")) for title in map(book_title, books))
