"""What a move can touch: symbols, fields, traps, borders, other dragons; Debilitatus."""

from __future__ import annotations

from dataclasses import replace

import pytest
import shapely

from domain.drachenreiter import RULESET
from domain.drachenreiter import rulebook as rb
from domain.drachenreiter.cards import Magic
from domain.drachenreiter.commands import Aim, Discard, Draw, Hold, Move
from domain.drachenreiter.dimensions import BASE_LENGTH, TRAP_RADIUS
from domain.drachenreiter.events import (
    CardsDrawn,
    DebilitatusLifted,
    DiscardReshuffled,
    DragonCrashed,
    DragonEliminated,
    DragonStruck,
    DrawOffered,
    EnergyGained,
    EnergyLost,
    Exhausted,
    HandOverflowed,
    SpeedDialled,
    TemplateCrashed,
    TrapSprung,
    TurnEnded,
)
from domain.drachenreiter.flight import fly
from domain.drachenreiter.race import settable_speeds
from domain.drachenreiter.shapes import base, template
from domain.drachenreiter.state import Step
from domain.kernel import IllegalMove

from .helpers import clear, dragon, moving, new_race, of_type, play, pose, track_of, whole_turn, with_traps


def at(s: float, u: float = 0.0, speed: int = 100, **changes):
    """Seat 0 centred at ``(s, u)`` facing along the ring, about to move at ``speed``."""
    state = clear(new_race())
    state = dragon(state, 0, pose=pose(state, s, u), **{"energy": 3, **changes})
    return moving(state, 0, speed)


def symbol(k: int = 0):
    return track_of(new_race()).symbols[k]


def field(k: int = 0):
    return track_of(new_race()).fields[k]


def test_a_symbol_under_the_template_draws_a_card() -> None:
    """Rulebook: "Lorsque ... l'élément de trajectoire touche un symbole de carte Magie, le joueur peut
    tirer une carte Magie"."""
    sym = symbol()
    state = at(sym.s - 45, sym.u)
    events, after = play(state, 0, Move(100, 0.0, 0.0))
    assert DrawOffered(0, 1) in events
    events, after = play(after, 0, Draw(1))
    drawn = of_type(events, CardsDrawn)
    assert len(drawn) == 1 and drawn[0].cards == state.deck[:1]
    assert len(after.dragons[0].hand) == len(state.dragons[0].hand) + 1


def test_a_symbol_under_the_dragon_draws_a_card() -> None:
    """Rulebook: "Il en va de même si, après le déplacement, le dragon touche ce symbole"."""
    sym = symbol(1)
    events, after = play(at(sym.s - 90, sym.u), 0, Move(100, 0.0, 0.0))
    assert DrawOffered(0, 1) in events
    assert len(of_type(play(after, 0, Draw(1))[0], CardsDrawn)) == 1


def test_an_exhausted_dragon_draws_no_card() -> None:
    """Rulebook: "Il ne peut pas en recevoir d'autres, tant que son dragon est exténué"."""
    sym = symbol()
    events, _ = play(at(sym.s - 45, sym.u, exhausted=True), 0, Move(100, 0.0, 0.0))
    assert not of_type(events, CardsDrawn) and not of_type(events, DrawOffered) and TurnEnded(0) in events


def test_an_empty_pile_is_refilled_from_the_discard_pile() -> None:
    """Rulebook: "il faut mélanger celles de la pile de dépôt et les remettre sur la pile"."""
    sym = symbol()
    state = at(sym.s - 45, sym.u)
    state = replace(state, discard=state.deck, deck=())
    _, offered = play(state, 0, Move(100, 0.0, 0.0))
    events, after = play(offered, 0, Draw(1))
    shuffled = of_type(events, DiscardReshuffled)[0]
    assert sorted(shuffled.cards) == sorted(state.discard)
    assert of_type(events, CardsDrawn)[0].cards == shuffled.cards[:1]
    assert after.discard == ()


