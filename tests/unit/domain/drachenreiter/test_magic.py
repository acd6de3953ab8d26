"""Magic cards: timing, ranges, each card's effect, the amulet, unplayed cards (the forced
alliance has its own module, ``test_alliance``)."""

from __future__ import annotations

from dataclasses import replace
from itertools import permutations

import pytest
import shapely

from domain.drachenreiter import RULESET
from domain.drachenreiter import rulebook as rb
from domain.drachenreiter.cards import Magic
from domain.drachenreiter.commands import Aim, Ally, Hold, LayTraps, Move, SetSpeed
from domain.drachenreiter.dimensions import TRAP_RADIUS
from domain.drachenreiter.events import (
    CardPlayed,
    EnergyLost,
    Exhausted,
    HeadingAwaited,
    LaidCardDiscarded,
    SpeedDialled,
    TrapSprung,
    TurnEnded,
)
from domain.drachenreiter.flight import fly
from domain.drachenreiter.magic import trap_spot_ok
from domain.drachenreiter.magic_events import (
    AmuletShielded,
    DragonLassoed,
    EnergyDrained,
    FireballRolled,
    MagicMissed,
    TrapsLaid,
)
from domain.drachenreiter.race import template_speeds
from domain.drachenreiter.shapes import base, template
from domain.drachenreiter.state import Facing, Step
from domain.kernel import IllegalMove, Rng, Viewer

from .helpers import clear, dragon, moving, new_race, of_type, play, pose, track_of, with_traps


def duel(me: float = 100.0, them: float = 230.0, mine: tuple[float, float] = (0.0, 0.0), **theirs):
    """Seat 0 centred at progress ``me`` and seat 1 at ``them`` on the ring, seat 0 to move."""
    state = clear(new_race())
    state = dragon(state, 0, pose=pose(state, me, mine[1]), energy=2)
    state = dragon(state, 1, pose=pose(state, them, theirs.pop("u", 0.0)), **{"energy": 3, **theirs})
    return state


def casting(state, card: Magic):
    """Seat 0, its move done, about to play the laid ``card``."""
    state = moving(state, 0, 100, laid=card)
    return replace(state, step=Step.CAST)


@pytest.mark.parametrize("seed", ["a", "b", "c", "d"])
def test_a_fireball_in_range_costs_one_energy_per_dragon_head(seed: str) -> None:
    """Rulebook: "le joueur lance les deux dés. Chaque tête de dragon qui apparaît désigne le nombre de
    jetons Energie que celui qui est attaqué doit céder"."""
    state = casting(duel(), Magic.FIREBALL_400)
    events, after = play(state, 0, Aim(1), seed)
    assert CardPlayed(0, Magic.FIREBALL_400) in events
    dice = of_type(events, FireballRolled)[0].dice
    assert len(dice) == 2 and all(d in (0, 1, 2) for d in dice)
    assert after.dragons[1].energy == max(0, 3 - sum(dice))
    assert after.discard[-1] is Magic.FIREBALL_400 and TurnEnded(0) in events


def test_a_fireball_out_of_range_is_lost() -> None:
    """Rulebook: range is the template "400, 600 ou 800"; "on ne peut pas préalablement tester"."""
    state = casting(duel(them=360.0), Magic.FIREBALL_400)
    events, after = play(state, 0, Aim(1))
    assert MagicMissed(0, 1, "out of range 400") in events
    assert after.dragons[1].energy == 3 and Magic.FIREBALL_400 in after.discard
    events, _ = play(casting(duel(them=360.0), Magic.FIREBALL_800), 0, Aim(1))
    assert of_type(events, FireballRolled)


def test_a_fireball_does_not_fly_through_a_border() -> None:
    """Rulebook: "La boule n'atteint pas l'adversaire si l'élément de trajectoire touche une des bordures"."""
    state = duel(1540.0, 1900.0, mine=(0.0, 85.0), u=85.0)
    a, b = state.dragons[0].pose, state.dragons[1].pose
    assert ((a.x - b.x) ** 2 + (a.y - b.y) ** 2) ** 0.5 < 250  # close enough in a straight line
    events, _ = play(casting(state, Magic.FIREBALL_800), 0, Aim(1))
    assert MagicMissed(0, 1, "out of range 800") in events


