"""The Seven Dragons plug-in: the pieces of this package behind the ``Ruleset`` contract."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from domain.kernel import Codec, Command, Event, GameConfig, Outcome, RandomBot, Rng, Ruleset, Viewer
from domain.kernel.pointing import Pointing
from domain.seven_dragons import bots_ladder
from domain.seven_dragons import decide as flow
from domain.seven_dragons.bots import GreedyBot
from domain.seven_dragons.commands import COMMANDS
from domain.seven_dragons.events import EVENTS
from domain.seven_dragons.evolve import evolve
from domain.seven_dragons.legal import legal_moves
from domain.seven_dragons.narration import NARRATOR
from domain.seven_dragons.observe import observe
from domain.seven_dragons.pointing import pointing
from domain.seven_dragons.rulebook import RULES
from domain.seven_dragons.state import End, GoalSlot, Phase, SevenDragonsState
from domain.seven_dragons.svg import render_svg
from domain.seven_dragons.variants import VARIANTS, table_for, targets_for
from domain.seven_dragons.view import view

State = SevenDragonsState


def goal_ring(seats: int, goals: int) -> tuple[GoalSlot, ...]:
    """The places of the goal ring before the deal: each seat, with the unused goals between them.

    Designed: unused goal ``k`` lies after seat ``k mod seats``, so imaginary seats
    spread between the players in seat order.
    """
    ring = []
    for seat in range(seats):
        ring.append(GoalSlot(seat, None))
        ring.extend(GoalSlot(None, None) for k in range(goals - seats) if k % seats == seat)
    return tuple(ring)


class SevenDragons(Ruleset[State]):
    slug = "seven-dragons"
    title = "Seven Dragons"
    engine_version = "1"
    variants = VARIANTS
    commands = Codec(COMMANDS)
    events = Codec(EVENTS)
    state_type = SevenDragonsState
    rules = RULES
    bots = {
        "random": lambda: RandomBot(RULESET),
        "beginner": lambda: bots_ladder.beginner(RULESET),
        "greedy": GreedyBot,
        "search": lambda: bots_ladder.search(RULESET),
    }
    ladder = bots_ladder.LADDER
    default_bot = "greedy"
    max_decisions = 2_000
    narrator = NARRATOR

    def initial(self, config: GameConfig) -> State:
        table = table_for(config)
        n = config.seats
        return State(
            table=table,
            phase=Phase.SETUP,
            turn=0,
            deck=(),
            hands=((),) * n,
            layout=(),
            discard=(),
            set_aside=(),
            ring=goal_ring(n, 5) if table.goals else (),
            targets=targets_for(config),
            known=(frozenset(),) * n,
            seen_goals=(frozenset(),) * n,
        )

    def setup(self, state: State, rng: Rng) -> list[Event]:
        return flow.setup(state, rng)

    def decide(self, state: State, seat: int, command: Command, rng: Rng) -> list[Event]:
        return flow.decide(state, seat, command, rng)

    def evolve(self, state: State, event: Event) -> State:
        return evolve(state, event)

    def legal_moves(self, state: State, seat: int) -> Sequence[Command]:
        return legal_moves(state, seat)

    def awaiting(self, state: State) -> tuple[int, ...]:
        return (state.turn,) if state.phase is Phase.PLAY else ()

    def view(self, state: State, viewer: Viewer) -> dict[str, Any]:
        return view(state, viewer)

    def outcome(self, state: State) -> Outcome | None:
        """Winners first; the others by how close their goal group came to their target; leavers last."""
        if not state.over:
            return None
        progress = flow.progress(state) if state.table.goals else {}
        scores = [
            1.0 if s in state.winners and state.end is not End.ALL_CARDS_PLAYED else float(progress.get(s, 0))
            for s in range(state.seats)
        ]
        return Outcome.from_scores(scores, state.end.value if state.end else "over", out=state.left)

    def leave(self, state: State, seat: int, rng: Rng) -> list[Event]:
        return flow.leave(state, seat, rng)

    def observe(self, state: State, seat: int, rng: random.Random) -> State:
        return observe(state, seat, rng)

    def can_join(self, state: State) -> bool:
        return flow.can_join(state)

    def join(self, state: State, rng: Rng) -> list[Event]:
        return flow.join(state, rng)

    def point(self, state: SevenDragonsState, seat: int, command: Command) -> Pointing:
        return pointing(state, command)

    def render_svg(self, view: Mapping[str, Any], last: Mapping[str, Any] | None = None) -> str:
        return render_svg(view, last)


RULESET: SevenDragons = SevenDragons()
