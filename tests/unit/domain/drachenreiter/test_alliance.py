"""The forced alliance: turned as the dragon ahead is about to move, joined after its turn.

Rulebook (Cooperatio Subrepta): "Cette carte est retournée dès qu’un dragon adverse doit être bougé, à
condition que ce dragon se trouve devant [...] et qu'il se trouve à une distance de 400 VD au maximum [...]
Le dragon du joueur ayant mis la carte en jeu peut rejoindre le dragon adverse **après** que celui-ci a
effectué son déplacement. Mais il doit se positionner derrière lui (sans heurter d’autres dragons). Le dragon
déplacé peut être tourné dans la direction souhaitée [...] le joueur n'effectue plus de déplacement pendant
ce tour [...] L’aiguille de couleur de l’indicateur de vitesse doit alors être placée sur celle en argent."
"""

from __future__ import annotations

import math
import random

import pytest

from domain.drachenreiter import RULESET
from domain.drachenreiter import rulebook as rb
from domain.drachenreiter.cards import Magic
from domain.drachenreiter.commands import Ally, Face, Move, SetSpeed
from domain.drachenreiter.events import (
    AllianceAnswered,
    AllianceTurned,
    AllianceWindowClosed,
    AllianceWindowOpened,
    CardPlayed,
    DragonFaced,
    HeadingAwaited,
    SpeedDialled,
    SpeedRevealed,
    TurnEnded,
)
from domain.drachenreiter.facing import faced as facing_to
from domain.drachenreiter.magic_events import AllianceJoined, AmuletShielded, MagicMissed
from domain.drachenreiter.shapes import base, norm
from domain.drachenreiter.state import Facing, Step
from domain.kernel import IllegalMove, NotYourTurn, Rng, Viewer

from .helpers import clear, dragon, new_race, of_type, play, pose, whole_turn


def lined_up(them: float = 230.0, third: bool = False, **theirs):
    """The speed phase: seat 0 (holding a forced alliance) centred at progress 100 on the ring's start
    straight, seat 1 at ``them`` ahead of it; with ``third``, seat 2 (holding a lasso) at 60."""
    state = clear(new_race(3 if third else 2))
    state = dragon(state, 0, pose=pose(state, 100.0), hand=(Magic.ALLIANCE,), speed=300, energy=2)
    state = dragon(state, 1, pose=pose(state, them), **{"speed": 500, "energy": 3, "hand": (), **theirs})
    if third:
        state = dragon(state, 2, pose=pose(state, 40.0, 60.0), hand=(Magic.LASSO,), speed=300)
    return state


def speeds_set(state, **laid: Magic | None):
    """Every seat sets its dial's speed; seat 0 lays its alliance, others what ``laid`` names."""
    cards = {0: Magic.ALLIANCE, **{int(k[1:]): v for k, v in laid.items()}}
    events = []
    for seat in range(state.seats):
        more, state = play(state, seat, SetSpeed(state.dragons[seat].speed, cards.get(seat)))
        events += more
    return events, state


def test_the_alliance_is_asked_for_as_the_dragon_ahead_is_about_to_move() -> None:
    """Rulebook: "Cette carte est retournée dès qu’un dragon adverse doit être bougé": once seat 1 has shown
    its speed and before it moves, seat 0 (yet to move, a card face down) is asked."""
    events, state = speeds_set(lined_up())
    assert events[-2:] == [SpeedRevealed(1, 500), AllianceWindowOpened(1, (0,))]
    assert state.step is Step.ALLY and state.mover == 1
    assert RULESET.awaiting(state) == (0,)
    assert RULESET.legal_moves(state, 0) == [Ally(False), Ally(True)]
    with pytest.raises(NotYourTurn):
        play(state, 1, Move(500, 0.0, 0.0))