def test_only_dragons_ahead_can_be_aimed_at() -> None:
    """Rulebook: "Il désigne un dragon se trouvant devant lui"."""
    state = casting(duel(me=300.0, them=100.0), Magic.FIREBALL_800)
    with pytest.raises(IllegalMove) as err:
        play(state, 0, Aim(1))
    assert err.value.rule == rb.FIREBALL
    assert RULESET.legal_moves(state, 0) == [Hold()]


def test_an_amulet_protects_its_dragon_all_phase_long() -> None:
    """Rulebook: "Cette carte protège le joueur pendant toute une phase de déplacement et de magie contre
    les attaques adverses (mêmes multiples)"."""
    state = casting(duel(laid=Magic.AMULET), Magic.FIREBALL_400)
    events, after = play(state, 0, Aim(1))
    assert AmuletShielded(1) in events and MagicMissed(0, 1, "amulet") in events
    assert after.dragons[1].energy == 3 and after.dragons[1].shown
    assert RULESET.view(after, Viewer.of(0))["dragons"][1]["laid"] == "amulet"
    again = casting(replace(after, mover=None), Magic.ENERGY)
    events, _ = play(again, 0, Aim(1))
    assert MagicMissed(0, 1, "amulet") in events and AmuletShielded(1) not in events


def test_an_amulet_protects_against_traps() -> None:
    """Rulebook: the amulet protects against "piège magique"."""
    state = with_traps(duel(them=900.0), (200.0, 0.0, 2))
    state = moving(state, 0, 400, laid=Magic.AMULET)
    events, after = play(state, 0, Move(400, 0.0, 0.0))
    assert TrapSprung(0, 100, 2, True) in events and AmuletShielded(0) in events
    assert after.dragons[0].energy == 2 and not after.traps


def test_magic_energy_takes_one_energy_from_a_dragon_ahead() -> None:
    """Rulebook: "Le joueur obtient alors un jeton Energie de la part d'un autre joueur à condition que
    celui-ci se trouve devant lui et qu'il soit atteignable avec un élément de trajectoire 600"."""
    events, after = play(casting(duel(), Magic.ENERGY), 0, Aim(1))
    assert EnergyDrained(0, 1) in events
    assert (after.dragons[0].energy, after.dragons[1].energy) == (3, 2)
    full = casting(dragon(duel(), 0, energy=4), Magic.ENERGY)
    _, after = play(full, 0, Aim(1))
    assert after.dragons[0].energy == 4 and after.supply == full.supply + 1


def test_magic_energy_on_an_empty_dragon_exhausts_it() -> None:
    """Rulebook: a dragon that must give energy it does not have is exhausted (Debilitatus)."""
    events, after = play(casting(duel(energy=0), Magic.ENERGY), 0, Aim(1))
    assert of_type(events, Exhausted)[0].seat == 1 and after.dragons[1].exhausted


def test_a_lasso_pulls_a_dragon_just_in_front_of_the_caster() -> None:
    """Rulebook: "l'attirer, à l'aide de l'élément de trajectoire 600, jusqu'à sa hauteur ... Le dragon
    déplacé doit toutefois se retrouver devant le dragon qui l'a attiré à lui et il ne doit pas heurter
    de dragon"."""
    state = casting(duel(them=300.0, u=50.0), Magic.LASSO)
    events, after = play(state, 0, Aim(1))
    pulled = of_type(events, DragonLassoed)[0].pose
    me = after.dragons[0].pose
    assert me.progress < pulled.progress < me.progress + 60
    assert not base(me.x, me.y, me.heading).intersects(base(pulled.x, pulled.y, pulled.heading))
    assert HeadingAwaited(1, Facing.LASSO) in events and RULESET.awaiting(after) == (1,)
    out_of_reach = casting(duel(them=420.0), Magic.LASSO)
    assert of_type(play(out_of_reach, 0, Aim(1))[0], MagicMissed)


