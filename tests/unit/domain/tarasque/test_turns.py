"""The course of play: refilling, the 2-player removal, turn order, the end and the ranking."""

from __future__ import annotations

import pytest

from domain.kernel import GameOver, IllegalMove, NotYourTurn, Viewer
from domain.tarasque import rulebook as rb
from domain.tarasque.commands import EndTurn, RemoveTile, Roll, SetAside, StoreTile, TakeTile
from domain.tarasque.events import GameEnded, MiddleRefilled, TileRemoved, TurnStarted
from domain.tarasque.state import Phase
from tests.unit.domain.tarasque.helpers import RULES, ScriptedRng, aside, base, make, play, types


def red_roll() -> ScriptedRng:
    """A first roll with one red die: valid whenever a red tile is in the middle."""
    return ScriptedRng(("red",) + ("black",) * 5)


def test_the_middle_is_refilled_to_three_tiles_at_the_start_of_a_turn() -> None:
    """ "le joueur retourne autant de nouvelles tuiles que nécessaire pour qu'il y en ait de nouveau 3"."""
    state = make(seats=3, middle=("red-desert",), pile=("blue-sea", "green-sea", "yellow-sea"))
    events, after = play(state, 0, EndTurn(), red_roll())
    assert events[2] == MiddleRefilled(("blue-sea", "green-sea"))
    assert after.board.middle == ("red-desert", "blue-sea", "green-sea")
    assert after.board.pile == ("yellow-sea",)


def test_at_the_end_of_the_pile_fewer_tiles_are_turned_up() -> None:
    """ "(À la fin de la partie, il est possible qu'il reste moins de tuiles.)"."""
    state = make(seats=3, middle=(), pile=("blue-sea",), bases={2: base(s2=["red-sea"])})
    events, after = play(state, 0, EndTurn(), red_roll())
    assert MiddleRefilled(("blue-sea",)) in events
    assert after.board.middle == ("blue-sea",) and after.board.pile == ()


def test_play_passes_to_the_next_seat_and_a_new_round_starts_after_the_last() -> None:
    """ "Quand un joueur a terminé son tour, c'est au tour de son voisin de gauche"."""
    state = make(seats=3, seat=1, round=3, middle=("red-desert",))
    events, after = play(state, 1, EndTurn(), red_roll())
    assert events[1] == TurnStarted(2, 3, False) and after.turn.seat == 2
    _, last = play(make(seats=3, seat=2, round=3, middle=("red-desert",)), 2, EndTurn(), red_roll())
    assert last.turn.seat == 0 and last.turn.round == 4


def test_the_first_roll_of_a_turn_is_automatic_and_later_rolls_are_chosen() -> None:
    """1.B: "il lance les 6 dés": no choice precedes the first roll; afterwards rolling is a choice."""
    state = make(seats=3, seat=2, middle=("red-desert", "blue-sea", "green-sea"))
    events, after = play(state, 2, EndTurn(), ScriptedRng(("red", "red", "blue", "black", "black", "black")))
    assert types(events)[-1] == "DiceRolled"
    assert after.turn.phase is Phase.SELECT and after.turn.rolls == 1
    assert Roll() not in RULES.legal_moves(after, 0)


def test_with_two_players_the_active_player_removes_one_of_four_middle_tiles_for_good() -> None:
    """Règles spéciales pour deux: "choisit l'une des 4 tuiles qu'il élimine complètement de la partie"."""
    state = make(seats=2, seat=1, middle=("red-desert",), pile=("blue-sea", "green-sea", "yellow-sea", "black-sea"))
    events, after = play(state, 1, EndTurn())
    assert types(events) == ["TurnEnded", "TurnStarted", "MiddleRefilled"]
    assert after.turn.phase is Phase.REMOVE and len(after.board.middle) == 4
    assert RULES.legal_moves(after, 0) == [RemoveTile(t) for t in after.board.middle]
    with pytest.raises(IllegalMove):
        play(after, 0, TakeTile("blue-sea", 2))
    events, removed = play(after, 0, RemoveTile("green-sea"), red_roll())
    assert events[0] == TileRemoved(0, "green-sea")
    assert removed.board.removed == ("green-sea",)
    assert removed.board.middle == ("red-desert", "blue-sea", "yellow-sea")
    # The removed tile lies aside "de manière à ce que les deux joueurs puissent la voir".
    for viewer in (Viewer.of(0), Viewer.of(1), Viewer.spectator()):
        assert RULES.view(removed, viewer)["removed"] == ["green-sea"]


def test_only_a_middle_tile_can_be_removed() -> None:
    """The removed tile is "l'une des 4 tuiles" of the middle."""
    state = make(seats=2, phase=Phase.REMOVE, middle=("red-desert", "blue-sea"))
    with pytest.raises(IllegalMove) as err:
        play(state, 0, RemoveTile("green-sea"))
    assert err.value.rule == rb.TWO_PLAYERS