def test_a_turned_alliance_joins_just_behind_the_dragon_once_its_turn_is_over() -> None:
    """Rulebook: the holder "peut rejoindre le dragon adverse **après** que celui-ci a effectué son
    déplacement. Mais il doit se positionner derrière lui"; then "le joueur n'effectue plus de déplacement
    pendant ce tour" and its coloured needle goes "sur celle en argent"."""
    _, state = speeds_set(lined_up())
    events, state = play(state, 0, Ally(True))
    assert events == [
        AllianceAnswered(0, True),
        CardPlayed(0, Magic.ALLIANCE),
        AllianceTurned(0, 1),
        AllianceWindowClosed(1),
    ]
    assert state.step is Step.FLY and RULESET.awaiting(state) == (1,) and state.dragons[0].ally_of == 1
    events, state = play(state, 1, Move(500, 0.0, 0.0))
    joined = of_type(events, AllianceJoined)[0]
    assert events.index(TurnEnded(1)) < events.index(joined)
    assert HeadingAwaited(0, Facing.ALLIANCE) == events[-1] and RULESET.awaiting(state) == (0,)
    them = state.dragons[1].pose
    assert them.progress - 60 < joined.pose.progress < them.progress - 49
    assert state.dragons[0].set_speed == state.dragons[0].speed == 300
    events, state = play(state, 0, Face(joined.pose.heading))
    assert events[:2] == [DragonFaced(0, Facing.ALLIANCE, joined.pose, -1), TurnEnded(0)]
    assert not of_type(events, SpeedDialled) and state.round == 2 and state.dragons[0].speed == 300


def test_the_player_of_the_joined_dragon_chooses_its_heading() -> None:
    """Rulebook: "Le dragon déplacé peut être tourné dans la direction souhaitée": every whole heading fits
    here (the dragon moves across the track where it must); no heading at all (infinity) is refused."""
    _, state = speeds_set(lined_up())
    _, state = play(state, 0, Ally(True))
    _, state = play(state, 1, Move(500, 0.0, 0.0))
    listed = RULESET.legal_moves(state, 0)
    assert Face(30.0) in listed and len(listed) > 10
    events, after = play(state, 0, Face(30.0))
    faced = of_type(events, DragonFaced)[0].pose
    placed = state.dragons[0].pose
    assert faced.heading == 30.0 and (faced.x, faced.y) == (placed.x, placed.y)
    a, b = after.dragons[0].pose, after.dragons[1].pose
    assert not base(a.x, a.y, a.heading).intersects(base(b.x, b.y, b.heading))
    headings = [h for h in map(float, range(-180, 180)) if abs(norm(h - placed.heading)) > 0.5]
    assert all(facing_to(state, 0, h) is not None for h in headings), "moved across the track, every heading fits"
    with pytest.raises(IllegalMove) as err:
        play(state, 0, Face(math.inf))
    assert err.value.rule == rb.RESOLUTION


def test_the_alliance_is_no_longer_played_at_the_holders_own_turn() -> None:
    """Rulebook: the card is turned as an opposing dragon is about to move; at its own turn the holder only
    moves (the engine once let it join a dragon that had already landed)."""
    _, state = speeds_set(lined_up())
    _, state = play(state, 0, Ally(False))
    _, state = whole_turn(state, 1, Move(500, 0.0, 0.0))
    assert state.mover == 0 and state.step is Step.FLY
    assert {m.TYPE for m in RULESET.legal_moves(state, 0)} == {"move"}


def test_an_alliance_out_of_range_is_lost_and_the_holder_moves_in_its_turn() -> None:
    """Rulebook: the dragon must be "à une distance de 400 VD au maximum", measured once the card is turned
    ("on ne peut pas préalablement tester si on atteint le but souhaité")."""
    _, state = speeds_set(lined_up(them=420.0))
    assert RULESET.awaiting(state) == (0,)  # asked all the same: distance is no criterion
    events, state = play(state, 0, Ally(True))
    assert MagicMissed(0, 1, "out of range 400") in events and not of_type(events, AllianceTurned)
    assert state.dragons[0].laid is None and state.dragons[0].ally_of is None
    _, state = whole_turn(state, 1, Move(500, 0.0, 0.0))
    assert state.mover == 0 and state.step is Step.FLY


def test_an_amulet_protects_against_a_forced_alliance() -> None:
    """Rulebook: the amulet protects "contre les attaques adverses ... de alliance forcée"."""
    _, state = speeds_set(lined_up(hand=(Magic.AMULET,)), s1=Magic.AMULET)
    events, state = play(state, 0, Ally(True))
    assert AmuletShielded(1) in events and MagicMissed(0, 1, "amulet") in events
    assert state.dragons[0].ally_of is None


