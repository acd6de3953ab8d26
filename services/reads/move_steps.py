"""A seat's legal moves chosen step by step on the board (``Ruleset.narrow``).

A Mékong seat programmes one of up to 48,720 programmes: listed whole with their words and
their ways on the board, that is 49 pages and seconds of the server's time before a person can
click a card. Narrowed by the refs clicked so far, a listing too long for one page is answered
as the refs that may come next, each in words (a programme's "First card": "the jump card");
once few enough moves are left, they are listed whole, and the page narrows them itself.
"""

from __future__ import annotations

from typing import Any

from domain.kernel.narration import Names
from domain.kernel.pointing import Narrowing, narrowed
from services.play.aggregate import Game
from services.reads.board_points import board_points
from services.reads.game_log import decision_choices, decision_texts

LEGAL_MOVES_PAGE = 1000
"""The most legal moves one page of ``GET /legal-moves`` lists; ``offset`` pages through the rest."""


def narrowed_listing(game: Game, seat: int, chosen: tuple[str, ...], limit: int, words: bool) -> dict[str, Any]:
    """The moves of ``seat`` that ``chosen`` begins (all of them when at most ``limit``, else none)
    and ``next``: the refs that may be clicked after ``chosen``; with ``words``, the listed moves'
    ``refs`` and ``poses`` too."""
    narrowing, points = None, None
    if game.status == "active" and seat in game.awaiting and seat not in game.left:
        narrowing, points = _narrowed(game, seat, chosen)
    moves = narrowing.moves if narrowing is not None else ()
    total = len(moves)
    dump = game.ruleset.commands.dump
    out: dict[str, Any] = {"version": game.version, "seat": seat, "total": total, "offset": 0, "chosen": list(chosen)}
    whole = total <= limit
    out["moves"] = [dump(m) for m in moves] if whole else []
    if narrowing is not None:
        out["next"] = [{"ref": ref, "move": dump(move)} for ref, move in narrowing.next]
    if words:
        listed = len(out["moves"])
        out.update(points if points is not None and whole else board_points(game, seat, 0, listed, chosen))
    return out


def _narrowed(game: Game, seat: int, chosen: tuple[str, ...]) -> tuple[Narrowing, dict[str, Any] | None]:
    """A listing of at most a page is narrowed through its ways on the board as a page reads them,
    kept for the version (``board_points``: a flight's path costs milliseconds), and gives the
    refs and poses of the moves it keeps; a longer one is narrowed by the game (``Ruleset.narrow``:
    Mékong's programmes from the hand alone)."""
    listed = game.ruleset.legal_moves(game.state, seat)
    if len(listed) > LEGAL_MOVES_PAGE:
        return game.ruleset.narrow(game.state, seat, chosen), None
    points = board_points(game, seat, 0, len(listed))
    found = narrowed(enumerate(points["refs"]), chosen)  # each move by its place in the listing
    kept = list(found.moves)
    narrowing = Narrowing([listed[i] for i in kept], tuple((ref, listed[i]) for ref, i in found.next))
    return narrowing, {"refs": [points["refs"][i] for i in kept], "poses": [points["poses"][i] for i in kept]}


def say_next_steps(game: Game, listed: dict[str, Any], names: Names) -> None:
    """Puts words to each ref of ``listed["next"]``: the question and the answer its click is
    (from the move it begins, ``Narrator.choices``), else that move's phrase."""
    seat, depth = listed["seat"], len(listed["chosen"])
    examples = [step["move"] for step in listed["next"]]
    choices = decision_choices(game.ruleset, examples, names, game.variant, seat)
    texts = decision_texts(game.ruleset, examples, names, game.variant, seat)
    for step, said, text in zip(listed["next"], choices, texts, strict=True):
        step["question"], step["answer"] = said[depth] if len(said) > depth else ("Move", text)
    listed["kinds"].update({m["type"]: game.ruleset.narrator.kind(m["type"]) for m in examples})
