"""Every flight a Drachenreiter server bot makes has an action of its own (issue 33): a server game
its bots played rebuilds in the environments decision by decision, with no move left without one."""

from __future__ import annotations

from domain.drachenreiter import RULESET
from domain.drachenreiter.commands import Move
from rl.specs import codec_for
from tests.unit.domain.drachenreiter.test_bots import race


def test_each_flight_of_the_racer_is_the_move_of_its_action() -> None:
    flights: list[Move] = []
    race(2, flights)
    codec = codec_for(RULESET)
    assert flights
    for flight in flights:
        action = codec.index(flight)
        assert action is not None and codec.command(action) == flight, flight