def test_a_fifth_card_is_discarded_by_the_players_choice() -> None:
    """Rulebook: "Lorsqu'un joueur en tire une cinquième, il doit en déposer une"."""
    sym = symbol()
    hand = (Magic.AMULET, Magic.LASSO, Magic.LASSO, Magic.TRAP)
    _, state = play(at(sym.s - 45, sym.u, hand=hand), 0, Move(100, 0.0, 0.0))
    events, state = play(state, 0, Draw(1))
    assert HandOverflowed(0, 1) in events and state.step is Step.DISCARD
    assert RULESET.awaiting(state) == (0,)
    with pytest.raises(IllegalMove) as err:
        play(state, 0, Discard((Magic.LASSO, Magic.TRAP)))
    assert err.value.rule == rb.HAND_LIMIT
    events, state = play(state, 0, Discard((Magic.LASSO,)))
    assert len(state.dragons[0].hand) == 4 and state.discard[-1] is Magic.LASSO
    assert TurnEnded(0) in events


def test_the_laid_card_does_not_count_toward_the_limit() -> None:
    """Rulebook: "La carte mise en jeu, posée à côté de l'indicateur de vitesse, ne compte pas"."""
    sym = symbol()
    state = at(sym.s - 45, sym.u, hand=(Magic.LASSO, Magic.LASSO, Magic.TRAP))
    state = dragon(state, 0, laid=Magic.AMULET)
    _, state = play(state, 0, Move(100, 0.0, 0.0))
    events, _ = play(state, 0, Draw(1))
    assert not of_type(events, HandOverflowed)


def test_a_field_under_the_dragon_gives_one_energy_up_to_four() -> None:
    """Rulebook: "Si, après un déplacement, un dragon ... touche un champ Energie, alors le joueur obtient
    un jeton Energie"; "jamais ... plus de quatre jetons Energie"."""
    f = field()
    events, after = play(at(f.s - 90, f.u, energy=2), 0, Move(100, 0.0, 0.0))
    assert EnergyGained(0, 1) in events and after.dragons[0].energy == 3
    assert after.dragons[0].haven == 0
    events, after = play(at(f.s - 90, f.u, energy=4), 0, Move(100, 0.0, 0.0))
    assert not of_type(events, EnergyGained) and after.dragons[0].energy == 4


def test_a_field_under_the_template_only_gives_nothing() -> None:
    """Rulebook: "un dragon (et non un élément de trajectoire)"."""
    f = field()
    state = at(f.s - 60, f.u, speed=200, energy=2)
    events, after = play(state, 0, Move(200, 0.0, 0.0))
    assert not of_type(events, EnergyGained)
    p = after.dragons[0].pose
    assert not shapely.intersects(track_of(state).field_shapes[0], base(p.x, p.y, p.heading))
    assert after.dragons[0].haven == 0  # but it crossed it


def test_each_trap_touched_is_flipped_costs_its_value_and_leaves() -> None:
    """Rulebook: "le piège doit être retourné et retiré du jeu ... Il se peut qu'au cours d'un seul
    déplacement, un joueur touche plusieurs pièges magiques"."""
    state = with_traps(at(100.0, 0.0, speed=400, energy=4), (200.0, 0.0, 1), (270.0, 0.0, 2), (200.0, 70.0, 2))
    events, after = play(state, 0, Move(400, 0.0, 0.0))
    assert [(e.trap, e.value) for e in of_type(events, TrapSprung)] == [(100, 1), (101, 2)]
    assert EnergyLost(0, 3, "trap 100, trap 101") in events
    assert after.dragons[0].energy == 1 and [t.id for t in after.traps] == [102]


def test_a_field_gives_before_a_trap_takes() -> None:
    """Rulebook: "touche un piège ... et que son dragon se retrouve sur un champ Energie. Dans ce cas, il
    reçoit un jeton Energie, mais il doit éventuellement en donner"."""
    f = field()
    x, y = track_of(new_race()).point_at(f.s - 45, f.u)
    state = with_traps(at(f.s - 90, f.u, energy=0), (x, y, 1))
    events, after = play(state, 0, Move(100, 0.0, 0.0))
    assert not of_type(events, Exhausted) and after.dragons[0].energy == 0


