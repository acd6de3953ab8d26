"""The dragon lair: storing base tiles, rows, the egg move (rulebook 3. Après la première manche)."""

from __future__ import annotations

import pytest

from domain.kernel import IllegalMove, Viewer
from domain.tarasque import lair
from domain.tarasque import rulebook as rb
from domain.tarasque.commands import EndTurn, MoveLairTile, SetAside, StoreTile
from domain.tarasque.events import LairTileMoved, TileStored, TurnEnded
from domain.tarasque.state import Phase, TarasqueState
from domain.tarasque.tiles import DRAGON_DICE, NUMBERED
from tests.unit.domain.tarasque.helpers import RULES, base, make, play, types


def test_a_row_is_one_colour_with_different_landscapes_or_one_landscape_with_different_colours() -> None:
    """ "des rangées de dragons de couleurs identiques avec des paysages différents et/ou des rangées de
    dragons de couleurs différentes avec des paysages identiques"."""
    deck = DRAGON_DICE
    assert lair.fits(("red-desert", "red-sea"), "red-forest", deck)
    assert lair.fits(("red-desert", "blue-desert"), "green-desert", deck)
    assert lair.fits(("red-desert",), "green-desert", deck) and lair.fits(("red-desert",), "red-sea", deck)
    assert not lair.fits(("red-desert", "red-sea"), "blue-desert", deck)
    assert not lair.fits(("red-desert", "blue-desert"), "red-sea", deck)
    assert not lair.fits(("red-desert",), "blue-sea", deck)


def test_numbered_rows_are_one_colour_with_different_numbers_or_one_number_with_different_colours() -> None:
    """Adapted rule: "des rangées de dragons de couleurs identiques avec des numéros différents"."""
    deck = NUMBERED
    assert lair.fits(("red-1", "red-2"), "red-6", deck)
    assert lair.fits(("red-1", "blue-1"), "black-1", deck)
    assert not lair.fits(("red-1", "red-2"), "blue-2", deck)


def test_rows_score_their_length_squared() -> None:
    """Évaluation finale: 1, 4, 9, 16, 25, 36 points for rows of 1 to 6 tiles."""
    rows = tuple(tuple(f"red-{m}" for m in DRAGON_DICE.mark.values() if m)[:n] for n in range(1, 7))
    assert [lair.score((r,)) for r in rows] == [1, 4, 9, 16, 25, 36]


def test_the_rulebook_example_totals_23_points() -> None:
    """Exemple pour une évaluation: rows of 4, 2 and 1 tiles (16 + 4 + 1) and 2 eggs: 23 points."""
    state = make(
        seats=2,
        lairs={
            0: [
                ["red-desert", "red-forest", "red-sea", "red-volcano"],
                ["blue-sea", "green-sea"],
                ["black-meadow"],
            ]
        },
        eggs=(2, 1),
    )
    assert RULES.view(state, Viewer.spectator())["scores"][0] == 23
    assert RULES.view(state, Viewer.spectator())["lair_points"][0] == 21


def test_from_the_second_round_base_tiles_enter_the_lair_at_the_start_of_the_turn() -> None:
    """ "À partir de maintenant ... chaque joueur met à l'abri les tuiles de dragon qui se trouvent près
    de sa base — après avoir complété les tuiles au milieu ... et avant de relancer les dés"."""
    state = make(
        seats=3,
        seat=2,
        round=1,
        middle=("blue-sea",),
        bases={0: base(s2=["red-desert"], s4=["red-sea"])},
        lairs={0: [["red-forest"]]},
    )
    events, after = play(state, 2, EndTurn())
    assert types(events) == ["TurnEnded", "TurnStarted", "MiddleRefilled"]
    assert after.turn.phase is Phase.STORE and after.turn.round == 2
    assert RULES.legal_moves(after, 0) == [StoreTile("red-desert", 0), StoreTile("red-desert", None)]


def test_in_the_first_round_base_tiles_stay_at_the_base() -> None:
    """Base tiles are stored only "après la première manche"."""
    state = make(seats=3, seat=0, round=1, middle=("blue-sea",), bases={1: base(s2=["red-desert"])})
    events, after = play(state, 0, EndTurn())
    assert after.turn.seat == 1 and after.turn.round == 1
    assert "TileStored" not in types(events)
    assert after.board.bases[1] == base(s2=["red-desert"])


def storing() -> TarasqueState:
    return make(
        seats=3,
        phase=Phase.STORE,
        middle=("blue-sea",),
        bases={0: base(s2=["red-desert"], s4=["red-sea"])},
        lairs={0: [["red-forest"], ["blue-volcano"]]},
    )


