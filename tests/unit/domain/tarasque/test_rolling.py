"""Rolling and setting dice aside (rulebook 1.B and "Deux règles concernant le lancement des dés")."""

from __future__ import annotations

from typing import Any

import pytest

from domain.kernel import IllegalMove, NotYourTurn
from domain.tarasque import rulebook as rb
from domain.tarasque.commands import EndTurn, Roll, SetAside, Stop, TakeTile
from domain.tarasque.events import DiceRolled, DiceSetAside, RollingEnded, RollingStopped
from domain.tarasque.state import Phase, TarasqueState
from tests.unit.domain.tarasque.helpers import RULES, ScriptedRng, aside, base, make, play, types

MIDDLE = ("red-desert", "blue-forest", "green-sea")


def rolled(showing: tuple[str, ...], **kw: Any) -> TarasqueState:
    """Seat 0 has just rolled ``showing`` with the middle above."""
    kw.setdefault("middle", MIDDLE)
    kw.setdefault("rolls", 1)
    return make(phase=Phase.SELECT, showing=showing, dice=len(showing), **kw)


def test_a_die_must_show_a_symbol_of_a_middle_tile_to_be_set_aside() -> None:
    """Important: only dice whose symbol is on a middle tile (or another base) may be selected."""
    state = rolled(("red", "yellow", "yellow", "black", "blue", "purple"))
    with pytest.raises(IllegalMove) as err:
        play(state, 0, SetAside("yellow", 1, False))
    assert err.value.rule == rb.VALID_DIE
    events, after = play(state, 0, SetAside("red", 1, False))
    assert events == [DiceSetAside(0, "red", 1, False)]
    assert after.turn.phase is Phase.CONTINUE and after.turn.dice == 5


def test_a_symbol_at_another_players_base_is_valid_but_not_at_ones_own() -> None:
    """Valid dice: tiles in the middle or at the bases of the *other* players."""
    state = rolled(
        ("yellow", "purple", "black", "black", "black", "black"),
        bases={0: base(s3=["yellow-sea"]), 2: base(s5=["purple-sea"])},
    )
    assert {m.symbol for m in RULES.legal_moves(state, 0) if isinstance(m, SetAside)} == {"purple"}
    with pytest.raises(IllegalMove):
        play(state, 0, SetAside("yellow", 1, False))


def test_enough_dice_are_not_needed_to_set_aside_a_valid_die() -> None:
    """ "il n'est pas indispensable que le nombre de ces dés soit suffisant": one red die may be set aside."""
    state = rolled(("red", "black", "black", "black", "black", "black"))
    events, _ = play(state, 0, SetAside("red", 1, False))
    assert types(events) == ["DiceSetAside"]


def test_after_a_roll_at_least_one_die_must_be_set_aside_before_rolling_or_stopping() -> None:
    """ "doit toujours sélectionner au moins un dé valable": Roll and Stop wait for a set-aside."""
    state = rolled(("red", "red", "blue", "black", "black", "black"))
    moves = RULES.legal_moves(state, 0)
    assert Roll() not in moves and Stop() not in moves
    for move in (Roll(), Stop(), EndTurn()):
        with pytest.raises(IllegalMove):
            play(state, 0, move)


def test_the_set_aside_choices_after_a_roll() -> None:
    """After a roll: per valid symbol, 1 to all its dice, with or without the egg."""
    state = rolled(("red", "red", "blue", "black", "black", "black"))
    assert RULES.legal_moves(state, 0) == [
        SetAside("red", 1, False),
        SetAside("red", 1, True),
        SetAside("red", 2, False),
        SetAside("red", 2, True),
        SetAside("blue", 1, False),
        SetAside("blue", 1, True),
    ]


def test_more_dice_than_the_roll_shows_cannot_be_set_aside() -> None:
    """Only dice of the roll can be set aside."""
    state = rolled(("red", "red", "blue", "black", "black", "black"))
    for count in (0, 3):
        with pytest.raises(IllegalMove):
            play(state, 0, SetAside("red", count, False))
    with pytest.raises(IllegalMove):
        play(state, 0, SetAside("pink", 1, False))


def test_after_setting_aside_the_player_may_set_aside_another_symbol_roll_again_or_stop() -> None:
    """README decision: the player may stop after any roll in which they set dice aside."""
    state = rolled(("red", "red", "blue", "black", "black", "black"))
    _, after = play(state, 0, SetAside("red", 2, False))
    assert RULES.legal_moves(after, 0) == [SetAside("blue", 1, False), SetAside("blue", 1, True), Roll(), Stop()]
    with pytest.raises(IllegalMove) as err:
        play(after, 0, SetAside("red", 1, False))
    assert err.value.rule == rb.DESIGNED_SET_ASIDE_ONCE
    events, stopped = play(after, 0, Stop())
    assert events[0] == RollingStopped(0)
    assert stopped.turn.phase is Phase.TAKE
    assert TakeTile("red-desert", 2) in RULES.legal_moves(stopped, 0)