def test_a_dragon_touching_a_border_goes_back_inside_at_the_same_height() -> None:
    """Rulebook: "il doit replacer son dragon à la même hauteur, mais à l'intérieur du parcours ...
    céder un jeton Energie et régler son indicateur de vitesse sur 100 VD"."""
    state = at(200.0, -40.0, speed=100)
    events, after = play(state, 0, Move(100, -45.0, -45.0))
    crash = of_type(events, DragonCrashed)[0]
    tr = track_of(state)
    assert shapely.contains_properly(tr.area, base(crash.pose.x, crash.pose.y, crash.pose.heading))
    assert crash.pose.x == pytest.approx(200 + 25 + 40 * 0.7071, abs=0.01)  # same height
    assert EnergyLost(0, 1, "dragon crash") in events and SpeedDialled(0, 100) in events
    assert after.dragons[0].energy == 2


def test_a_template_touching_a_border_stops_the_dragon_where_it_touched() -> None:
    """Rulebook: "il doit placer son dragon à l'intérieur du parcours, à l'endroit où l'élément de
    trajectoire a touché la bordure ... céder deux jetons Energie et ... 100 VD"."""
    state = at(200.0, 0.0, speed=400)
    events, after = whole_turn(state, 0, Move(400, -60.0, 0.0))
    crash = of_type(events, TemplateCrashed)[0]
    contact = 225 + 96 / 3**0.5  # the bar's near edge meets y = -100
    assert crash.pose.x == pytest.approx(contact, abs=1.0)
    assert crash.pose.heading == 0.0 and crash.pose.y - 17 > -100
    assert EnergyLost(0, 2, "template crash") in events and after.dragons[0].speed == 100


def test_hitting_another_dragon_costs_energy_and_speed_and_moves_it_aside() -> None:
    """Rulebook: "doit céder un jeton Energie et diminuer sa vitesse de 100 VD"; the struck dragon goes
    back inside "le long de la bordure, à la même hauteur"."""
    state = at(100.0, 0.0, speed=400)
    state = dragon(state, 1, pose=pose(state, 200.0, 0.0))
    events, after = play(state, 0, Move(400, 0.0, 0.0))
    struck = of_type(events, DragonStruck)[0]
    assert (struck.seat, struck.struck) == (0, 1)
    assert struck.pose.x == pytest.approx(200.0) and abs(struck.pose.y) > 60  # beside, at the border
    assert EnergyLost(0, 1, "collision with seat 1") in events and SpeedDialled(0, 300) in events
    a, b = after.dragons[0].pose, after.dragons[1].pose
    assert not base(a.x, a.y, a.heading).intersects(base(b.x, b.y, b.heading))


def test_a_struck_dragon_with_no_room_slides_back() -> None:
    """Rulebook: "ce dragon doit être glissé en arrière le long de la ligne jaune jusqu'à ce qu'il se
    retrouve à un endroit où il ne touche aucun autre élément"."""
    state = clear(new_race(4))
    state = dragon(state, 0, pose=pose(state, 100.0), energy=4)
    state = dragon(state, 1, pose=pose(state, 200.0, 0.0))
    state = dragon(state, 2, pose=pose(state, 200.0, 60.0))
    state = dragon(state, 3, pose=pose(state, 200.0, -60.0))
    state = moving(state, 0, 400)
    events, _after = play(state, 0, Move(400, 0.0, 0.0))
    struck = of_type(events, DragonStruck)[0]
    assert struck.struck == 1 and struck.pose.x < 200.0 - 30