def test_every_dragon_with_a_face_down_card_is_asked_so_the_question_reveals_nothing() -> None:
    """Hidden information: being asked depends only on public facts (yet to move, a card face down), so
    seat 2's lasso is asked like seat 0's alliance; seat 2 may only answer no."""
    _, state = speeds_set(lined_up(third=True), s2=Magic.LASSO)
    assert state.window == (0, 2) and RULESET.awaiting(state) == (0, 2)
    assert RULESET.legal_moves(state, 2) == [Ally(False)]
    with pytest.raises(IllegalMove) as err:
        play(state, 2, Ally(True))
    assert err.value.rule == rb.LAID_ONLY


def test_no_dragon_is_asked_without_a_face_down_card() -> None:
    """The window opens only for dragons that could hold an alliance: none laid a card here."""
    state = lined_up()
    for seat in range(2):
        events, state = play(state, seat, SetSpeed(state.dragons[seat].speed))
    assert not of_type(events, AllianceWindowOpened) and state.step is Step.FLY


def test_answers_are_secret_until_every_asked_dragon_has_answered() -> None:
    """Like the speeds, the answers are given in secret: no seat sees another's before giving its own, and the
    cards are turned only once all have answered."""
    _, state = speeds_set(lined_up(third=True), s2=Magic.LASSO)
    events, state = play(state, 0, Ally(True))
    assert events == [AllianceAnswered(0, True)] and state.step is Step.ALLY
    assert RULESET.awaiting(state) == (2,)
    seen = RULESET.view(state, Viewer.of(2))["dragons"][0]
    assert seen["answered"] and seen["answer"] is None and seen["laid"] is None
    assert events[0].visible_data(Viewer.of(2))["turn"] == {"hidden": True}
    assert Ally(True).visible_data(0, Viewer.of(2))["turn"] == {"hidden": True}
    assert RULESET.view(state, Viewer.of(0))["dragons"][0]["answer"] is True
    events, state = play(state, 2, Ally(False))
    assert events[1:] == [CardPlayed(0, Magic.ALLIANCE), AllianceTurned(0, 1), AllianceWindowClosed(1)]
    assert state.dragons[2].laid is Magic.LASSO and state.dragons[2].answer is None


def test_observe_resamples_the_others_answers_from_what_the_seat_knows() -> None:
    """Platform decision 2: a seat's observation depends only on what it knows; two states that differ in
    another seat's secret answer give the same observation."""
    _, state = speeds_set(lined_up(third=True), s2=Magic.LASSO)
    _, state = play(state, 0, Ally(True))
    twin = RULESET.observe(state, 2, random.Random(5))
    for k in range(6):
        assert RULESET.observe(twin, 2, random.Random(k)) == RULESET.observe(state, 2, random.Random(k))
    assert RULESET.observe(state, 0, random.Random(1)).dragons[0].answer is True


def test_a_timed_out_alliance_answer_turns_nothing() -> None:
    """Designed: losing the answer is not turning the card."""
    _, state = speeds_set(lined_up())
    events = RULESET.skip(state, 0, Rng(b"x", "skip"))
    assert events is not None and events[0] == AllianceAnswered(0, False)
    after = RULESET.fold(state, events)
    assert after.dragons[0].laid is Magic.ALLIANCE and after.step is Step.FLY


def test_a_holder_that_leaves_before_answering_closes_the_window() -> None:
    """Platform: a seat that leaves is out of the race; the dragon about to move then moves."""
    _, state = speeds_set(lined_up(third=True), s2=Magic.LASSO)
    _, state = play(state, 2, Ally(False))
    after = RULESET.fold(state, RULESET.leave(state, 0, Rng(b"x", "leave")))
    assert after.step is Step.FLY and RULESET.awaiting(after) == (1,) and not after.window


def test_the_racer_turns_an_alliance_that_takes_it_further() -> None:
    """Bots: the racer turns its alliance when the dragon about to move is within 400 and flies faster."""
    _, state = speeds_set(lined_up())
    state = dragon(state, 1, set_speed=800)
    assert RULESET.bot("racer").choose(state, 0, random.Random(1)) == Ally(True)
    slow = dragon(state, 1, set_speed=100)
    slow = dragon(slow, 0, set_speed=600)
    assert RULESET.bot("racer").choose(slow, 0, random.Random(1)) == Ally(False)
