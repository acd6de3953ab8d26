"""The Ruleset of Les Dragons du Mékong: ties the decider's parts together."""

from __future__ import annotations

import math
import random
from collections.abc import Hashable, Mapping, Sequence
from typing import Any

from domain.kernel import (
    LEAVING,
    Codec,
    Command,
    Event,
    GameConfig,
    GameOver,
    IllegalMove,
    Outcome,
    RandomBot,
    Rng,
    Ruleset,
    Viewer,
)
from domain.kernel.pointing import Narrowing, Pointing, Ref
from domain.kernel.rules import GAME_ENDED
from domain.mekong import bots_ladder
from domain.mekong import rulebook as rb
from domain.mekong.board import villages
from domain.mekong.bots import PlannerBot
from domain.mekong.commands import COMMANDS
from domain.mekong.decide import awaiting, decide
from domain.mekong.events import EVENTS, ActionSkipped, FirstPlayerDrawn, LastSeatStanding, SeatLeft
from domain.mekong.evolve import evolve
from domain.mekong.flow import advance, emitter
from domain.mekong.hidden import observe
from domain.mekong.layout import layout
from domain.mekong.legal import legal_moves
from domain.mekong.narration import NARRATOR
from domain.mekong.pawns import is_plank
from domain.mekong.pointing import narrow_programme, pointing
from domain.mekong.state import MekongState, Phase, starting_reserve
from domain.mekong.svg import render_svg
from domain.mekong.turns import current_actor
from domain.mekong.variants import EDITIONS, VARIANTS
from domain.mekong.view import view

ENDINGS = {"crossing": "crossing", "last-standing": "last seat standing", "round-limit": "round limit"}


class Mekong(Ruleset[MekongState]):
    slug = "mekong"
    title = "Les Dragons du Mékong"
    engine_version = "2"
    """Version 2 reuses the names of stones taken back in the challenge (``building.stone_name``)."""
    variants = VARIANTS
    commands = Codec(COMMANDS)
    events = Codec(EVENTS)
    state_type = MekongState
    rules = rb.RULES
    bots = {
        "random": lambda: RandomBot(RULESET),
        "beginner": lambda: bots_ladder.beginner(RULESET),
        "planner": lambda: PlannerBot(RULESET),
        "search": lambda: bots_ladder.search(RULESET),
    }
    """``random``: uniform over the listed moves (programmes and resolution choices alike);
    ``planner``: see ``bots.PlannerBot``; ``beginner`` and ``search``: see ``bots_ladder``."""
    default_bot = "planner"
    ladder = bots_ladder.LADDER
    max_decisions = 10_000
    narrator = NARRATOR

    def redecides(self, engine: str, variant: str) -> bool:
        """Engine 1 re-decides alike but in the challenge, the one variant whose stones have names
        to reuse: a classic or River Dragons record of engine 1 still verifies."""
        return engine == self.engine_version or (engine == "1" and variant != "challenge")

    def initial(self, config: GameConfig) -> MekongState:
        colours = EDITIONS[config.variant].seat_table[config.seats]
        n = len(colours)
        return MekongState(
            variant=config.variant,
            colours=colours,
            round_limit=config.options.round_limit,
            programmes=((),) * n,
            reserves=tuple(starting_reserve(c) for c in colours),
            pawns=colours,
        )

    def setup(self, state: MekongState, rng: Rng) -> list[Event]:
        """The first-player marker goes to a seat drawn by lot (the rulebook's "youngest player")."""
        return [FirstPlayerDrawn(rng.below(state.seats))]

    def decide(self, state: MekongState, seat: int, command: Command, rng: Rng) -> list[Event]:
        return decide(state, seat, command)

    def evolve(self, state: MekongState, event: Event) -> MekongState:
        return evolve(state, event)

    def legal_moves(self, state: MekongState, seat: int) -> Sequence[Command]:
        return legal_moves(state, seat)

    def listing_key(self, state: MekongState, seat: int) -> Hashable | None:
        """A programme is chosen from the seat's hand alone, whoever else has programmed."""
        if state.phase is Phase.PROGRAMMING and seat in awaiting(state):
            return ("programme", state.hand(seat))
        return None

    def awaiting(self, state: MekongState) -> tuple[int, ...]:
        return awaiting(state)

    def view(self, state: MekongState, viewer: Viewer) -> dict[str, Any]:
        return view(state, viewer)

    def observe(self, state: MekongState, seat: int, rng: random.Random) -> MekongState:
        return observe(state, seat, rng)

    def outcome(self, state: MekongState) -> Outcome | None:
        """The winner first; after the round limit, the nearer a pawn to its destination the better."""
        if state.phase is not Phase.OVER:
            return None
        reason = ENDINGS.get(state.ending or "", "over")
        if state.winner is not None:
            scores = [1.0 if s == state.winner else 0.0 for s in range(state.seats)]
        else:
            scores = [-round(distance_to_go(state, s), 1) if state.in_play(s) else -1000.0 for s in range(state.seats)]
        return Outcome.from_scores(scores, reason, out=state.left)

    def leave(self, state: MekongState, seat: int, rng: Rng) -> list[Event]:
        """The seat's pawn leaves the board (its planks stay); the game goes on with two seats or more."""
        if state.phase is Phase.OVER:
            raise GameOver("leave: the game is over", GAME_ENDED)
        if not state.in_play(seat):
            raise IllegalMove(f"leave: seat {seat} has already left", LEAVING)
        out = emitter(state)
        out.emit(SeatLeft(seat))
        staying = [s for s in range(state.seats) if out.state.in_play(s)]
        if len(staying) == 1:
            out.emit(LastSeatStanding(staying[0]))
        else:
            advance(out)
        return out.events

    def skip(self, state: MekongState, seat: int, rng: Rng) -> list[Event] | None:
        """In resolution, the acting seat's pending choice is lost with the rest of its card.
        Programming cannot be skipped."""
        if state.phase is not Phase.RESOLUTION or current_actor(state) != seat:
            return None
        card = state.card(seat)
        assert card is not None
        out = emitter(state)
        out.emit(ActionSkipped(seat, card, "the decision was not made in time"))
        advance(out)
        return out.events

    def point(self, state: MekongState, seat: int, command: Command) -> Pointing:
        return pointing(state, seat, command)

    def narrow(self, state: MekongState, seat: int, chosen: Sequence[Ref]) -> Narrowing:
        if state.phase is Phase.PROGRAMMING and seat in awaiting(state):
            return narrow_programme(state, seat, chosen)
        return super().narrow(state, seat, chosen)

    def render_svg(self, view: Mapping[str, Any], last: Mapping[str, Any] | None = None) -> str:
        return render_svg(view, last)

    def seat_labels(self, state: MekongState) -> tuple[str, ...]:
        return state.colours


def distance_to_go(state: MekongState, seat: int) -> float:
    """Straight-line distance from a pawn (a village, or the middle of its plank) to its destination."""
    rim = {v.name: (v.x, v.y) for v in villages(state.edition.rim)}
    spot = state.pawns[seat]
    goal = rim[state.destination(seat)]
    if spot is None:
        return math.inf
    if is_plank(spot):
        lay = layout(state)
        (ax, ay), (bx, by) = (lay.geometry.point(i) for i in lay.ends[spot])
        return math.dist(((ax + bx) / 2, (ay + by) / 2), goal)
    return math.dist(rim[spot], goal)


RULESET: Mekong = Mekong()
"""(Annotated: the bot factories above name it before it is assigned.)"""