def test_a_dragon_that_cannot_pay_takes_a_debilitatus() -> None:
    """Rulebook: "Lorsqu'un joueur doit céder un jeton Energie mais qu'il n'en a plus ... placer son dragon
    sur le dernier champ Energie qu'il a traversé ... 300 VD ... deux jetons ... déposer toutes ses
    cartes Magie"."""
    state = at(200.0, 0.0, speed=400, energy=1, haven=1, hand=(Magic.LASSO, Magic.TRAP))
    state = dragon(state, 0, laid=Magic.AMULET)
    events, after = whole_turn(state, 0, Move(400, -60.0, 0.0))
    ex = of_type(events, Exhausted)[0]
    assert sorted(ex.cards) == sorted((Magic.LASSO, Magic.TRAP, Magic.AMULET))
    f = track_of(state).fields[1]
    assert (ex.pose.x, ex.pose.y) == pytest.approx((f.x, f.y), abs=1.0)
    d = after.dragons[0]
    assert (d.energy, d.speed, d.exhausted, d.hand, d.laid) == (2, 300, True, (), None)
    assert TurnEnded(0) in events and not of_type(events, SpeedDialled)


def test_the_next_field_lifts_the_debilitatus() -> None:
    """Rulebook: "La prochaine fois que le dragon de ce joueur touche un champ Energie, il peut rendre la
    carte « Debilitatus »"."""
    f = field()
    events, after = play(at(f.s - 90, f.u, energy=2, exhausted=True), 0, Move(100, 0.0, 0.0))
    assert DebilitatusLifted(0) in events and not after.dragons[0].exhausted


def test_a_second_debilitatus_eliminates_the_dragon() -> None:
    """Rulebook: "Dans le cas où un dragon exténué recevrait une seconde carte « Debilitatus », il serait
    éliminé de la partie"."""
    state = at(200.0, 0.0, speed=400, energy=0, exhausted=True)
    events, after = whole_turn(state, 0, Move(400, -60.0, 0.0))
    assert of_type(events, DragonEliminated)
    assert after.dragons[0].out and after.out_order == (0,)
    assert RULESET.is_over(after)  # one dragon left of two


def test_a_crashed_mover_may_still_play_its_laid_card() -> None:
    """Rulebook: "Dans les deux cas, il est possible de jouer une carte Magie éventuellement déposée"."""
    state = dragon(at(200.0, 0.0, speed=400, energy=3), 0, laid=Magic.FIREBALL_800)
    _, after = whole_turn(state, 0, Move(400, -60.0, 0.0))
    assert after.step is Step.CAST
    events, _ = play(after, 0, Hold())
    assert TurnEnded(0) in events


def test_landing_on_another_dragon_is_a_collision_too() -> None:
    """Rulebook: "un autre dragon peut être touché par un élément de trajectoire ou par le dragon du
    joueur dont c'est le tour"."""
    state = at(100.0, 0.0, speed=400)
    state = dragon(state, 1, pose=pose(state, 300.0, 20.0))  # beside the bar, under the landing
    flight_events, after = play(state, 0, Move(400, 0.0, 0.0))
    assert of_type(flight_events, DragonStruck)[0].struck == 1
    a, b = after.dragons[0].pose, after.dragons[1].pose
    assert not base(a.x, a.y, a.heading).intersects(base(b.x, b.y, b.heading))


def test_after_a_template_crash_only_the_template_up_to_the_contact_counts() -> None:
    """Rulebook: the dragon stops "à l'endroit où l'élément de trajectoire a touché la bordure": what lies
    beyond the contact is not touched."""
    state = at(200.0, 0.0, speed=400)
    reach = fly(state, 0, 400, -60.0, 0.0).template.reach
    assert 100 < reach < 120
    d, n = (0.5, -0.866), (0.866, 0.5)  # along the bar at -60°, and its left normal
    beyond = (225 + (reach + 13) * d[0] - 10 * n[0], (reach + 13) * d[1] - 10 * n[1])
    before = (225 + 60 * d[0], 60 * d[1])
    assert template(225.0, 0.0, -60.0, 130.0).intersects(shapely.Point(beyond).buffer(TRAP_RADIUS))
    state = with_traps(state, (*before, 1), (*beyond, 2))
    events, _ = whole_turn(state, 0, Move(400, -60.0, 0.0))
    assert [e.trap for e in of_type(events, TrapSprung)] == [100]


