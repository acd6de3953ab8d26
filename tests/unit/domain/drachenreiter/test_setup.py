"""Setup: start cards, grid places, energy, hands, pile and trap stock; the options."""

from __future__ import annotations

import pytest

from domain.drachenreiter import RULESET
from domain.drachenreiter.cards import DECK_SIZE, ENERGY_TOKENS, START_CARDS, TRAP_TOKENS
from domain.drachenreiter.setup_events import DeckShuffled, HandDealt, StartCardsDealt, TrapsShuffled
from domain.drachenreiter.shapes import base
from domain.drachenreiter.state import Phase
from domain.kernel import ConfigError, Rng, Viewer

from .helpers import card_total, energy_total, new_race, track_of


@pytest.mark.parametrize("seats", [2, 4, 6])
def test_start_cards_one_to_n_are_dealt_at_random(seats: int) -> None:
    """Rulebook: "Distribuer autant de cartes Départ que de joueurs en jeu"."""
    config = RULESET.configure(None, None, seats)
    deals = {RULESET.setup(RULESET.initial(config), Rng(bytes([k]), "setup"))[0].cards for k in range(12)}
    assert all(sorted(d) == list(range(1, seats + 1)) for d in deals)
    assert len(deals) > 1


def test_each_start_card_gives_its_place_energy_cards_and_speed() -> None:
    """Rulebook: the card gives the grid place, the magic cards, the energy and the dial
    (card 1: "deux jetons Energie, une carte Magie et ... 500 VD"); cards 2-6 designed."""
    state = new_race(6)
    tr = track_of(state)
    for d in state.dragons:
        card = START_CARDS[d.place - 1]
        x, y, _h = tr.grid[d.place - 1]
        assert (d.pose.x, d.pose.y) == pytest.approx((x, y))
        assert (d.energy, len(d.hand), d.speed) == (card.energy, card.cards, card.speed)
    assert START_CARDS[0].energy == 2 and START_CARDS[0].cards == 1 and START_CARDS[0].speed == 500


def test_place_one_is_the_foremost_and_places_do_not_overlap() -> None:
    """Rulebook: card 1 starts "sur la première case en haut à droite"; the others behind."""
    tr = track_of(new_race())
    progress = [tr.progress(*tr.grid[k][:2], 0.0) for k in range(6)]
    assert progress == sorted(progress, reverse=True)
    assert tr.lateral(progress[0], *tr.grid[0][:2]) < 0  # on the right
    shapes = [base(*g) for g in tr.grid]
    assert not any(a.intersects(b) for i, a in enumerate(shapes) for b in shapes[i + 1 :])


def test_pile_stock_and_supply_are_complete() -> None:
    """38 magic cards, 12 traps (3×2, 6×1, 3×0) and 26 energy tokens (README.md)."""
    state = new_race(4)
    assert card_total(state) == DECK_SIZE == 38
    assert sorted(state.stock) == sorted(TRAP_TOKENS) and len(state.stock) == 12
    assert energy_total(state) == ENERGY_TOKENS == 26
    assert state.phase is Phase.SPEED and state.round == 1


def test_the_pile_order_stock_and_hands_are_secret() -> None:
    """Hidden: the pile's order, the stock's faces, each hand (its owner's only)."""
    config = RULESET.configure(None, None, 3)
    events = RULESET.setup(RULESET.initial(config), Rng(b"s", "setup"))
    spectator = Viewer.spectator()
    for e in events:
        if isinstance(e, (DeckShuffled, TrapsShuffled)):
            assert "hidden" in str(e.visible_data(Viewer.of(0)))
        if isinstance(e, HandDealt):
            assert e.visible_data(Viewer.of(e.seat))["cards"] == [c.value for c in e.cards]
            assert e.visible_data(spectator)["cards"] == {"hidden": len(e.cards)}
        if isinstance(e, StartCardsDealt):
            assert e.visible_data(spectator)["cards"] == list(e.cards)


def test_the_track_option_chooses_the_layout_and_refuses_unknown_ones() -> None:
    """Option ``track``: ring (default), hook, flight."""
    assert RULESET.configure(None, None, 2).options.track == "ring"
    assert new_race(2, "hook").layout == "hook"
    with pytest.raises(ConfigError) as err:
        RULESET.configure(None, {"track": "moon"}, 2)
    assert err.value.field == "options.track"


def test_five_on_the_course_start_on_the_grid_for_six() -> None:
    """Rulebook: the grid for four starts a course, "ou vice versa" for more players."""
    assert not new_race(4, "flight").backwards
    assert new_race(5, "flight").backwards
    assert not new_race(6, "ring").backwards
