"""A round: secret speeds and laid cards, then movement in race order."""

from __future__ import annotations

import pytest

from domain.drachenreiter import RULESET
from domain.drachenreiter import rulebook as rb
from domain.drachenreiter.cards import Magic
from domain.drachenreiter.commands import Move, SetSpeed
from domain.drachenreiter.events import CardLaid, SpeedRevealed, SpeedSet
from domain.drachenreiter.race import race_order
from domain.drachenreiter.state import Phase, Step
from domain.kernel import IllegalMove, NotYourTurn, Rng, Viewer

from .helpers import clear, dragon, new_race, play, pose


def test_every_dragon_sets_its_speed_at_once() -> None:
    """Rulebook: "Chaque joueur règle, en cachette, sa vitesse": all seats are awaited together."""
    state = new_race(3)
    assert RULESET.awaiting(state) == (0, 1, 2)
    _, state = play(state, 1, SetSpeed(state.dragons[1].speed))
    assert RULESET.awaiting(state) == (0, 2)


@pytest.mark.parametrize(
    ("dial", "asked", "ok"),
    [
        (500, 800, True),
        (500, 200, True),
        (500, 100, False),
        (200, 600, False),
        (100, 400, True),
        (800, 900, False),
    ],
)
def test_a_speed_changes_by_at_most_300(dial: int, asked: int, ok: bool) -> None:
    """Rulebook example: "si ... la VD d'un joueur était de 500, le joueur peut ... augmenter sa VD
    à 800 ou la diminuer à 200"."""
    state = dragon(new_race(), 0, speed=dial)
    if ok:
        events, _ = play(state, 0, SetSpeed(asked))
        assert events[0] == SpeedSet(0, asked)
    else:
        with pytest.raises(IllegalMove) as err:
            play(state, 0, SetSpeed(asked))
        assert err.value.rule == rb.SET_SPEED


def test_an_exhausted_dragon_may_not_exceed_500() -> None:
    """Rulebook: "Il ne peut pas non plus dépasser une vitesse de 500 VD"."""
    state = dragon(new_race(), 0, speed=400, exhausted=True)
    with pytest.raises(IllegalMove) as err:
        play(state, 0, SetSpeed(600))
    assert err.value.rule == rb.SPEED_CAP
    assert max(c.speed for c in RULESET.legal_moves(state, 0)) == 500


def test_a_laid_card_comes_from_the_hand_face_down() -> None:
    """Rulebook: "chaque joueur peut (c'est facultatif) déposer une carte Magie, face cachée"."""
    state = dragon(new_race(), 0, hand=(Magic.LASSO,))
    events, after = play(state, 0, SetSpeed(500, Magic.LASSO))
    assert events == [SpeedSet(0, 500), CardLaid(0, Magic.LASSO)]
    assert after.dragons[0].laid is Magic.LASSO and after.dragons[0].hand == ()
    assert RULESET.view(after, Viewer.of(1))["dragons"][0]["laid"] is None
    assert RULESET.view(after, Viewer.of(1))["dragons"][0]["card_laid"] is True
    with pytest.raises(IllegalMove) as err:
        play(state, 0, SetSpeed(500, Magic.AMULET))
    assert err.value.rule == rb.LAY_CARD


def test_the_set_speed_is_secret_until_the_dragon_moves() -> None:
    """Rulebook: the indicator lies face down; the mover turns it over ("retourne son indicateur")."""
    state = new_race()
    events, state = play(state, 0, SetSpeed(700))
    assert events[0].visible_data(Viewer.of(1))["speed"] == {"hidden": True}
    assert RULESET.view(state, Viewer.of(1))["dragons"][0]["set_speed"] is None
    assert RULESET.view(state, Viewer.of(0))["dragons"][0]["set_speed"] == 700
    assert SetSpeed(700).visible_data(0, Viewer.of(1))["speed"] == {"hidden": True}


def test_movement_starts_with_the_foremost_dragon_showing_its_speed() -> None:
    """Rulebook: "Le joueur dont le dragon est en première position commence"; he reveals his speed."""
    state = new_race(3)
    for seat in range(3):
        events, state = play(state, seat, SetSpeed(state.dragons[seat].speed))
    first = max(range(3), key=lambda s: state.dragons[s].pose.progress)
    assert events[-1] == SpeedRevealed(first, state.dragons[first].speed)
    assert state.phase is Phase.MOVE and state.step is Step.FLY
    assert RULESET.awaiting(state) == (first,)
    with pytest.raises(NotYourTurn):
        play(state, (first + 1) % 3, Move(400, 0.0, 0.0))


def test_on_a_tie_the_inner_dragon_moves_first() -> None:
    """Rulebook: "c'est le dragon se trouvant le plus à l'intérieur du parcours qui se déplace en
    premier" (the ring turns left, so the inside is on the left)."""
    state = clear(new_race(3))
    state = dragon(state, 0, pose=pose(state, 1000.0, -60.0))
    state = dragon(state, 1, pose=pose(state, 1000.0, 60.0))
    state = dragon(state, 2, pose=pose(state, 700.0, 0.0))
    assert race_order(state) == (1, 0, 2)


def test_the_next_mover_is_the_foremost_yet_to_move() -> None:
    """Rulebook: "c'est au tour du joueur dont le dragon est placé juste après celui qui vient de jouer"."""
    state = clear(new_race(3))
    state = dragon(state, 0, pose=pose(state, 300.0))
    state = dragon(state, 1, pose=pose(state, 200.0))
    state = dragon(state, 2, pose=pose(state, 100.0))
    for seat in range(3):
        _, state = play(state, seat, SetSpeed(state.dragons[seat].speed))
    assert state.mover == 0
    _, state = play(state, 0, Move(state.dragons[0].speed, 0.0, 0.0))
    assert state.mover == 1


def test_a_timed_out_speed_keeps_the_dial_and_lays_nothing() -> None:
    """Designed: the least harmful loss of a speed decision is no change at all."""
    state = dragon(new_race(), 0, hand=(Magic.LASSO,))
    events = RULESET.skip(state, 0, Rng(b"x", "skip"))
    assert events == [SpeedSet(0, state.dragons[0].speed)]


def test_a_move_cannot_be_lost() -> None:
    """A timed-out movement has no lost form: the default bot moves."""
    state = new_race()
    for seat in range(2):
        _, state = play(state, seat, SetSpeed(state.dragons[seat].speed))
    assert RULESET.skip(state, state.mover, Rng(b"x", "skip")) is None


def test_a_command_out_of_its_step_is_refused() -> None:
    """Rulebook: the three phases come in order; a speed is set only in phase 1."""
    state = new_race()
    with pytest.raises(IllegalMove) as err:
        play(state, 0, Move(500, 0.0, 0.0))
    assert err.value.rule == rb.ROUND
    for seat in range(2):
        _, state = play(state, seat, SetSpeed(state.dragons[seat].speed))
    with pytest.raises(IllegalMove):
        play(state, state.mover, SetSpeed(400))
