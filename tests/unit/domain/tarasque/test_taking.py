"""Taking tiles with the dice set aside (rulebook 1.B, 1.C and 2. La suite)."""

from __future__ import annotations

from typing import Any

import pytest

from domain.kernel import IllegalMove
from domain.tarasque import rulebook as rb
from domain.tarasque.commands import EndTurn, StoreTile, TakeTile
from domain.tarasque.events import EggGiven, TileStored, TileTaken, TurnStarted
from domain.tarasque.state import Phase, TarasqueState
from tests.unit.domain.tarasque.helpers import RULES, ScriptedRng, aside, base, make, play, types


def taking(variant: str = "dragon-dice", egg: str | None = None, **kw: Any) -> TarasqueState:
    """Seat 0 has stopped rolling with the dice ``aside`` (a per-face tuple)."""
    return make(variant=variant, phase=Phase.TAKE, dice=0, egg=egg, **kw)


def test_a_middle_tile_needs_at_least_two_dice_of_its_symbol() -> None:
    """ "on a besoin d'au moins deux dés de dragon de la même couleur (un double)"."""
    one = taking(middle=("red-desert",), aside=aside(red=1))
    assert RULES.legal_moves(one, 0) == [EndTurn()]
    with pytest.raises(IllegalMove) as err:
        play(one, 0, TakeTile("red-desert", 1))
    assert err.value.rule == rb.TAKE_MIDDLE
    two = taking(middle=("red-desert",), aside=aside(red=2))
    events, after = play(two, 0, TakeTile("red-desert", 2))
    assert events[0] == TileTaken(0, "red-desert", 2, None, 2, False)
    assert after.board.bases[0] == base(s2=["red-desert"])
    assert "red-desert" not in after.board.middle


def test_the_tile_goes_to_the_side_equal_to_the_dice_spent() -> None:
    """ "sur le côté correspondant au nombre de dés qui lui a permis d'obtenir cette tuile"."""
    state = taking(middle=("red-desert",), aside=aside(red=4))
    assert RULES.legal_moves(state, 0) == [
        TakeTile("red-desert", 2),
        TakeTile("red-desert", 3),
        TakeTile("red-desert", 4),
        EndTurn(),
    ]
    _, after = play(state, 0, TakeTile("red-desert", 4))
    assert after.board.bases[0] == base(s4=["red-desert"])


def test_a_blue_dragon_at_side_four_needs_five_blue_dice() -> None:
    """Worked example: "S'il y a par exemple un dragon bleu près du côté de quatre, on ne peut le
    remporter qu'avec 5 dés bleus"."""
    four = taking(bases={1: base(s4=["blue-forest"])}, aside=aside(blue=4))
    assert RULES.legal_moves(four, 0) == [EndTurn()]
    with pytest.raises(IllegalMove) as err:
        play(four, 0, TakeTile("blue-forest", 4))
    assert err.value.rule == rb.STEAL
    five = taking(bases={1: base(s4=["blue-forest"])}, aside=aside(blue=5))
    events, after = play(five, 0, TakeTile("blue-forest", 5))
    assert events[0] == TileTaken(0, "blue-forest", 5, 1, 5, False)
    assert after.board.bases[1] == base() and after.board.bases[0] == base(s5=["blue-forest"])


def test_a_numbered_six_at_side_four_needs_five_sixes() -> None:
    """Adapted rule: "S'il y a par exemple un dragon n°6 près du côté de quatre, on ne peut le
    remporter qu'avec cinq « 6 »"."""
    four = taking("numbered", bases={2: base(s4=["green-6"])}, aside=aside("numbered", n6=4))
    assert RULES.legal_moves(four, 0) == [EndTurn()]
    five = taking("numbered", bases={2: base(s4=["green-6"])}, aside=aside("numbered", n6=5))
    assert RULES.legal_moves(five, 0) == [TakeTile("green-6", 5), EndTurn()]


def test_the_victim_of_a_theft_receives_an_egg_from_the_supply() -> None:
    """README decision: the victim receives an egg from the supply ("en contrepartie")."""
    state = taking(bases={1: base(s2=["blue-forest"])}, aside=aside(blue=3))
    events, after = play(state, 0, TakeTile("blue-forest", 3))
    assert events[:2] == [TileTaken(0, "blue-forest", 3, 1, 3, False), EggGiven(1)]
    assert after.board.eggs[1] == 2 and after.board.supply == state.board.supply - 1


def test_the_victim_gets_no_egg_when_the_supply_is_empty() -> None:
    """README decision: an egg "if the supply has one"."""
    state = taking(bases={1: base(s2=["blue-forest"])}, aside=aside(blue=3), eggs=(20, 10, 6))
    assert state.board.supply == 0
    events, after = play(state, 0, TakeTile("blue-forest", 3))
    assert "EggGiven" not in types(events)
    assert after.board.eggs == (20, 10, 6)


def test_four_or_more_dice_may_be_split_among_several_tiles() -> None:
    """ "On peut aussi partager des résultats avec 4, 5 ou 6 symboles identiques pour prendre plusieurs tuiles"."""
    state = taking(middle=("red-desert", "red-sea"), aside=aside(red=4))
    _, after = play(state, 0, TakeTile("red-desert", 2))
    assert RULES.legal_moves(after, 0) == [TakeTile("red-sea", 2), EndTurn()]
    _, done = play(after, 0, TakeTile("red-sea", 2))
    assert done.board.bases[0] == base(s2=["red-desert", "red-sea"])


