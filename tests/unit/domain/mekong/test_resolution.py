"""Resolution: positions revealed one at a time, players in turn from the first player, dragons, end of round."""

from __future__ import annotations

from domain.kernel import Viewer
from domain.kernel.narration import Audience, Names
from domain.mekong import RULESET
from domain.mekong.commands import Move, PlaceStone, Program
from domain.mekong.events import (
    ActionCancelled,
    DestinationReached,
    PawnFell,
    PlankActionLost,
    PositionRevealed,
    RemoveActionLost,
    RoundEnded,
    RoundLimitReached,
)
from domain.mekong.state import Phase

from .support import RNG, C, at_position, board, names, of_type, play, seat_of, slot, table

# With pawns in their villages and no stone on the board, none of these cards leaves a choice.
IDLE = (C.MOVE_1, C.MOVE_2, C.JUMP, C.REMOVE, C.PLACE_PLANK)


def test_players_act_in_turn_clockwise_from_the_first_player() -> None:
    """Rulebook: "chacun leur tour, dans le sens des aiguilles d'une montre, en commençant toujours par le premier
    joueur"."""
    state = table("classic", 4, first=2)
    state, _ = at_position(state, 1, {c: slot(1, C.PLACE_STONE) for c in state.colours})
    order = []
    for island in ("i1", "i2", "i3", "i4"):
        (seat,) = RULESET.awaiting(state)
        order.append(seat)
        state, _ = play(state, seat, PlaceStone(island))
    assert order == [2, 3, 0, 1]
    assert state.position == 2


def test_the_red_dragon_of_green_cancels_reds_fourth_action() -> None:
    """Classic rulebook example: "La 4ème carte Action du joueur vert est la carte Dragon rouge. Le joueur rouge
    voit sa 4ème carte Action annulée"."""
    state = table("classic", 4)  # red, green, blue, yellow
    red, green = seat_of(state, "red"), seat_of(state, "green")
    state, events = at_position(
        state,
        4,
        {
            "red": slot(4, C.PLACE_STONE),
            "green": slot(4, C.RED_DRAGON),
            "blue": slot(4, C.PLACE_STONE),
            "yellow": slot(4, C.PLACE_STONE),
        },
    )
    assert events[0] == PositionRevealed(4, (C.PLACE_STONE, C.RED_DRAGON, C.PLACE_STONE, C.PLACE_STONE))
    assert events[1] == ActionCancelled(red, C.PLACE_STONE, (green,))
    assert RULESET.awaiting(state) == (seat_of(state, "blue"),)


def test_two_dragons_at_position_4_both_apply_and_a_dragon_never_cancels_a_dragon() -> None:
    """River Dragons example 5: red plays a green dragon, green a blue dragon, both 4th; the green dragon does not
    cancel the blue one, so blue cannot do its 4th action."""
    state = table("river-dragons", 4)  # blue, green, red, yellow
    blue, green = seat_of(state, "blue"), seat_of(state, "green")
    state, events = at_position(
        state,
        4,
        {
            "blue": slot(4, C.PLACE_STONE),
            "green": slot(4, C.BLUE_DRAGON),
            "red": slot(4, C.GREEN_DRAGON),
            "yellow": slot(4, C.PLACE_STONE),
        },
    )
    assert of_type(events, ActionCancelled) == [ActionCancelled(blue, C.PLACE_STONE, (green,))]
    assert RULESET.awaiting(state) == (seat_of(state, "yellow"),)


def test_several_dragons_of_one_colour_all_count_as_cancelling() -> None:
    """Rulebook: "Si plusieurs joueurs ont posé des cartes Dragon à la même place, tous les effets s'appliquent"."""
    state = table("river-dragons", 3)  # blue, red, yellow
    _, events = at_position(
        state,
        2,
        {
            "blue": slot(2, C.PLACE_STONE),
            "red": slot(2, C.BLUE_DRAGON),
            "yellow": slot(2, C.BLUE_DRAGON),
        },
    )
    assert of_type(events, ActionCancelled) == [ActionCancelled(0, C.PLACE_STONE, (1, 2))]


def test_an_action_that_cannot_be_done_is_lost_with_an_event_saying_why() -> None:
    """Issue: actions with no possible choice are lost automatically, with the reason."""
    state = table("river-dragons", 2)
    _, events = at_position(state, 1, {"pink": slot(1, C.REMOVE), "black": slot(1, C.PLACE_PLANK)})
    assert of_type(events, RemoveActionLost)[0].reason == "no plank or stone can be removed"
    assert of_type(events, PlankActionLost)[0].reason == "no two supports can take another plank"


