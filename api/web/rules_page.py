"""How to play each game: its variants and every rule as this server plays it, in English, each with
the rulebook's own passage it comes from (the books are French, one partly Dutch), for a person who
knows none of the games. A game's page links here, and so does the lobby.

The rules are the rulesets' own (``Ruleset.rules``: the ``RuleRef`` each refusal and event cites), so
this page says what the engine does, not a summary written beside it; the platform's rules common to
every game (whose turn it is, the shape of a move) are left out."""

from __future__ import annotations

from typing import Any

from flask import abort

from api.parser import page_contract
from api.web.pages import render, web
from domain.kernel import ConfigError, Ruleset, find_game
from domain.kernel.rules import DECISIONS_BOOK, book_title

DESIGNED = "platform"
"""The book of a rule the rulebook leaves open, which this server decides."""


@web.route("/rules/<game>", methods=["GET"])
@page_contract(auth="optional", scope="read")
def rules_page(game: str) -> str:
    """The variants and rules of ``game`` (its slug), in words."""
    try:
        ruleset = find_game(game)
    except ConfigError:
        abort(404, description=f"there is no game {game!r}")
    return render("rules.html", title=ruleset.title, rules=rules_of(ruleset), variants=ruleset.variants)


def rules_of(ruleset: Ruleset[Any]) -> list[dict[str, str]]:
    """The game's own rules, in the order the ruleset lists them, each with where it comes from."""
    return [
        {
            "text": r.text,
            "passage": "" if r.book == DESIGNED else r.section,
            "lang": "en" if r.book == DECISIONS_BOOK else "fr",  # the decisions are written in English
            "source": "Decided by this server, where the rulebook is silent"
            if r.book == DESIGNED
            else f"From {book_title(r.book)}",
        }
        for r in ruleset.rules
        if not r.id.startswith("platform.")
    ]