def test_dice_cannot_be_spent_twice() -> None:
    """Split dice: each die is spent once (here 3 red dice: one red tile only)."""
    state = taking(middle=("red-desert", "red-sea", "blue-sea"), aside=aside(red=3, blue=2))
    _, after = play(state, 0, TakeTile("red-desert", 2))
    assert TakeTile("red-sea", 2) not in RULES.legal_moves(after, 0)
    with pytest.raises(IllegalMove) as err:
        play(after, 0, TakeTile("red-sea", 2))
    assert err.value.rule == rb.SPLIT


def test_one_roll_may_take_from_the_middle_and_from_an_opponent() -> None:
    """ "on peut prendre à la fois une tuile du milieu de la table et une tuile d'un autre joueur"."""
    state = taking(middle=("red-desert",), bases={2: base(s3=["blue-sea"])}, aside=aside(red=2, blue=4))
    _, after = play(state, 0, TakeTile("red-desert", 2))
    _, done = play(after, 0, TakeTile("blue-sea", 4))
    assert done.board.bases[0] == base(s2=["red-desert"], s4=["blue-sea"])


def test_an_egg_die_counts_two_when_taking() -> None:
    """The die on the egg counts as two dice of its symbol."""
    state = taking(middle=("red-desert",), aside=aside(red=2), egg="red")
    assert RULES.legal_moves(state, 0)[-2:] == [TakeTile("red-desert", 3), EndTurn()]


def test_a_tile_taken_with_six_dice_goes_into_the_lair_and_earns_an_extra_turn() -> None:
    """ "Si on arrive à obtenir 6 dragons de la même couleur ... intégrer la tuile gagnée dans son
    antre de dragon ... et rejouer"."""
    # No egg: with nothing left to take and no egg move, the turn ends by itself.
    state = taking(middle=("red-desert",), aside=aside(red=6), lairs={0: [["red-sea"]]}, seats=2, eggs=(0, 1))
    events, after = play(state, 0, TakeTile("red-desert", 6))
    assert events == [TileTaken(0, "red-desert", 6, None, None, True)]
    assert after.turn.phase is Phase.PLACE and after.turn.pending == "red-desert"
    assert RULES.legal_moves(after, 0) == [StoreTile("red-desert", 0), StoreTile("red-desert", None)]
    events, placed = play(after, 0, StoreTile("red-desert", 0))
    assert placed.board.lairs[0][0] == ("red-sea", "red-desert")
    assert types(events)[:3] == ["TileStored", "TurnEnded", "TurnStarted"]
    assert events[2] == TurnStarted(0, 2, True)
    assert placed.turn.seat == 0


def test_five_dice_and_an_egg_make_six() -> None:
    """ "(avec ou sans l'aide d'un œuf de dragon)": the egg counts toward the six."""
    state = taking(bases={1: base(s5=["blue-forest"])}, aside=aside(blue=5), egg="blue")
    assert RULES.legal_moves(state, 0)[0] == TakeTile("blue-forest", 6)
    events, _ = play(state, 0, TakeTile("blue-forest", 6))
    assert events[0] == TileTaken(0, "blue-forest", 6, 1, None, True)
    assert isinstance(events[1], EggGiven)
    assert isinstance(events[2], TileStored)  # an empty lair leaves only a new row


def test_six_dice_split_among_tiles_earn_no_extra_turn() -> None:
    """ "si le joueur ... les partage, il n'a pas le droit de rejouer"."""
    state = taking(middle=("red-desert", "red-sea"), aside=aside(red=6), seats=2)
    _, after = play(state, 0, TakeTile("red-desert", 3))
    events, _ = play(after, 0, TakeTile("red-sea", 3))
    assert types(events)[:3] == ["TileTaken", "TurnEnded", "TurnStarted"]
    assert events[2] == TurnStarted(1, 2, False)


def test_ones_own_base_tiles_cannot_be_taken() -> None:
    """Tiles are taken from the middle or from the *other* players' bases."""
    state = taking(bases={0: base(s2=["red-desert"])}, aside=aside(red=6))
    assert RULES.legal_moves(state, 0) == [EndTurn()]
    with pytest.raises(IllegalMove):
        play(state, 0, TakeTile("red-desert", 3))


def test_a_lair_tile_is_safe_from_theft() -> None:
    """ "Dans cet antre, les tuiles sont définitivement en sécurité"."""
    state = taking(lairs={1: [["red-desert"]]}, aside=aside(red=6))
    with pytest.raises(IllegalMove):
        play(state, 0, TakeTile("red-desert", 6))


@pytest.mark.parametrize(("round_", "stored"), [(1, False), (2, True)])
def test_the_extra_turn_is_a_whole_turn(round_: int, stored: bool) -> None:
    """ "rejouer, c'est-à-dire exécuter un tour complet de plus": refill, and from the second round
    storing the base tiles, the ones just won included (designed reading)."""
    state = taking(
        middle=("red-desert", "blue-sea"), aside=aside(red=6), round=round_, bases={0: base(s3=["green-glacier"])}
    )
    events, after = play(state, 0, TakeTile("red-desert", 6), ScriptedRng(("blue",) + ("black",) * 5))
    start = events.index(TurnStarted(0, round_, True))
    assert (TileStored(0, "green-glacier", 1) in events[start:]) is stored
    assert (after.board.bases[0] == base()) is stored
    assert after.turn.phase is Phase.SELECT