def test_with_two_players_the_last_tiles_of_the_pile_still_make_four_and_one_is_removed() -> None:
    """While the pile can fill the middle to 4, the removal goes on: "l'une des 4 tuiles"."""
    state = make(seats=2, seat=1, middle=("red-desert", "blue-sea"), pile=("green-sea", "yellow-sea"))
    events, after = play(state, 1, EndTurn())
    assert types(events) == ["TurnEnded", "TurnStarted", "MiddleRefilled"]
    assert after.turn.phase is Phase.REMOVE and after.board.pile == () and len(after.board.middle) == 4


def test_with_two_players_nothing_is_removed_once_the_pile_cannot_fill_the_middle_to_four() -> None:
    """Designed (docs/rules/tarasque.md): the removal is a choice among "4 (au lieu de 3)" tiles that
    leaves 3, as in the game of 3 or more; once the pile cannot make 4, nothing is removed and, as
    there, fewer tiles remain ("il est possible qu'il reste moins de tuiles"): the player rolls for them."""
    state = make(seats=2, seat=1, middle=("red-desert", "blue-sea"), pile=("green-sea",))
    events, after = play(state, 1, EndTurn(), red_roll())
    assert types(events) == ["TurnEnded", "TurnStarted", "MiddleRefilled", "DiceRolled"]
    assert after.board.middle == ("red-desert", "blue-sea", "green-sea") and after.board.removed == ()
    assert after.turn.phase is Phase.SELECT


def test_with_two_players_a_lone_middle_tile_stays_in_play_until_someone_wins_it() -> None:
    """Designed: with the pile empty, the last middle tile is not removed by itself at the start of a
    turn; it waits in the middle like the other tiles until someone wins it."""
    state = make(seats=2, seat=1, middle=("red-desert",), pile=(), rest_removed=True, lairs={0: [["red-sea"]]})
    events, after = play(state, 1, EndTurn(), red_roll())
    assert "TileRemoved" not in types(events) and after.board.middle == ("red-desert",)
    assert after.turn.phase is Phase.SELECT and RULES.legal_moves(after, 0)[0] == SetAside("red", 1, False)


def test_the_game_ends_the_moment_the_last_tile_enters_a_lair() -> None:
    """README decision: "The game ends the moment the last tile enters a lair"."""
    state = make(
        seats=2,
        phase=Phase.STORE,
        pile=(),
        rest_removed=True,
        bases={0: base(s5=["red-sea"])},
        lairs={0: [["red-desert"]], 1: [["blue-sea"], ["green-sea"]]},
        eggs=(3, 0),
    )
    events, after = play(state, 0, StoreTile("red-sea", 0))
    assert types(events) == ["TileStored", "GameEnded"]
    assert events[1] == GameEnded((4 + 3, 2), "the last tile entered a lair")
    assert RULES.awaiting(after) == ()
    outcome = RULES.outcome(after)
    assert outcome is not None and outcome.places == (1, 2) and outcome.scores == (7.0, 2.0)
    with pytest.raises(GameOver):
        play(after, 0, EndTurn())


def test_removed_tiles_count_as_gone_for_the_end() -> None:
    """README decision "The game ends the moment the last tile enters a lair": with 2 players, the
    tiles removed for good are not waited for; the last tile stored from a base ends the game."""
    state = make(
        seats=2,
        seat=1,
        pile=(),
        rest_removed=True,
        bases={0: base(s2=["red-sea"])},
        lairs={0: [["blue-desert"]]},
        eggs=(0, 0),
    )
    events, after = play(state, 1, EndTurn())
    assert types(events)[-2:] == ["TileStored", "GameEnded"]
    assert after.turn.phase is Phase.OVER and len(after.board.removed) == 34


def test_equal_scores_share_the_place() -> None:
    """README decision: "Ties share the win"."""
    state = make(
        seats=3,
        pile=(),
        middle=(),
        eggs=(2, 2, 1),
        phase=Phase.TAKE,
        lairs={0: [["red-desert"]], 1: [["blue-sea"]], 2: [["green-sea"]]},
    )
    over = RULES.evolve(state, GameEnded((3, 3, 2), "the last tile entered a lair"))
    outcome = RULES.outcome(over)
    assert outcome is not None and outcome.places == (1, 1, 3) and outcome.winners == (0, 1)


def test_moves_out_of_turn_are_refused() -> None:
    """Only the active seat may move."""
    state = make(seats=3, middle=("red-desert",), aside=aside(red=2))
    with pytest.raises(NotYourTurn):
        play(state, 2, TakeTile("red-desert", 2))