def test_base_tiles_are_stored_side_two_first_each_in_a_compatible_or_new_row() -> None:
    """Designed order (side 2 first) and "Le joueur est libre ... de toujours ouvrir de nouvelles rangées"."""
    state = storing()
    with pytest.raises(IllegalMove) as err:
        play(state, 0, StoreTile("red-sea", 0))
    assert err.value.rule == rb.DESIGNED_STORE_ORDER
    events, after = play(state, 0, StoreTile("red-desert", None))
    assert events == [TileStored(0, "red-desert", 2)]
    assert after.board.lairs[0] == (("red-forest",), ("blue-volcano",), ("red-desert",))
    assert RULES.legal_moves(after, 0) == [
        StoreTile("red-sea", 0),
        StoreTile("red-sea", 2),
        StoreTile("red-sea", None),
    ]


def test_a_tile_cannot_join_a_row_it_does_not_fit() -> None:
    """A row stays one colour (different landscapes) or one landscape (different colours)."""
    with pytest.raises(IllegalMove) as err:
        play(storing(), 0, StoreTile("red-desert", 1))
    assert err.value.rule == rb.LAIR_ROWS
    with pytest.raises(IllegalMove):
        play(storing(), 0, StoreTile("red-desert", 5))


def test_a_tile_that_fits_no_row_opens_a_new_row_by_itself() -> None:
    """A new row is then the only choice, so it is made without asking."""
    state = make(
        seats=3,
        seat=2,
        round=2,
        middle=("blue-sea",),
        bases={0: base(s3=["green-glacier"])},
        lairs={0: [["red-forest"]]},
    )
    events, after = play(state, 2, EndTurn())
    assert TileStored(0, "green-glacier", 1) in events
    assert after.board.bases[0] == base()


def lair_turn(eggs: int = 1) -> TarasqueState:
    return make(
        seats=3,
        middle=("yellow-sea",),
        eggs=(eggs, 1, 1),
        lairs={0: [["red-desert", "red-forest"], ["blue-sea"], ["green-sea", "purple-sea"]]},
    )


def test_returning_an_egg_moves_one_lair_tile_to_another_row_and_ends_the_turn() -> None:
    """ "si, à la fin de son tour, un joueur restitue un œuf ... il peut la retirer d'une rangée et la
    placer dans une autre. On comble les espaces vacants"."""
    state = lair_turn()
    moves = [m for m in RULES.legal_moves(state, 0) if isinstance(m, MoveLairTile)]
    assert moves == [
        MoveLairTile("red-desert", None),
        MoveLairTile("red-forest", None),
        MoveLairTile("blue-sea", 2),
        MoveLairTile("green-sea", 1),
        MoveLairTile("green-sea", None),
        MoveLairTile("purple-sea", 1),
        MoveLairTile("purple-sea", None),
    ]
    events, after = play(state, 0, MoveLairTile("blue-sea", 2))
    assert events[:2] == [LairTileMoved(0, "blue-sea", 2), TurnEnded(0)]
    assert after.board.lairs[0] == (("red-desert", "red-forest"), ("green-sea", "purple-sea", "blue-sea"))
    assert after.board.eggs[0] == 0 and after.board.supply == state.board.supply + 1


def test_a_lair_tile_moves_only_into_a_row_it_fits() -> None:
    """The moved tile must keep its new row valid."""
    with pytest.raises(IllegalMove) as err:
        play(lair_turn(), 0, MoveLairTile("red-desert", 1))
    assert err.value.rule == rb.LAIR_ROWS
    with pytest.raises(IllegalMove):
        play(lair_turn(), 0, MoveLairTile("blue-sea", 1))


def test_without_an_egg_lair_tiles_never_move() -> None:
    """ "la position d'une tuile dans l'antre de dragon ne peut jamais être changée" (except for an egg)."""
    state = make(
        seats=3,
        middle=("yellow-sea",),
        eggs=(0, 1, 1),
        phase=Phase.SELECT,
        showing=("yellow",),
        dice=1,
        lairs={0: [["blue-sea"], ["green-sea"]]},
    )
    events, after = play(state, 0, SetAside("yellow", 1, False))
    assert "TurnEnded" in types(events)  # no tile to take, no egg: the turn ends by itself
    with pytest.raises(IllegalMove) as err:
        play(
            make(
                seats=3,
                middle=("yellow-sea",),
                eggs=(0, 1, 1),
                lairs={0: [["blue-sea"], ["green-sea"]]},
                aside=(0, 2, 0, 0, 0, 0),
            ),
            0,
            MoveLairTile("blue-sea", 1),
        )
    assert err.value.rule == rb.LAIR_MOVE
    assert after.board.lairs[0] == (("blue-sea",), ("green-sea",))


def test_a_tile_outside_ones_lair_cannot_be_moved() -> None:
    """Only the player's own lair tiles move."""
    state = make(seats=3, middle=("yellow-sea",), lairs={0: [["blue-sea"], ["green-sea"]], 1: [["red-sea"]]})
    with pytest.raises(IllegalMove) as err:
        play(state, 0, MoveLairTile("red-sea", 1))
    assert err.value.rule == rb.LAIR_FIXED