def test_a_magic_trap_lays_three_stock_traps_against_the_template() -> None:
    """Rulebook: "Le joueur prend trois pièges magiques dans le stock, sans regarder ... les pièges touchent
    le bord de l'élément de trajectoire"."""
    state = moving(duel(them=900.0), 0, 400, laid=Magic.TRAP)
    _, state = play(state, 0, Move(400, 0.0, 0.0))
    assert state.step is Step.CAST
    choice = next(m for m in RULESET.legal_moves(state, 0) if isinstance(m, LayTraps))
    events, after = play(state, 0, choice)
    laid = of_type(events, TrapsLaid)[0]
    assert laid.values == state.stock[:3] and after.stock == state.stock[3:]
    assert laid.visible_data(Viewer.of(0))["values"] == {"hidden": 3}
    t = state.template
    bar = template(t.x, t.y, t.direction, t.length)
    for _, x, y in laid.spots:
        assert bar.distance(shapely.Point(x, y)) <= TRAP_RADIUS


def test_a_trap_may_not_lie_on_a_field_or_away_from_the_template() -> None:
    """Rulebook: "les pièges magiques ne doivent être posés ni sur des champs Energie, ni sur des champs de
    cartes Magie, ni des dragons"."""
    state = moving(duel(them=900.0), 0, 400, laid=Magic.TRAP)
    _, state = play(state, 0, Move(400, 0.0, 0.0))
    good = next(m for m in RULESET.legal_moves(state, 0) if isinstance(m, LayTraps)).spots
    f = track_of(state).fields[0]
    for bad in [((f.x, f.y), *good[1:]), ((900.0, 0.0), *good[1:]), good[:2]]:
        with pytest.raises(IllegalMove) as err:
            play(state, 0, LayTraps(bad))
        assert err.value.rule == rb.MAGIC_TRAP


def test_traps_are_laid_at_a_listed_layout_as_listed() -> None:
    """Designed (``magic.trap-layouts``): a spot that touches the template but is not listed, or the
    listed spots in another order, is refused, naming the rule, so every layout laid has its action in
    the learning environments."""
    state = moving(duel(them=900.0), 0, 400, laid=Magic.TRAP)
    _, state = play(state, 0, Move(400, 0.0, 0.0))
    listed = [m.spots for m in RULESET.legal_moves(state, 0) if isinstance(m, LayTraps)]
    good = listed[0]
    nudged = ((good[0][0] + 0.5, good[0][1]), *good[1:])
    shuffled = next(p for p in permutations(good) if p not in listed)
    for bad in (nudged, shuffled):
        assert all(trap_spot_ok(state, s, bad[:i]) for i, s in enumerate(bad)), "the rulebook's placement allows it"
        with pytest.raises(IllegalMove) as err:
            play(state, 0, LayTraps(bad))
        assert err.value.rule == rb.TRAP_LAYOUTS
    play(state, 0, LayTraps(good))


@pytest.mark.parametrize(
    ("card", "dial", "used", "ok"),
    [
        (Magic.FORCE, 500, 800, True),
        (Magic.FORCE, 500, 400, False),
        (Magic.FORCE, 300, 700, False),
        (Magic.COUNTER_WIND, 500, 200, True),
        (Magic.COUNTER_WIND, 500, 100, False),
    ],
)
def test_force_and_counter_wind_change_the_template_not_the_dial(card: Magic, dial: int, used: int, ok: bool) -> None:
    """Rulebook: dragon force: "un élément de trajectoire d'une VD jusqu'à 300 plus élevée"; counter-wind:
    "réduire sa VD de 300 au maximum"; "les aiguilles ... ne doivent pas être modifiées"."""
    state = moving(duel(them=900.0), 0, dial, laid=card)
    if not ok:
        with pytest.raises(IllegalMove) as err:
            play(state, 0, Move(used, 0.0, 0.0))
        assert err.value.rule == (rb.FORCE if card is Magic.FORCE else rb.COUNTER_WIND)
        return
    events, after = play(state, 0, Move(used, 0.0, 0.0))
    assert events[0] == CardPlayed(0, card)
    assert after.template.speed == used and SpeedDialled(0, dial) in events


def test_a_card_can_only_be_played_once_laid() -> None:
    """Rulebook: "Pour mettre une carte Magie en jeu, il faut impérativement qu'elle ait préalablement été
    posée à côté de l'indicateur de vitesse"."""
    state = casting(duel(), Magic.AMULET)
    with pytest.raises(IllegalMove) as err:
        play(state, 0, Aim(1))
    assert err.value.rule == rb.LAID_ONLY
    with pytest.raises(IllegalMove):
        play(moving(duel(), 0, 500), 0, Move(800, 0.0, 0.0))


