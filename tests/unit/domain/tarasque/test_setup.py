"""Setup, variants and the material (rulebook: Matériel, Préparatifs)."""

from __future__ import annotations

import pytest

from domain.kernel import ConfigError
from domain.tarasque.events import DiceRolled, MiddleRefilled, PileShuffled, TurnStarted
from domain.tarasque.state import Phase
from domain.tarasque.tiles import DECKS, DRAGON_DICE, NUMBERED
from tests.unit.domain.tarasque.helpers import RULES, new_game, tiles_everywhere, types


def test_the_game_is_registered_with_its_variants_in_order() -> None:
    """Platform: slug ``tarasque``, the default variant first, 2 to 6 players each."""
    assert RULES.slug == "tarasque"
    assert RULES.title == "Tarasque"
    assert RULES.engine_version == "2"
    assert [v.name for v in RULES.variants] == ["dragon-dice", "numbered"]
    assert all((v.min_seats, v.max_seats) == (2, 6) for v in RULES.variants)
    assert RULES.variant(None).name == "dragon-dice"


@pytest.mark.parametrize("seats", [1, 7])
def test_a_game_takes_two_to_six_players(seats: int) -> None:
    """Rulebook: "pour 2 a 6 joueurs"."""
    with pytest.raises(ConfigError):
        RULES.configure("numbered", None, seats)


def test_the_dragon_dice_tiles_combine_each_colour_with_each_landscape() -> None:
    """Matériel: 36 tiles, each dragon colour combined with each landscape; dice show colours."""
    deck = DRAGON_DICE
    assert len(set(deck.tiles)) == 36
    assert {(deck.colour[t], deck.mark[t]) for t in deck.tiles} == {
        (c, m) for c in set(deck.colour.values()) for m in set(deck.mark.values())
    }
    assert all(deck.symbol[t] == deck.colour[t] for t in deck.tiles)
    assert sorted(deck.faces) == sorted(set(deck.colour.values()))


def test_the_numbered_tiles_are_picked_by_their_number() -> None:
    """Adapted rule: tiles of 6 colours numbered 1 to 6; the die's number picks the tile."""
    deck = NUMBERED
    assert len(set(deck.tiles)) == 36
    assert deck.faces == ("1", "2", "3", "4", "5", "6")
    assert deck.symbol["red-6"] == "6" and deck.colour["red-6"] == "red"


@pytest.mark.parametrize("variant", ["dragon-dice", "numbered"])
@pytest.mark.parametrize("seats", [2, 3, 6])
def test_setup_shuffles_the_pile_and_gives_each_player_one_egg(variant: str, seats: int) -> None:
    """Préparatifs: a hidden pile of the shuffled tiles; one egg each, the rest is the supply."""
    state, events = new_game(variant, seats)
    assert isinstance(events[0], PileShuffled)
    assert sorted(events[0].order) == sorted(DECKS[variant].tiles)
    assert state.board.eggs == (1,) * seats
    assert state.board.supply == 36 - seats
    assert sorted(tiles_everywhere(state)) == sorted(DECKS[variant].tiles)


def test_the_first_player_turns_up_three_tiles_and_rolls_the_six_dice() -> None:
    """1.A and 1.B: the first player turns up 3 tiles into the middle, then rolls the 6 dice."""
    state, events = new_game("dragon-dice", 3)
    assert types(events)[:4] == ["PileShuffled", "TurnStarted", "MiddleRefilled", "DiceRolled"]
    assert events[1] == TurnStarted(0, 1, False)
    refill = events[2]
    assert isinstance(refill, MiddleRefilled) and refill.tiles == events[0].order[:3]
    roll = events[3]
    assert isinstance(roll, DiceRolled) and len(roll.values) == 6
    assert state.board.middle == refill.tiles
    assert state.turn.seat == 0 and state.turn.rolls == 1


def test_with_two_players_four_tiles_are_turned_up_and_one_must_be_removed_first() -> None:
    """Règles spéciales pour deux: 4 tiles in the middle; the active player removes one before rolling."""
    state, events = new_game("numbered", 2)
    assert types(events) == ["PileShuffled", "TurnStarted", "MiddleRefilled"]
    assert len(state.board.middle) == 4
    assert state.turn.phase is Phase.REMOVE
    assert RULES.awaiting(state) == (0,)


def test_the_same_seed_gives_the_same_opening() -> None:
    """Determinism: the same seed gives the same events."""
    assert new_game("dragon-dice", 4, b"x")[1] == new_game("dragon-dice", 4, b"x")[1]
    assert new_game("dragon-dice", 4, b"x")[1] != new_game("dragon-dice", 4, b"y")[1]
