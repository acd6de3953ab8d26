"""Editions, seats, hands and the opening (rulebooks' "Préparation du jeu" and the README's seat tables)."""

from __future__ import annotations

import pytest

from domain.kernel import ConfigError, Rng
from domain.mekong import RULESET
from domain.mekong.cards import ACTIONS, Card, dragon_of
from domain.mekong.events import FirstPlayerDrawn
from domain.mekong.state import Phase

from .support import table

CLASSIC_SEATS = {
    2: ("black", "white"),
    3: ("red", "blue", "white"),
    4: ("red", "green", "blue", "yellow"),
    5: ("red", "green", "blue", "yellow", "white"),
    6: ("yellow", "red", "green", "blue", "black", "white"),
}
RIVER_SEATS = {
    2: ("pink", "black"),
    3: ("blue", "red", "yellow"),
    4: ("blue", "green", "red", "yellow"),
    5: ("blue", "green", "red", "yellow", "pink"),
    6: ("blue", "green", "red", "yellow", "pink", "black"),
}


def test_the_game_is_registered_with_its_three_variants_classic_first() -> None:
    """Issue: slug mekong, variants classic (default), river-dragons, challenge, 2 to 6 players."""
    assert (RULESET.slug, RULESET.title, RULESET.engine_version) == ("mekong", "Les Dragons du Mékong", "2")
    assert [v.name for v in RULESET.variants] == ["classic", "river-dragons", "challenge"]
    assert RULESET.variant(None).name == "classic"
    assert all((v.min_seats, v.max_seats) == (2, 6) for v in RULESET.variants)


@pytest.mark.parametrize("players", [1, 7])
def test_fewer_than_2_or_more_than_6_players_cannot_play(players: int) -> None:
    """Rulebook: de 2 à 6 joueurs."""
    with pytest.raises(ConfigError):
        RULESET.configure("classic", None, players)


def test_the_round_limit_is_an_option_between_1_and_60() -> None:
    """Designed: a game ends after the round limit (30 by default)."""
    assert RULESET.configure("classic", None, 2).options.round_limit == 30
    assert RULESET.configure("classic", {"round_limit": 12}, 2).options.round_limit == 12
    with pytest.raises(ConfigError):
        RULESET.configure("classic", {"round_limit": 0}, 2)


@pytest.mark.parametrize("players", range(2, 7))
def test_classic_seats_take_the_colours_of_the_classic_table(players: int) -> None:
    """Classic rulebook: "A 4 joueurs, on ne joue qu'avec les pions rouge, vert, bleu et jaune"."""
    state = table("classic", players)
    assert state.colours == CLASSIC_SEATS[players]
    assert RULESET.seat_labels(state) == CLASSIC_SEATS[players]


@pytest.mark.parametrize("variant", ["river-dragons", "challenge"])
@pytest.mark.parametrize("players", range(2, 7))
def test_river_dragons_seats_take_the_colours_of_its_table(variant: str, players: int) -> None:
    """River Dragons rulebook table: 2 players pink and black; 4 players blue, green, red and yellow."""
    assert table(variant, players).colours == RIVER_SEATS[players]


@pytest.mark.parametrize("players", range(2, 7))
def test_a_hand_is_the_8_actions_and_the_dragons_of_the_other_colours_in_play(players: int) -> None:
    """README: 8 action cards plus the dragons of the other colours in play: 9 to 13 cards."""
    state = table("classic", players)
    for seat, colour in enumerate(state.colours):
        hand = state.hand(seat)
        assert len(hand) == 7 + players
        assert set(ACTIONS) <= set(hand)
        assert {c for c in hand if c.dragon} == {dragon_of(o) for o in state.colours if o != colour}


def test_each_player_starts_with_six_planks_of_their_colour_and_27_stones_in_the_common_reserve() -> None:
    """Rulebook: 6 planches de la même couleur et de tailles différentes; 27 pierres."""
    state = table("classic", 3)
    assert state.reserves == tuple(tuple(f"{c}-{s}" for s in range(1, 7)) for c in state.colours)
    assert state.stone_reserve == 27 and state.stones == ()
    assert state.pawns == state.colours


def test_each_pawn_goes_to_the_village_opposite_its_start() -> None:
    """README: destinations red-green, blue-yellow, black-white (pink)."""
    classic = table("classic", 6)
    assert [classic.destination(s) for s in range(6)] == ["blue", "green", "red", "yellow", "white", "black"]
    river = table("river-dragons", 2)
    assert [river.destination(s) for s in range(2)] == ["black", "pink"]


def test_the_first_player_is_drawn_by_lot_and_recorded() -> None:
    """Rulebook: the youngest player takes the first-player card; here a recorded draw stands in."""
    config = RULESET.configure("classic", None, 4)
    firsts = set()
    for n in range(12):
        events = RULESET.setup(RULESET.initial(config), Rng(bytes([n]), "setup"))
        assert len(events) == 1 and isinstance(events[0], FirstPlayerDrawn)
        firsts.add(events[0].seat)
        again = RULESET.setup(RULESET.initial(config), Rng(bytes([n]), "setup"))
        assert again == events
    assert firsts <= {0, 1, 2, 3} and len(firsts) > 1
    state, _ = RULESET.new_game(config, Rng(b"x", "setup"))
    assert state.phase is Phase.PROGRAMMING and RULESET.awaiting(state) == (0, 1, 2, 3)


def test_dragon_cards_exist_for_every_colour_of_both_editions() -> None:
    """Rulebook: 13 cards per colour, 5 of them the dragons of the other colours."""
    for colour in ("yellow", "red", "green", "blue", "black", "white", "pink"):
        assert dragon_of(colour).dragon == colour
    assert Card.MOVE_2.dragon is None and Card.PLACE_2_PLANKS.count == 2
