"""Programming: 5 cards of the hand in order, face down, at most one dragon (rulebook "Phase de programmation")."""

from __future__ import annotations

import random

import pytest

from domain.kernel import Codec, IllegalMove, NotYourTurn, Viewer
from domain.mekong import RULESET
from domain.mekong import rulebook as rb
from domain.mekong.cards import Card, programme_fault
from domain.mekong.commands import Move, Program
from domain.mekong.events import CardsProgrammed, PositionRevealed
from domain.mekong.state import Phase

from .support import RNG, C, play, slot, table

PLAN = (C.PLACE_2_STONES, C.PLACE_PLANK, C.MOVE_1, C.REMOVE, C.JUMP)


def test_a_programme_of_5_cards_of_the_hand_is_placed_and_the_others_are_still_awaited() -> None:
    """Rulebook: "Chaque joueur choisit 5 cartes Action parmi celles qu'il a en main"."""
    state = table("classic", 3)
    state, events = play(state, 1, Program(PLAN))
    assert events == [CardsProgrammed(1, PLAN)]
    assert state.programmes[1] == PLAN
    assert RULESET.awaiting(state) == (0, 2)


@pytest.mark.parametrize(
    ("cards", "rule"),
    [
        ((C.MOVE_1, C.MOVE_2, C.JUMP, C.REMOVE), rb.PROGRAMMING),
        ((C.MOVE_1, C.MOVE_1, C.JUMP, C.REMOVE, C.PLACE_STONE), rb.PROGRAMMING),
        ((C.MOVE_1, C.MOVE_2, C.JUMP, C.REMOVE, C.GREEN_DRAGON), rb.HAND),
        ((C.MOVE_1, C.MOVE_2, C.JUMP, C.WHITE_DRAGON, C.BLUE_DRAGON), rb.ONE_DRAGON),
    ],
    ids=["four-cards", "a-card-twice", "dragon-of-a-colour-not-in-play", "two-dragons"],
)
def test_a_programme_that_breaks_the_rules_is_refused(cards: tuple[Card, ...], rule: object) -> None:
    """Rulebook: 5 cards of one's hand; "Un joueur ne peut poser plus d'une seule carte Dragon par tour"."""
    state = table("classic", 3)  # red, blue, white
    with pytest.raises(IllegalMove) as refused:
        RULESET.decide(state, 0, Program(cards), RNG)
    assert refused.value.rule == rule


def test_one_dragon_of_another_colour_in_play_may_be_programmed_or_none() -> None:
    """Rulebook: "Il peut aussi n'en poser aucune"."""
    held = table("classic", 3).hand(0)
    assert programme_fault((C.MOVE_1, C.MOVE_2, C.JUMP, C.REMOVE, C.WHITE_DRAGON), held) is None
    assert programme_fault(PLAN, held) is None
    assert programme_fault((C.MOVE_1, C.MOVE_2, C.JUMP, C.REMOVE, C.RED_DRAGON), held) is not None


def test_once_placed_a_programme_cannot_be_changed() -> None:
    """Rulebook: "une fois posées les cartes NE PEUVENT PLUS être changées ou déplacées"."""
    state, _ = play(table("classic", 3), 0, Program(PLAN))
    with pytest.raises(NotYourTurn):
        RULESET.decide(state, 0, Program(PLAN[::-1]), RNG)


def test_no_action_is_taken_before_every_seat_has_programmed() -> None:
    """Rulebook: the first cards are turned over when all players have placed 5 cards."""
    state = table("classic", 2)
    with pytest.raises(IllegalMove):
        RULESET.decide(state, 0, Move(("black",)), RNG)


def test_when_the_last_programme_is_placed_the_first_cards_are_revealed_together() -> None:
    """Rulebook: "ils retournent ensemble leur première carte"."""
    state, _ = play(table("classic", 2), 0, Program(PLAN))
    state, events = play(state, 1, Program(slot(1, C.MOVE_2)))
    assert events[:2] == [CardsProgrammed(1, slot(1, C.MOVE_2)), PositionRevealed(1, (C.PLACE_2_STONES, C.MOVE_2))]
    assert state.phase is Phase.RESOLUTION and state.position == 1


def test_programmed_cards_are_secret_until_revealed_only_their_count_shows() -> None:
    """Issue: programmed cards are secret until revealed; only their count is public while programming."""
    state, events = play(table("classic", 2), 0, Program(PLAN))
    assert events[0].visible_data(Viewer.of(1))["cards"] == {"hidden": 5}
    assert events[0].visible_data(Viewer.spectator())["cards"] == {"hidden": 5}
    assert events[0].visible_data(Viewer.of(0))["cards"] == [c.value for c in PLAN]
    assert Program(PLAN).visible_data(0, Viewer.of(1))["cards"] == {"hidden": 5}
    other = RULESET.view(state, Viewer.of(1))["seats"][0]
    assert other["programmed"] == 5 and other["programme"] == [None] * 5
    assert RULESET.view(state, Viewer.of(0))["seats"][0]["programme"] == [c.value for c in PLAN]
    assert RULESET.view(state, Viewer.everyone())["seats"][0]["programme"] == [c.value for c in PLAN]