def test_the_egg_move_may_follow_a_doubled_die_with_another_egg() -> None:
    """Two different rules: one egg doubles a die during the turn, another pays for the lair move."""
    state = make(
        seats=3,
        middle=("yellow-sea",),
        eggs=(1, 1, 1),
        egg="yellow",
        aside=(0, 1, 0, 0, 0, 0),
        lairs={0: [["blue-sea"], ["green-sea"]]},
    )
    assert MoveLairTile("blue-sea", 1) in RULES.legal_moves(state, 0)
    _, after = play(state, 0, MoveLairTile("blue-sea", 1))
    assert after.board.lairs[0] == (("green-sea", "blue-sea"),)


def test_returning_an_egg_may_move_a_lair_tile_into_a_new_row() -> None:
    """ "Il peut la retirer d'une rangée et la placer dans une autre", and "Le joueur est libre ... de
    toujours ouvrir de nouvelles rangées": the other row may be a new one (``row`` null)."""
    state = lair_turn()
    assert RULES.parse_move({"type": "move_lair_tile", "tile": "red-forest", "row": None}) == MoveLairTile(
        "red-forest", None
    )
    events, after = play(state, 0, MoveLairTile("red-forest", None))
    assert events[:2] == [LairTileMoved(0, "red-forest", 3), TurnEnded(0)]
    assert after.board.lairs[0] == (("red-desert",), ("blue-sea",), ("green-sea", "purple-sea"), ("red-forest",))
    assert after.board.eggs[0] == 0 and after.board.supply == state.board.supply + 1


def test_the_egg_move_lists_a_new_row_for_every_tile_that_shares_its_row() -> None:
    """The new-row moves are listed with the others: one per tile whose row holds another tile."""
    moves = [m for m in RULES.legal_moves(lair_turn(), 0) if isinstance(m, MoveLairTile)]
    assert [m for m in moves if m.row is None] == [
        MoveLairTile("red-desert", None),
        MoveLairTile("red-forest", None),
        MoveLairTile("green-sea", None),
        MoveLairTile("purple-sea", None),
    ]


def test_a_tile_alone_in_its_row_cannot_move_to_a_new_row() -> None:
    """The tile must change its position ("changer la position d'une tuile"): alone in its row, a
    new row would leave the lair as it was, for an egg."""
    with pytest.raises(IllegalMove) as err:
        play(lair_turn(), 0, MoveLairTile("blue-sea", None))
    assert err.value.rule == rb.LAIR_MOVE
    assert MoveLairTile("blue-sea", None) not in RULES.legal_moves(lair_turn(), 0)


def test_a_single_row_of_two_tiles_offers_the_egg_move_so_the_turn_waits() -> None:
    """With an egg and one row of two tiles, a tile may leave for a new row: the turn does not end by
    itself, the player chooses (the move is optional, "il a la possibilité")."""
    state = make(
        seats=3,
        middle=("yellow-sea",),
        eggs=(1, 1, 1),
        phase=Phase.SELECT,
        showing=("yellow",),
        dice=1,
        lairs={0: [["blue-sea", "green-sea"]]},
    )
    events, after = play(state, 0, SetAside("yellow", 1, False))
    assert "TurnEnded" not in types(events)
    assert RULES.legal_moves(after, 0) == [MoveLairTile("blue-sea", None), MoveLairTile("green-sea", None), EndTurn()]


def test_the_new_row_still_needs_an_egg_and_a_tile_of_ones_own_lair() -> None:
    """The other conditions of the egg move hold for a new row too: it costs an egg, it moves only
    one's own lair tiles, and only at the end of the turn."""
    no_egg = make(
        seats=3,
        middle=("yellow-sea",),
        eggs=(0, 1, 1),
        aside=(0, 2, 0, 0, 0, 0),
        lairs={0: [["blue-sea", "green-sea"]]},
    )
    with pytest.raises(IllegalMove) as err:
        play(no_egg, 0, MoveLairTile("blue-sea", None))
    assert err.value.rule == rb.LAIR_MOVE
    theirs = make(seats=3, middle=("yellow-sea",), lairs={0: [["blue-sea"]], 1: [["red-sea", "red-desert"]]})
    with pytest.raises(IllegalMove) as err:
        play(theirs, 0, MoveLairTile("red-sea", None))
    assert err.value.rule == rb.LAIR_FIXED
    rolling = make(
        seats=3,
        middle=("yellow-sea",),
        phase=Phase.CONTINUE,
        showing=("black",),
        dice=1,
        chosen=("yellow",),
        aside=(0, 5, 0, 0, 0, 0),
        lairs={0: [["blue-sea", "green-sea"]]},
    )
    with pytest.raises(IllegalMove):
        play(rolling, 0, MoveLairTile("blue-sea", None))
