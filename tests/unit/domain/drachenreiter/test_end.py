"""End of the race, ranking, leaving, and the drawings."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import replace

from domain.drachenreiter import RULESET
from domain.drachenreiter.cards import ROUND_LIMIT, Magic
from domain.drachenreiter.commands import Move, SetSpeed
from domain.drachenreiter.events import DragonLeft, RaceFinished, TurnEnded
from domain.drachenreiter.setup_events import RoundStarted
from domain.drachenreiter.state import Phase
from domain.drachenreiter.svg import FILL
from domain.kernel import Rng, Viewer

from .helpers import clear, dragon, moving, new_race, of_type, play, pose, track_of, whole_turn, with_traps


def near_the_line(seats: int = 3):
    """Seat 0 just short of the finish line of the ring, the others far behind."""
    state = clear(new_race(seats))
    finish = track_of(state).finish
    state = dragon(state, 0, pose=pose(state, finish - 60.0))
    for seat in range(1, seats):
        state = dragon(state, seat, pose=pose(state, finish - 600.0 - 100 * seat))
    return state


def test_the_race_ends_only_when_the_round_ends() -> None:
    """Rulebook: "Le jeu est terminé lorsqu'à la fin d'un tour (tous les joueurs ont effectué leur
    déplacement), au moins un dragon a passé la ligne d'arrivée"."""
    state = near_the_line()
    for seat in range(3):
        _, state = play(state, seat, SetSpeed(400))
    events, state = play(state, 0, Move(400, 0.0, 0.0))
    assert state.dragons[0].pose.progress >= track_of(state).finish
    assert not of_type(events, RaceFinished) and state.phase is Phase.MOVE
    _, state = whole_turn(state, state.mover, Move(400, 0.0, 0.0))
    events, state = whole_turn(state, state.mover, Move(400, 0.0, 0.0))
    assert RaceFinished("finish line crossed") in events
    assert RULESET.outcome(state).places[0] == 1


def test_the_farthest_dragon_wins_and_the_others_rank_by_position() -> None:
    """Rulebook: "c'est celui qui est placé le plus en avant qui a gagné. La position des dragons des autres
    joueurs correspond à leur classement"."""
    state = clear(new_race(4))
    for seat, s in enumerate([900.0, 1500.0, 300.0, 1200.0]):
        state = dragon(state, seat, pose=pose(state, s))
    state = replace(state, phase=Phase.OVER, result="finish line crossed")
    assert RULESET.outcome(state).places == (3, 1, 4, 2)


def test_eliminated_dragons_rank_last_and_leavers_below_them() -> None:
    """README/issue: eliminated dragons rank last (the later out, the higher); those who left lowest."""
    state = clear(new_race(4))
    state = dragon(state, 3, pose=pose(state, 2000.0))
    state = replace(state, phase=Phase.OVER, out_order=(0, 1, 2), left=(2,), result="x")
    state = replace(state, dragons=tuple(replace(d, out=s < 3) for s, d in enumerate(state.dragons)))
    assert RULESET.outcome(state).places == (3, 2, 4, 1)


def test_the_last_dragon_flying_wins() -> None:
    """Designed (platform): when every other dragon is out, the race ends."""
    state = new_race(2)
    events = RULESET.leave(state, 1, Rng(b"x", "leave"))
    assert isinstance(events[0], DragonLeft) and RaceFinished("last dragon flying") in events
    after = RULESET.fold(state, events)
    assert RULESET.outcome(after).places == (1, 2)


def test_a_leaving_mover_hands_the_turn_on_and_its_cards_go_to_the_discard_pile() -> None:
    """Platform: a seat that leaves is out of the race; the game goes on for the others."""
    state = dragon(moving(clear(new_race(3)), 1, 400), 1, hand=(Magic.LASSO,), laid=Magic.TRAP)
    events = RULESET.leave(state, 1, Rng(b"x", "leave"))
    after = RULESET.fold(state, events)
    assert TurnEnded(1) in events and after.mover not in (1, None)
    assert after.discard[-2:] == (Magic.LASSO, Magic.TRAP)
    assert after.supply == state.supply + state.dragons[1].energy


def test_a_race_stops_at_the_round_limit() -> None:
    """Designed safety stop (platform): after the round limit the race ends by position."""
    state = replace(clear(new_race(2)), round=ROUND_LIMIT)
    for seat in range(2):
        _, state = play(state, seat, SetSpeed(state.dragons[seat].speed))
    events, state = play(state, state.mover, Move(state.dragons[state.mover].set_speed, 0.0, 0.0))
    events, state = play(state, state.mover, Move(state.dragons[state.mover].set_speed, 0.0, 0.0))
    assert RaceFinished("round limit") in events and not of_type(events, RoundStarted)


def test_the_svg_shows_track_dragons_traps_and_template() -> None:
    """``render_svg`` draws a standalone SVG of a view."""
    state = with_traps(moving(clear(new_race(3)), 0, 400), (900.0, 0.0, 1))
    _, state = play(state, 0, Move(400, 0.0, 0.0))
    text = RULESET.render_svg(RULESET.view(state, Viewer.spectator()))
    root = ET.fromstring(text)
    assert root.tag.endswith("svg")
    dragons = [g for g in root.iter("{http://www.w3.org/2000/svg}g") if g.get("class") == "dragon"]
    fills = {g.get("data-seat"): g.find("{http://www.w3.org/2000/svg}path").get("fill") for g in dragons}  # type: ignore[union-attr]
    assert fills == {"0": FILL["red"], "1": FILL["blue"], "2": FILL["green"]}
    assert 'fill="#222"' in text and 'opacity="0.7"' in text  # the trap and the template
