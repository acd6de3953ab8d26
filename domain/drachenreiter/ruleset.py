"""The Ruleset of Chevaliers des dragons (Drachenreiter), tying the modules together."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from domain.drachenreiter import bots_ladder, setup_events
from domain.drachenreiter import events as ev
from domain.drachenreiter.bots import RacerBot, SampledRandomBot
from domain.drachenreiter.cards import ENERGY_TOKENS, START_CARDS, TRAP_TOKENS, full_deck
from domain.drachenreiter.commands import COMMANDS, Ally, Draw, Face, Hold, Move, SetSpeed
from domain.drachenreiter.decide import awaiting, decide, proceed
from domain.drachenreiter.evolve import blank, evolve
from domain.drachenreiter.flight import fly
from domain.drachenreiter.legal import legal_moves
from domain.drachenreiter.narration import NARRATOR
from domain.drachenreiter.observe import observe
from domain.drachenreiter.placement import pose_at
from domain.drachenreiter.pointing import pointing
from domain.drachenreiter.race import race_order, template_speeds, within_notch
from domain.drachenreiter.rulebook import RULES
from domain.drachenreiter.state import Phase, RaceState, Step
from domain.drachenreiter.svg import render_svg
from domain.drachenreiter.track import runs_backwards, track
from domain.drachenreiter.variants import VARIANTS
from domain.drachenreiter.view import COLOURS, view
from domain.kernel import Codec, Command, Emitter, Event, GameConfig, Outcome, Rng, Ruleset, Viewer
from domain.kernel.pointing import Pointing


class Drachenreiter(Ruleset[RaceState]):
    slug = "drachenreiter"
    title = "Chevaliers des dragons"
    engine_version = "2"
    variants = VARIANTS
    commands = Codec(COMMANDS)
    events = Codec(ev.EVENTS)
    state_type = RaceState
    rules = RULES
    bots = {
        "random": lambda: SampledRandomBot(DRACHENREITER),
        "beginner": lambda: bots_ladder.beginner(DRACHENREITER),
        "racer": lambda: RacerBot(DRACHENREITER),
        "search": lambda: bots_ladder.search(DRACHENREITER),
    }
    ladder = bots_ladder.LADDER
    default_bot = "racer"
    max_decisions = 4_000
    narrator = NARRATOR

    def initial(self, config: GameConfig) -> RaceState:
        name = config.options.track
        return blank(name, runs_backwards(name, config.seats), config.seats, ENERGY_TOKENS)

    def setup(self, state: RaceState, rng: Rng) -> list[Event]:
        """Start cards dealt, dragons lined up, pile and trap stock shuffled, hands dealt."""
        tr = track(state.layout, state.backwards)
        out: Emitter[RaceState] = Emitter(self, state)
        cards = rng.shuffle(range(1, state.seats + 1))
        out.emit(setup_events.StartCardsDealt(cards))
        for seat, number in enumerate(cards):
            card = START_CARDS[number - 1]
            x, y, h = tr.grid[number - 1]
            out.emit(setup_events.DragonLinedUp(seat, pose_at(tr, x, y, h, 0.0), card.energy, card.speed))
        out.emit(setup_events.DeckShuffled(rng.shuffle(full_deck())))
        out.emit(setup_events.TrapsShuffled(rng.shuffle(TRAP_TOKENS)))
        for seat, number in enumerate(cards):
            count = START_CARDS[number - 1].cards
            out.emit(setup_events.HandDealt(seat, out.state.deck[:count]))
        out.emit(setup_events.RoundStarted(1))
        return out.events

    def decide(self, state: RaceState, seat: int, command: Command, rng: Rng) -> list[Event]:
        return decide(self, state, seat, command, rng)

    def evolve(self, state: RaceState, event: Event) -> RaceState:
        return evolve(state, event)

    def legal_moves(self, state: RaceState, seat: int) -> Sequence[Command]:
        return legal_moves(state, seat)

    def awaiting(self, state: RaceState) -> tuple[int, ...]:
        return awaiting(state)

    def view(self, state: RaceState, viewer: Viewer) -> dict[str, Any]:
        return view(state, viewer)

    def outcome(self, state: RaceState) -> Outcome | None:
        """The farthest dragon first, the others by position; eliminated dragons rank
        below those racing (the later out, the higher), those who left lowest."""
        if state.phase is not Phase.OVER:
            return None
        groups: list[list[int]] = []
        for seat in race_order(state):
            p = state.dragons[seat].pose.progress
            if groups and state.dragons[groups[-1][0]].pose.progress == p:
                groups[-1].append(seat)
            else:
                groups.append([seat])
        groups += [[s] for s in reversed(state.out_order) if s not in state.left]
        groups += [[s] for s in reversed(state.left)]
        result = Outcome.from_order(groups, state.result)
        scores = tuple(float(d.pose.progress) if not d.out else 0.0 for d in state.dragons)
        return Outcome(result.places, result.reason, scores)

    def leave(self, state: RaceState, seat: int, rng: Rng) -> list[Event]:
        """The dragon leaves the race (eliminated, ranking below those who stay)."""
        d = state.dragons[seat]
        out: Emitter[RaceState] = Emitter(self, state)
        out.emit(ev.DragonLeft(seat, d.hand + ((d.laid,) if d.laid is not None else ())))
        if state.mover == seat:
            out.emit(ev.TurnEnded(seat))
        proceed(out, rng)
        return out.events

    def skip(self, state: RaceState, seat: int, rng: Rng) -> list[Event] | None:
        """What a lost decision means (designed): a timed-out speed keeps the dial's speed
        and lays no card (always allowed, and the least harmful: no change); a timed-out
        magic choice holds the card; a timed-out alliance answer turns nothing; a
        timed-out heading leaves the dragon as placed; a timed-out draw draws nothing
        (each is the choice not taken). Moves and discards are never lost (the default
        bot stands in)."""
        if seat not in awaiting(state):
            return None
        lost = {
            Step.CAST: Hold(),
            Step.ALLY: Ally(False),
            Step.DRAW: Draw(0),
            Step.FACE: Face(state.dragons[seat].pose.heading),
        }
        if state.phase is Phase.SPEED:
            return self.decide(state, seat, SetSpeed(state.dragons[seat].speed), rng)
        if state.step in lost:
            return self.decide(state, seat, lost[state.step], rng)
        return None

    def observe(self, state: RaceState, seat: int, rng: random.Random) -> RaceState:
        return observe(state, seat, rng)

    def preview(self, state: RaceState, seat: int, command: Any) -> dict[str, Any] | None:
        """Where a ``move`` would end and what it would touch (no energy or card counted)."""
        if not isinstance(command, Move) or state.step is not Step.FLY or state.mover != seat:
            return None
        me = state.dragons[seat]
        if command.speed not in template_speeds(me) or not (
            within_notch(command.speed, command.turn_in) and within_notch(command.speed, command.turn_out)
        ):
            return None
        f = fly(state, seat, command.speed, command.turn_in, command.turn_out)
        return {
            "x": f.final.x,
            "y": f.final.y,
            "heading": f.final.heading,
            "progress": f.final.progress,
            "gain": f.final.progress - me.pose.progress,
            "crash": f.crash or None,
            "struck": list(f.struck),
            "fields": list(f.fields),
            "symbols": list(f.symbols),
            "traps": list(f.traps),
            "finish": f.final.progress >= track(state.layout, state.backwards).finish,
        }

    def point(self, state: RaceState, seat: int, command: Command) -> Pointing:
        return pointing(state, seat, command)

    def render_svg(self, view: Mapping[str, Any], last: Mapping[str, Any] | None = None) -> str:
        return render_svg(view, last)

    def seat_labels(self, state: RaceState) -> tuple[str, ...] | None:
        return COLOURS[: state.seats]


DRACHENREITER: Drachenreiter = Drachenreiter()
"""(Annotated: the bot factories above name it before it is assigned.)"""