def test_revealed_positions_show_and_later_ones_stay_hidden() -> None:
    """Rulebook: cards are revealed position by position."""
    state, _ = play(table("classic", 2), 0, Program(PLAN))
    state, _ = play(state, 1, Program(slot(1, C.MOVE_1)))
    seen = RULESET.view(state, Viewer.of(1))["seats"][0]["programme"]
    assert seen == ["place-2-stones", None, None, None, None]


def test_observing_resamples_the_others_programmes_among_their_legal_ones() -> None:
    """Issue: observe resamples other seats' programmes among their legal programmes while programming."""
    state, _ = play(table("classic", 3), 0, Program(PLAN))
    seen = set()
    for n in range(20):
        observed = RULESET.observe(state, 1, random.Random(n))
        assert observed.programmes[1] == () and observed.programmes[2] == ()
        assert programme_fault(observed.programmes[0], state.hand(0)) is None
        assert RULESET.view(observed, Viewer.of(1)) == RULESET.view(state, Viewer.of(1))
        seen.add(observed.programmes[0])
    assert len(seen) > 1
    assert RULESET.observe(state, 0, random.Random(1)).programmes[0] == PLAN


def test_observing_during_resolution_keeps_the_revealed_cards_and_at_most_one_dragon() -> None:
    """Hidden cards are redrawn from what is left of the hand."""
    mine = (C.MOVE_1, C.WHITE_DRAGON, C.JUMP, C.REMOVE, C.MOVE_2)
    state, _ = play(table("classic", 2), 0, Program(mine))
    state, _ = play(state, 1, Program(slot(1, C.MOVE_1)))
    for n in range(30):
        observed = RULESET.observe(state, 1, random.Random(n))
        assert observed.programmes[0][:1] == (C.MOVE_1,)
        assert programme_fault(observed.programmes[0], state.hand(0)) is None


def test_every_programme_is_listed_lazily_and_each_is_accepted() -> None:
    """9 cards give 8x7x6x5x4 + 5x(8x7x6x5) = 15,120 programmes; 13 cards 48,720."""
    state = table("classic", 2)
    moves = RULESET.legal_moves(state, 0)
    assert len(moves) == 15_120
    assert len(RULESET.legal_moves(table("classic", 6), 0)) == 48_720
    assert Program(PLAN) in moves and Program((C.MOVE_1,) * 5) not in moves
    listed = list(moves)
    assert len(set(listed)) == len(listed) == 15_120 and listed[1234] == moves[1234] and listed[-1] == moves[-1]
    for n in range(0, 15_120, 997):
        assert programme_fault(moves[n].cards, state.hand(0)) is None
        assert RULESET.parse_move(Codec.dump(moves[n])) == moves[n]
        RULESET.decide(state, 0, moves[n], RNG)


def test_programming_cannot_be_skipped() -> None:
    """Issue: the programming decision cannot be skipped."""
    assert RULESET.skip(table("classic", 2), 0, RNG) is None


def test_a_seats_programme_listing_stands_while_the_others_programme_and_ends_with_its_own() -> None:
    """The seats programme at once (rulebook "Phase de programmation"): what one may programme
    comes from its hand alone, so its listing's key (``Ruleset.listing_key``) is the same whoever
    else has programmed, and each seat's differs; once it has programmed it lists nothing."""
    state = table("classic", 3)
    key = RULESET.listing_key(state, 0)
    assert key is not None and key != RULESET.listing_key(state, 2)
    moved, _ = play(state, 1, Program(PLAN))
    assert RULESET.listing_key(moved, 0) == key
    assert list(RULESET.legal_moves(moved, 0)) == list(RULESET.legal_moves(state, 0))
    assert RULESET.listing_key(moved, 1) is None


def test_a_listing_of_the_resolution_has_no_key() -> None:
    """Cards are resolved one by one on a river every decision changes: no key, the version decides."""
    state = table("classic", 2)
    for seat in (0, 1):
        state, _ = play(state, seat, Program(PLAN) if seat == 1 else next(iter(RULESET.legal_moves(state, 0))))
    assert state.phase is not Phase.PROGRAMMING
    assert all(RULESET.listing_key(state, seat) is None for seat in range(2))