def test_a_debilitatus_never_sends_a_dragon_a_lap_ahead() -> None:
    """The last field crossed lies behind the dragon: late in a lap, the start place is a lap back."""
    tr = track_of(new_race())
    state = at(tr.length - 600.0, 0.0, speed=400, energy=0, haven=-1)
    progress = state.dragons[0].pose.progress
    events, _ = whole_turn(state, 0, Move(400, -60.0, 0.0))
    assert of_type(events, Exhausted)[0].pose.progress < progress


def _drained(state, seat: int, caster: int = 0):
    """``seat``, with no energy left, is drained by a magic energy from ``caster`` just behind it: it takes a
    Debilitatus; returns where it is put."""
    state = dragon(state, caster, pose=pose(state, state.dragons[seat].pose.progress - 150.0, 0.0), energy=2)
    state = dragon(state, seat, energy=0)
    state = replace(moving(state, caster, 100, laid=Magic.ENERGY), step=Step.CAST)
    events, _ = play(state, caster, Aim(seat))
    (exhausted,) = of_type(events, Exhausted)
    return exhausted.pose


def test_a_debilitatus_sends_a_dragon_to_the_field_its_nose_touched_on_this_lap() -> None:
    """Rulebook: "placer son dragon sur le dernier champ Energie qu'il a traversé". A field whose centre lies
    just ahead of the front point (the base only touched its edge) is that field on this lap, not a lap back."""
    state = clear(new_race())
    f = field(1)
    state = dragon(state, 1, pose=pose(state, f.s - 35.0, f.u), haven=1)
    assert state.dragons[1].pose.progress < f.s
    landed = _drained(state, 1)
    assert (landed.x, landed.y) == pytest.approx((f.x, f.y), abs=1.0)
    assert f.s < landed.progress < f.s + BASE_LENGTH


def test_a_debilitatus_before_any_field_sends_a_dragon_behind_its_place_to_that_place() -> None:
    """The start place stands in for the last field while none was crossed; it lies on the first lap, even when
    the dragon has fallen back behind it."""
    state = clear(new_race())
    tr = track_of(state)
    place = state.dragons[1].place
    x, y, _ = tr.grid[place - 1]
    start = tr.progress(x, y, 0.0)
    state = dragon(state, 1, pose=pose(state, start - 120.0, 0.0), haven=-1)
    landed = _drained(state, 1)
    assert (landed.x, landed.y) == pytest.approx((x, y), abs=1.0)
    assert start < landed.progress < start + BASE_LENGTH


def test_a_field_crossed_is_remembered_with_its_lap() -> None:
    """A dragon that flies on past its last field for more than half a lap still goes back to it, not a lap on."""
    f = field(0)
    _, after = play(at(f.s - 90, f.u, energy=2), 0, Move(100, 0.0, 0.0))
    assert after.dragons[0].haven == 0 and after.dragons[0].haven_lap == 0
    tr = track_of(after)
    far = dragon(after, 0, pose=pose(after, f.s + 0.7 * tr.length, 0.0))
    landed = _drained(far, 0, caster=1)
    assert (landed.x, landed.y) == pytest.approx((f.x, f.y), abs=1.0)
    assert f.s < landed.progress < f.s + BASE_LENGTH


def test_after_a_crash_the_next_speed_is_at_most_400() -> None:
    """Rulebook: "régler son indicateur de vitesse sur 100 VD. Au prochain tour il ne pourra donc pas dépasser
    400 VD"."""
    _, after = play(at(200.0, -40.0, speed=100), 0, Move(100, -45.0, -45.0))
    assert after.dragons[0].speed == 100 and max(settable_speeds(after.dragons[0])) == 400