def test_an_unplayed_laid_card_is_discarded_at_the_end_of_the_phase() -> None:
    """Rulebook: "il ne peut pas la reprendre dans la main, mais il doit la déposer sur la pile de dépôt"."""
    state = duel(them=900.0, hand=(Magic.LASSO,))
    state = dragon(state, 0, hand=(Magic.FIREBALL_400,))
    _, state = play(state, 0, SetSpeed(state.dragons[0].speed, Magic.FIREBALL_400))
    _, state = play(state, 1, SetSpeed(state.dragons[1].speed, Magic.LASSO))
    _, state = play(state, 0, Ally(False))  # seat 0's face-down card is asked as seat 1 is about to move
    events, state = play(state, 1, Move(state.dragons[1].set_speed, 0.0, 0.0))
    assert state.step is Step.CAST and not of_type(events, LaidCardDiscarded)
    _, state = play(state, 1, Hold())
    _, state = play(state, 0, Move(state.dragons[0].set_speed, 0.0, 0.0))
    events, state = play(state, 0, Hold())
    assert of_type(events, LaidCardDiscarded) == [
        LaidCardDiscarded(0, Magic.FIREBALL_400),
        LaidCardDiscarded(1, Magic.LASSO),
    ]
    assert state.round == 2 and state.discard[-2:] == (Magic.FIREBALL_400, Magic.LASSO)


def test_a_timed_out_magic_choice_holds_the_card() -> None:
    """Designed: losing the choice after the move means not playing the card."""
    events = RULESET.skip(casting(duel(), Magic.LASSO), 0, Rng(b"x", "s"))
    assert events is not None and of_type(events, TurnEnded)


def test_energy_lost_to_a_fireball_returns_to_the_supply() -> None:
    """Rulebook: "Ces jetons sont remis en réserve dans la boîte de jeu"."""
    state = casting(duel(), Magic.FIREBALL_800)
    for seed in "abcdefgh":
        events, after = play(state, 0, Aim(1), seed)
        lost = sum(e.amount for e in of_type(events, EnergyLost))
        assert after.supply == state.supply + lost


def test_fly_reports_what_decide_finds() -> None:
    """The shared geometry: ``fly`` is what ``decide`` applies."""
    state = moving(duel(them=200.0), 0, 400)
    flight = fly(state, 0, 400, 0.0, 0.0)
    assert flight.struck == (1,)


def test_dragons_in_between_do_not_stop_a_fireball() -> None:
    """Rulebook: "Cela n'a pas d'importance si d'autres dragons se trouvent entre l'attaquant et celui qui
    est attaqué"."""
    state = clear(new_race(3))
    state = dragon(state, 0, pose=pose(state, 100.0), energy=2)
    state = dragon(state, 1, pose=pose(state, 330.0), energy=3)
    state = dragon(state, 2, pose=pose(state, 200.0), energy=3)
    events, _ = play(casting(state, Magic.FIREBALL_800), 0, Aim(1))
    assert of_type(events, FireballRolled)


@pytest.mark.parametrize(
    ("card", "speeds"), [(Magic.FORCE, (500, 600, 700, 800)), (Magic.COUNTER_WIND, (200, 300, 400, 500))]
)
def test_the_rulebook_examples_of_dragon_force_and_counter_wind(card: Magic, speeds: tuple[int, ...]) -> None:
    """Rulebook: with the dial on 500, dragon force allows "un élément de trajectoire de 500, 600, 700 ou 800",
    counter-wind "de 500, 400, 300 ou 200"."""
    state = moving(duel(them=900.0), 0, 500, laid=card)
    assert template_speeds(state.dragons[0]) == speeds
    assert {m.speed for m in RULESET.legal_moves(state, 0) if isinstance(m, Move)} == set(speeds)


def test_an_amulet_protects_against_a_lasso() -> None:
    """Rulebook: the amulet protects "contre les attaques adverses ... de lasso magique"."""
    events, _ = play(casting(duel(them=300.0, u=50.0, laid=Magic.AMULET), Magic.LASSO), 0, Aim(1))
    assert MagicMissed(0, 1, "amulet") in events and not of_type(events, DragonLassoed)