def test_set_aside_dice_are_never_rolled_again() -> None:
    """ "Une fois qu'un dé est sélectionné, on ne peut pas le relancer": only the dice in hand roll."""
    state = rolled(("red", "red", "blue", "black", "black", "black"))
    _, after = play(state, 0, SetAside("red", 2, False))
    events, again = play(after, 0, Roll(), ScriptedRng(("blue", "red", "black", "black")))
    assert events == [DiceRolled(0, ("blue", "red", "black", "black"))]
    assert again.turn.aside == aside(red=2) and again.turn.dice == 4 and again.turn.rolls == 2


def test_a_roll_without_a_valid_die_ends_the_rolling_and_keeps_the_dice_set_aside() -> None:
    """ "Si après un lancement un joueur ne peut pas sélectionner de dé ... on procède à l'évaluation"."""
    state = rolled(("red", "red", "black", "black", "black", "black"))
    _, after = play(state, 0, SetAside("red", 2, False))
    events, ended = play(after, 0, Roll(), ScriptedRng(("black", "yellow", "purple", "black")))
    assert types(events) == ["DiceRolled", "RollingEnded"]
    assert events[1] == RollingEnded(0, "no valid die")
    assert ended.turn.phase is Phase.TAKE
    assert RULES.legal_moves(ended, 0)[:1] == [TakeTile("red-desert", 2)]


def test_rolling_ends_when_every_die_is_set_aside() -> None:
    """Up to 6 rolls: each roll sets at least one die aside, so rolling ends with no die in hand."""
    state = rolled(("red", "red"), aside=aside(red=4), rolls=3)
    events, after = play(state, 0, SetAside("red", 2, False))
    assert types(events) == ["DiceSetAside", "RollingEnded"]
    assert events[1] == RollingEnded(0, "no dice left")
    assert after.turn.phase is Phase.TAKE


def test_nothing_to_take_and_no_egg_move_ends_the_turn_by_itself() -> None:
    """A turn with nothing left to decide passes to the next player."""
    state = rolled(("red", "black", "black", "black", "black", "black"), eggs=(0, 1, 1))
    _, after = play(state, 0, SetAside("red", 1, False))
    events, _ = play(after, 0, Stop(), ScriptedRng(("blue", "blue", "green", "red", "black", "black")))
    assert types(events)[:3] == ["RollingStopped", "TurnEnded", "TurnStarted"]


def test_an_egg_makes_a_die_count_twice_and_returns_to_the_supply() -> None:
    """ "Ce dé compte comme deux dés de ce symbole ... on remet l'œuf de dragon dans la provision"."""
    state = rolled(("red", "black", "black", "black", "black", "black"))
    supply = state.board.supply
    _, after = play(state, 0, SetAside("red", 1, True))
    assert after.board.eggs[0] == 0 and after.board.supply == supply + 1
    assert after.turn.egg == "red"
    _, stopped = play(after, 0, Stop())
    assert RULES.legal_moves(stopped, 0)[0] == TakeTile("red-desert", 2)


def test_only_one_egg_per_turn() -> None:
    """ "Pendant un tour, on ne peut placer qu'un seul dé sur un œuf de dragon"."""
    state = rolled(("red", "blue", "black", "black", "black", "black"), eggs=(3, 1, 1))
    _, after = play(state, 0, SetAside("red", 1, True))
    assert SetAside("blue", 1, True) not in RULES.legal_moves(after, 0)
    with pytest.raises(IllegalMove) as err:
        play(after, 0, SetAside("blue", 1, True))
    assert err.value.rule == rb.EGG


def test_a_player_without_an_egg_cannot_double_a_die() -> None:
    """The egg rule needs an egg: "Si un joueur possède un œuf de dragon"."""
    state = rolled(("red", "black", "black", "black", "black", "black"), eggs=(0, 1, 1))
    assert RULES.legal_moves(state, 0) == [SetAside("red", 1, False)]
    with pytest.raises(IllegalMove):
        play(state, 0, SetAside("red", 1, True))


def test_only_the_active_player_moves() -> None:
    """Play passes from neighbour to neighbour; others wait."""
    state = rolled(("red", "black", "black", "black", "black", "black"))
    assert RULES.legal_moves(state, 1) == []
    with pytest.raises(NotYourTurn):
        play(state, 1, SetAside("red", 1, False))


def test_numbered_dice_take_numbered_tiles_by_their_number() -> None:
    """Adapted rule: "Le nombre de points sur les faces des dés déterminent les numéros des tuiles"."""
    state = make(
        variant="numbered",
        middle=("red-6", "blue-2"),
        phase=Phase.SELECT,
        showing=("6", "6", "1", "1", "2", "3"),
        dice=6,
        rolls=1,
    )
    symbols = {m.symbol for m in RULES.legal_moves(state, 0) if isinstance(m, SetAside)}
    assert symbols == {"6", "2"}
    with pytest.raises(IllegalMove) as err:
        play(state, 0, SetAside("red", 1, False))
    assert err.value.rule == rb.NUMBERED_DICE
