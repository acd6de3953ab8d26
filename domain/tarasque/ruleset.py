"""Tarasque (DrachenWurf, Wolfgang Panning, Schmidt 2008) as a Dragonhall plug-in."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from domain.kernel import BotLevel, Codec, Command, Emitter, Event, GameConfig, Outcome, Rng, Ruleset, Viewer
from domain.kernel.pointing import Pointing
from domain.tarasque import absence, bots
from domain.tarasque.advance import advance
from domain.tarasque.commands import COMMANDS
from domain.tarasque.decide import decide
from domain.tarasque.events import EVENTS, PileShuffled
from domain.tarasque.evolve import evolve
from domain.tarasque.legal import legal_moves
from domain.tarasque.narration import NARRATOR
from domain.tarasque.pointing import pointing
from domain.tarasque.queries import scores
from domain.tarasque.rulebook import RULES
from domain.tarasque.state import AWAITING, Phase, TarasqueState, new_state
from domain.tarasque.svg import render_svg
from domain.tarasque.tiles import DECKS, EGGS, START_EGGS
from domain.tarasque.variants import VARIANTS
from domain.tarasque.view import view

MAX_DECISIONS = 5_000
"""Designed bound on one game's decisions (a safety stop). Uniformly random games of 2 to
6 seats take about 150 to 700 (``bench/tarasque_selfplay.py`` prints the longest)."""


class Tarasque(Ruleset[TarasqueState]):
    slug = "tarasque"
    title = "Tarasque"
    engine_version = "2"
    variants = VARIANTS
    commands = Codec(COMMANDS)
    events = Codec(EVENTS)
    state_type = TarasqueState
    rules = RULES
    bots = {
        "random": lambda: bots.RandomTarasqueBot(RULESET),
        "beginner": lambda: bots.BeginnerTarasqueBot(RULESET),
        "greedy": bots.GreedyBot,
        "search": bots.SearchTarasqueBot,
    }
    default_bot = "greedy"
    ladder = (
        BotLevel("random", "plays any legal move at random"),
        BotLevel("beginner", "knows the good moves but pushes its luck and sometimes overlooks the board"),
        BotLevel("greedy", "weighs every move by the harvest it expects"),
        BotLevel("search", "plays like Level 3 but works out every roll still to come before it sets dice aside"),
    )
    max_decisions = MAX_DECISIONS
    narrator = NARRATOR

    def initial(self, config: GameConfig) -> TarasqueState:
        return new_state(config.variant, config.seats, START_EGGS, EGGS - START_EGGS * config.seats)

    def setup(self, state: TarasqueState, rng: Rng) -> list[Event]:
        """The pile is shuffled; seat 0 starts its first turn (refill, then the first roll)."""
        out = Emitter(self, state)
        out.emit(PileShuffled(rng.shuffle(DECKS[state.variant].tiles)))
        advance(out, rng)
        return out.events

    def decide(self, state: TarasqueState, seat: int, command: Command, rng: Rng) -> list[Event]:
        return decide(self, state, seat, command, rng)

    def evolve(self, state: TarasqueState, event: Event) -> TarasqueState:
        return evolve(state, event)

    def legal_moves(self, state: TarasqueState, seat: int) -> Sequence[Command]:
        return legal_moves(state, seat)

    def awaiting(self, state: TarasqueState) -> tuple[int, ...]:
        turn = state.turn
        return (turn.seat,) if turn.phase in AWAITING else ()

    def view(self, state: TarasqueState, viewer: Viewer) -> dict[str, Any]:
        return view(state, viewer)

    def outcome(self, state: TarasqueState) -> Outcome | None:
        """Ranked by points (ties share the place), leavers last."""
        if state.turn.phase is not Phase.OVER:
            return None
        return Outcome.from_scores(scores(state), state.result, out=state.left)

    def leave(self, state: TarasqueState, seat: int, rng: Rng) -> list[Event]:
        return absence.leave(self, state, seat, rng)

    def skip(self, state: TarasqueState, seat: int, rng: Rng) -> list[Event] | None:
        return absence.skip(self, state, seat, rng)

    def observe(self, state: TarasqueState, seat: int, rng: random.Random) -> TarasqueState:
        return absence.observe(state, seat, rng)

    def point(self, state: TarasqueState, seat: int, command: Command) -> Pointing:
        return pointing(state, seat, command)

    def render_svg(self, view: Mapping[str, Any], last: Mapping[str, Any] | None = None) -> str:
        return render_svg(view, last)


RULESET: Tarasque = Tarasque()