def test_after_the_fifth_position_the_marker_passes_left_and_the_cards_return_to_the_hands() -> None:
    """Rulebook: "Le premier joueur passe la carte « premier joueur » à son voisin de gauche", then the played cards
    are taken back."""
    state = table("classic", 3, first=1)
    for seat in range(3):
        state, events = play(state, seat, Program(IDLE))
    assert names(events).count("PositionRevealed") == 5
    assert events[-1] == RoundEnded(1, 2)
    assert state.phase is Phase.PROGRAMMING and state.round == 2 and state.first == 2
    assert state.programmes == ((), (), ())
    assert Program(IDLE) in RULESET.legal_moves(state, 0)


def test_the_marker_skips_a_seat_that_left() -> None:
    """The first-player marker passes to the next seat still playing."""
    state = table("classic", 3, first=0)
    state = RULESET.fold(state, RULESET.leave(state, 1, RNG))
    for seat in (0, 2):
        state, events = play(state, seat, Program(IDLE))
    assert events[-1] == RoundEnded(1, 2)


def test_the_game_ends_the_instant_a_pawn_reaches_its_destination() -> None:
    """Rulebook: "La partie prend immédiatement fin lorsque le pion d'un joueur atteint sa destination, et ce même si
    le tour n'est pas fini"."""
    state = table("river-dragons", 2)  # pink goes to black
    state = board(state, stones=("i20",), planks=(("pink-1", "black", "i20"),), pawns={"pink": "pink-1"})
    state, _ = at_position(state, 1, {"pink": slot(1, C.MOVE_1), "black": slot(1, C.PLACE_STONE)})
    state, events = play(state, 0, Move(("black",)))
    assert events[-1] == DestinationReached(0)
    assert state.phase is Phase.OVER and RULESET.awaiting(state) == ()
    outcome = RULESET.outcome(state)
    assert outcome is not None and outcome.places == (1, 2) and outcome.reason == "crossing"
    assert RULESET.view(state, Viewer.everyone())["winner"] == 0


def test_after_the_round_limit_the_pawn_nearest_its_destination_wins() -> None:
    """Designed round limit: the game must end; nearer pawns rank higher, ties share."""
    state = table("river-dragons", 2, round_limit=1)
    state, _ = play(state, 0, Program(IDLE))
    state, events = play(state, 1, Program(IDLE))
    assert events[-2:] == [RoundEnded(1, 1), RoundLimitReached(1)]
    outcome = RULESET.outcome(state)
    assert outcome is not None and outcome.places == (1, 1) and outcome.reason == "round limit"
    nearer = board(state, stones=("i27",), planks=(("pink-1", "pink", "i27"),), pawns={"pink": "pink-1"})
    outcome = RULESET.outcome(nearer)
    assert outcome is not None and outcome.places == (1, 2)


def test_a_pawn_with_nowhere_to_go_falls_and_the_round_goes_on() -> None:
    """Rulebook: a pawn that cannot move falls into the water and returns to its start village."""
    state = table("classic", 2)
    _, events = at_position(state, 3, {"black": slot(3, C.MOVE_2), "white": slot(3, C.JUMP)})
    assert [type(e) for e in events[1:3]] == [PawnFell, PawnFell]


def test_a_game_over_at_the_round_limit_reads_the_last_round_played() -> None:
    """Designed round limit: after round 30 of 30 no round follows. The audit read "round 31 of 30,
    over" on the board and a "Round 31: programming" heading over the log's last lines."""
    state = table("classic", 2, round_limit=2)
    for _ in range(2):
        state, _ = play(state, 0, Program(IDLE))
        state, events = play(state, 1, Program(IDLE))
    assert events[-2:] == [RoundEnded(2, 0), RoundLimitReached(2)]
    assert state.phase is Phase.OVER
    svg = RULESET.render_svg(RULESET.view(state, Viewer.spectator()))
    assert svg is not None and "round 2 of 2, over" in svg and "round 3" not in svg
    config = RULESET.configure("classic", {"round_limit": 2}, 2)
    knowing = Audience(Names.numbered(2, yours=[0]), "classic", config)
    assert RULESET.narrator.turn("RoundEnded", RoundEnded(1, 1).data(), knowing) == "Round 2: programming"
    assert RULESET.narrator.turn("RoundEnded", RoundEnded(2, 0).data(), knowing) is None
