"""Playing on the board (``Ruleset.point``) holds for every game, variant and table size, at
random points of random games, for every awaited seat:

* every ref of every listed legal move is drawn in the seat's own board picture (a
  ``data-ref``), or carries its words for the page to show as the board's own button, or is a
  free point the page marks where it lies;
* no two moves are made by the same clicks unless the page can tell them apart by their pose
  (a card turned two ways, a flight): each move can be chosen on the board;
* the refs and poses reveal nothing hidden from the seat: they are the same when everything
  the seat cannot see is resampled (``observe``).
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from domain.kernel import Rng, Ruleset, Viewer, all_games
from domain.kernel.pointing import narrowed

CASES = [
    pytest.param(g, v.name, n, id=f"{g.slug}-{v.name}-{n}p")
    for g in all_games()
    if type(g).render_svg is not Ruleset.render_svg
    for v in g.variants
    for n in sorted({v.min_seats, v.max_seats})
]
SAMPLE = 400
"""Moves checked per position (a Mékong programme lists 15,120)."""
REF = re.compile(r'data-ref="([^"]+)"')


def positions(ruleset: Any, variant: str, seats: int, seed: int, most: int = 6) -> list[Any]:
    rng = random.Random(seed)
    state, _ = ruleset.new_game(ruleset.configure(variant, None, seats), Rng(b"board-refs", f"{seed}"))
    kept = []
    for decision in range(ruleset.max_decisions):
        if ruleset.is_over(state):
            break
        if rng.random() < 0.2:
            kept.append(state)
        seat = rng.choice(ruleset.awaiting(state))
        moves = ruleset.legal_moves(state, seat)
        events = ruleset.decide(state, seat, moves[rng.randrange(len(moves))], Rng(b"board-refs", f"{decision}"))
        state = ruleset.fold(state, events)
    return rng.sample(kept, min(most, len(kept)))


def sample(moves: Any, rng: random.Random) -> list[Any]:
    picked = range(len(moves)) if len(moves) <= SAMPLE else sorted(rng.sample(range(len(moves)), SAMPLE))
    return [moves[i] for i in picked]


@pytest.mark.parametrize(("ruleset", "variant", "seats"), CASES)
def test_every_legal_move_is_made_on_the_seats_own_board(ruleset: Any, variant: str, seats: int) -> None:
    rng = random.Random(7)
    for state in positions(ruleset, variant, seats, 7):
        for seat in ruleset.awaiting(state):
            drawn = set(REF.findall(ruleset.render_svg(ruleset.view(state, Viewer.of(seat)), None) or ""))
            made_by: dict[tuple[str, ...], Any] = {}
            for move in sample(ruleset.legal_moves(state, seat), rng):
                pointing = ruleset.point(state, seat, move)
                assert pointing.ways, f"{move} cannot be made on the board"
                worded = dict(pointing.labels)
                for way in pointing.ways:
                    marked = {way[0]} if pointing.mark is not None and len(way) == 1 else set()
                    lost = [r for r in way if r not in drawn and r not in worded and r not in marked]
                    assert not lost, f"{move}: {lost} are neither drawn nor worded"
                    other = made_by.setdefault(way, move)
                    assert other == move or pointing.pose() is not None, f"{move} and {other} share {way}"


@pytest.mark.parametrize(("ruleset", "variant", "seats"), CASES)
def test_refs_and_poses_reveal_nothing_hidden_from_the_seat(ruleset: Any, variant: str, seats: int) -> None:
    rng = random.Random(11)
    for state in positions(ruleset, variant, seats, 11, most=3):
        for seat in ruleset.awaiting(state):
            twin = ruleset.observe(state, seat, random.Random(12))
            for move in sample(ruleset.legal_moves(state, seat), rng)[:60]:
                assert ruleset.point(twin, seat, move) == ruleset.point(state, seat, move), (
                    f"how {move} is made on the board depends on something hidden from seat {seat}"
                )


@pytest.mark.parametrize(("ruleset", "variant", "seats"), CASES)
def test_a_game_narrows_its_moves_as_pointing_each_move_would(ruleset: Any, variant: str, seats: int) -> None:
    """``Ruleset.narrow`` (the moves chosen step by step on the board) says what pointing every
    legal move says, at the first step and after the first refs it offers, whether the game
    narrows its own listing (Mékong's programmes) or leaves it to the kernel."""
    for state in positions(ruleset, variant, seats, 13, most=1):
        seat = ruleset.awaiting(state)[0]
        listed = ruleset.legal_moves(state, seat)
        for chosen in ((), *(((ref,) for ref, _ in ruleset.narrow(state, seat, ()).next[:1]))):
            found = ruleset.narrow(state, seat, chosen)
            expected = narrowed(((m, ruleset.point(state, seat, m).ways) for m in listed), chosen)
            assert list(found.moves) == list(expected.moves), chosen
            assert [ref for ref, _ in found.next] == [ref for ref, _ in expected.next], chosen
            for ref, example in found.next:
                ways = ruleset.point(state, seat, example).ways
                assert (*chosen, ref) in {way[: len(chosen) + 1] for way in ways}, (chosen, ref, example)
