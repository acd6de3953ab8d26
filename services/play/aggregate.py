"""The ``Game`` aggregate: one event stream per game, for every game plug-in.

The stream holds two kinds of events:

* **platform events**, which say who did what: ``Created``, ``SeatTaken``, ``SeatGivenUp``, ``Started``, ``MoveMade``,
  ``Resigned``, ``TurnTimedOut``, ``PolicyPlayed``, ``Joined``, ``ClockSettled``, ``Finished`` and ``Abandoned``;
* **rule events**, the game's own facts (``DiceRolled``, ``CardPlaced``...), each
  stored under its own topic ``dragonhall:<game>:<EventType>`` and carrying the
  hash of the state it leads to, the seats awaited after it, the engine version
  that produced it and whether it closes its decision.

Every decision is one platform event (the *cause*) followed by the rule events
it produced. The aggregate never checks rules: the application asks the game's
decider first and records only what it returned. Turns (and their clocks) start
and end only at decision boundaries, the last rule event of each decision.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from functools import cache
from typing import Any

from eventsourcing.domain import Aggregate
from eventsourcing.utils import register_topic, resolve_topic

from domain.kernel import Event, Outcome, Ruleset, decode, find_game, state_hash, states_after
from services.deadlines import clocks
from services.play.stored_game import GameSnapshot, Timed


class Game(Aggregate):
    """A game table: its configuration, its seats, its clocks and the rules state."""

    TOPIC = "dragonhall:Game"

    class Created(Timed, Aggregate.Created):
        TOPIC = "dragonhall:Game.Created"
        game: str
        variant: str
        options: dict[str, Any]
        seats: int
        creator: str
        time_control: dict[str, Any]
        starts_at: str | None
        seed_commitment: str
        engine: str
        settings: dict[str, Any]
        sandbox_of: dict[str, Any] | None

    class SeatEvent(Timed, Aggregate.Event):
        """A seat and its player: the fields of ``SeatTaken``, ``SeatGivenUp`` and ``Joined``."""

        TOPIC = "dragonhall:Game.SeatEvent"  # a base, never stored
        seat: int
        player_id: str
        name: str
        kind: str
        bot: str | None

        def held(self) -> dict[str, Any]:
            return {k: getattr(self, k) for k in ("seat", "player_id", "name", "kind", "bot")}

    class SeatTaken(SeatEvent):
        TOPIC = "dragonhall:Game.SeatTaken"

        def apply(self, game: Game) -> None:
            game.seats = [*game.seats, self.held()]

    class SeatGivenUp(SeatEvent):
        """A seat free again before the start: its player left, or the creator took off a bot."""

        TOPIC = "dragonhall:Game.SeatGivenUp"

        def apply(self, game: Game) -> None:
            game.seats = [s for s in game.seats if s["seat"] != self.seat]

    class Started(Timed, Aggregate.Event):
        TOPIC = "dragonhall:Game.Started"
        seats: list[dict[str, Any]]

        def apply(self, game: Game) -> None:
            game.seats = [dict(s) for s in self.seats]
            game.status = "active"
            game.state = game.ruleset.initial(game.config())
            game.started_at = self.timestamp.isoformat()
            bank = clocks.initial_bank(game.time_control)
            if bank is not None:
                game.banks = {str(s["seat"]): bank for s in self.seats}

    class MoveMade(Timed, Aggregate.Event):
        TOPIC = "dragonhall:Game.MoveMade"
        seat: int
        player_id: str
        move: dict[str, Any]
        command_id: str | None

        def apply(self, game: Game) -> None:
            game.decisions += 1
            if self.command_id:
                key = f"{self.player_id}:{self.command_id}"
                game.commands = {**game.commands, key: {"version": self.originator_version, "move": self.move}}

    class Resigned(Timed, Aggregate.Event):
        TOPIC = "dragonhall:Game.Resigned"
        seat: int
        player_id: str

        def apply(self, game: Game) -> None:
            game.decisions += 1
            game.left = [*game.left, self.seat]

    class TurnTimedOut(Timed, Aggregate.Event):
        """A seat's time ran out. ``policy`` is the game's; ``applied`` is what was done
        (``skip`` falls back to ``auto`` where the rules allow no decision to be lost);
        ``move`` is the stand-in bot's move under ``auto``."""

        TOPIC = "dragonhall:Game.TurnTimedOut"
        seat: int
        deadline: str
        policy: str
        applied: str
        move: dict[str, Any] | None

        def apply(self, game: Game) -> None:
            game.decisions += 1
            game.timeouts = game.timeouts + 1
            if self.applied == "forfeit":
                game.left = [*game.left, self.seat]

    class PolicyPlayed(Timed, Aggregate.Event):
        """A further decision of a timed-out turn, played by the game's timeout policy.

        One missed deadline is one ``TurnTimedOut`` (which plays the turn's first
        decision); each further decision the turn holds, while the seat stays awaited,
        is a ``PolicyPlayed`` in the same save. ``applied`` is ``auto`` (``move`` is the
        stand-in bot's) or ``skip``."""

        TOPIC = "dragonhall:Game.PolicyPlayed"
        seat: int
        applied: str
        move: dict[str, Any] | None

        def apply(self, game: Game) -> None:
            game.decisions += 1
            if self.applied == "forfeit":
                game.left = [*game.left, self.seat]

    class ClockSettled(Timed, Aggregate.Event):
        """Bank clocks after turns ended: seconds used and the bank left, per seat."""

        TOPIC = "dragonhall:Game.ClockSettled"
        used: dict[str, float]
        banks: dict[str, float]

        def apply(self, game: Game) -> None:
            game.banks = {**game.banks, **self.banks}
            game.unsettled = {s: t for s, t in game.unsettled.items() if s not in self.banks}

    class Joined(SeatEvent):
        TOPIC = "dragonhall:Game.Joined"

        def apply(self, game: Game) -> None:
            game.decisions += 1
            game.seats = [*game.seats, self.held()]
            bank = clocks.initial_bank(game.time_control)
            if bank is not None:
                game.banks = {**game.banks, str(self.seat): bank}

    class Forked(Timed, Aggregate.Event):
        """A sandbox starts from another game's state at one version (see ``sandbox_of``)."""

        TOPIC = "dragonhall:Game.Forked"
        seats: list[dict[str, Any]]
        state: dict[str, Any]
        state_hash: str
        awaiting: list[int]

        def apply(self, game: Game) -> None:
            game.seats = [dict(s) for s in self.seats]
            game.status = "active"
            game.state = decode(game.ruleset.state_type, self.state)
            game.started_at = self.timestamp.isoformat()
            game.note_awaiting(list(self.awaiting), self.timestamp)

    class RuleEvent(Timed, Aggregate.Event):
        """Base of the per-game rule event classes built by ``rule_event_class``.

        ``closes`` says the event is the last of its decision: only there do turns
        start and end (``services.deadlines.clocks.closes_decision``; events stored before the
        flag read as closing)."""

        TOPIC = "dragonhall:Game.RuleEvent"
        KIND = ""
        data: dict[str, Any]
        state_hash: str
        awaiting: list[int]
        engine: str
        closes: bool = True

        def apply(self, game: Game) -> None:
            """Replays the event from the store: folds it into the game's state."""
            self.settle(game, game.ruleset.evolve(game.state, self.domain_event(game.ruleset)))

        def settle(self, game: Game, state: Any) -> None:
            """Moves ``game`` to ``state``, the state this event leads to, and its clocks on."""
            game.state = state
            if self.closes:
                game.note_awaiting(self.awaiting, self.timestamp)
            else:
                game.awaiting = list(self.awaiting)

        def domain_event(self, ruleset: Ruleset[Any]) -> Event:
            return ruleset.load_event(self.KIND, self.data)

    class Finished(Timed, Aggregate.Event):
        TOPIC = "dragonhall:Game.Finished"
        outcome: dict[str, Any]
        seed: str

        def apply(self, game: Game) -> None:
            game.status = "finished"
            game.outcome = dict(self.outcome)
            game.seed = self.seed
            game.note_awaiting([], self.timestamp)
            game.finished_at = self.timestamp.isoformat()

    class Abandoned(Timed, Aggregate.Event):
        """The game ended before its rules ended it (a scheduled start with empty seats): no
        one ranks, no one wins."""

        TOPIC = "dragonhall:Game.Abandoned"
        reason: str
        seed: str

        @property
        def outcome(self) -> dict[str, Any]:
            return Outcome.abandoned(self.reason).to_json()

        def apply(self, game: Game) -> None:
            game.status = "abandoned"
            game.outcome = self.outcome
            game.seed = self.seed
            game.note_awaiting([], self.timestamp)
            game.finished_at = self.timestamp.isoformat()

    Snapshot = GameSnapshot

    def __init__(
        self,
        game: str,
        variant: str,
        options: dict[str, Any],
        seats: int,
        creator: str,
        time_control: dict[str, Any],
        starts_at: str | None,
        seed_commitment: str,
        engine: str,
        settings: dict[str, Any],
        sandbox_of: dict[str, Any] | None,
    ) -> None:
        self.game = game
        self.variant = variant
        self.options = dict(options)
        self.planned_seats = seats
        self.creator = creator
        self.time_control = dict(time_control)
        self.starts_at = starts_at
        self.seed_commitment = seed_commitment
        self.engine = engine
        self.settings = dict(settings)
        self.sandbox_of = sandbox_of
        self.created_at = self.created_on.isoformat()
        self.started_at: str | None = None
        self.finished_at: str | None = None
        self.status = "scheduled" if starts_at else "open"
        self.seats: list[dict[str, Any]] = []
        self.state: Any = None
        self.awaiting: list[int] = []
        self.decisions = 0
        self.timeouts = 0
        self.commands: dict[str, dict[str, Any]] = {}
        self.left: list[int] = []
        self.outcome: dict[str, Any] | None = None
        self.seed: str | None = None
        self.turns: dict[str, str] = {}
        self.unsettled: dict[str, list[str]] = {}
        self.banks: dict[str, float] = {}

    # ------------------------------------------------------------------ reads

    @property
    def ruleset(self) -> Ruleset[Any]:
        return find_game(self.game)

    def config(self) -> Any:
        return self.ruleset.configure(self.variant, self.options, len(self.seats))

    def seats_of(self, player_id: str) -> list[int]:
        return [s["seat"] for s in self.seats if s["player_id"] == player_id]

    def seat_info(self, seat: int) -> dict[str, Any]:
        for s in self.seats:
            if s["seat"] == seat:
                return s
        raise KeyError(seat)

    def free_seats(self) -> list[int]:
        taken = {s["seat"] for s in self.seats}
        return [i for i in range(self.planned_seats) if i not in taken]

    def note_awaiting(self, awaiting: list[int], at: datetime) -> None:
        """At a decision boundary: starts the clocks of newly awaited seats and stops those
        no longer awaited; ended bank turns wait for ``ClockSettled``."""
        stamp = at.isoformat()
        running, ended = clocks.turns_after(self.turns, awaiting, stamp)
        self.turns = running
        self.awaiting = list(awaiting)
        if ended and self.time_control.get("kind") == "bank" and self.status == "active":
            self.unsettled = {**self.unsettled, **{s: [t, stamp] for s, t in ended.items()}}

    def holder(self, seat: int) -> str:
        return str(self.seat_info(seat)["player_id"])

    # ------------------------------------------------------------------ writes

    def record(
        self, cause: type[Aggregate.Event] | None, cause_fields: dict[str, Any], events: Sequence[Event]
    ) -> None:
        """Records a decision: its cause, then the rule events it produced, each
        with the hash of the state it leads to and the seats awaited after it; the
        last one closes the decision (turns start and end there).

        The states come from the decider, which folded each event as it emitted it
        (``domain.kernel.Folded``): recording a decision evolves no event again."""
        if cause is not None:
            self.trigger_event(cause, **cause_fields)
        ruleset = self.ruleset
        states = states_after(ruleset, self.state, events)
        last = len(events) - 1
        for i, (e, state) in enumerate(zip(events, states, strict=True)):
            fields = {
                "data": e.data(),
                "state_hash": state_hash(state),
                "awaiting": list(ruleset.awaiting(state)),
                "engine": ruleset.engine_version,
                "closes": i == last,
            }
            self._record_folded(rule_event_class(ruleset.slug, e.TYPE), fields, state)

    def _record_folded(self, event_class: type[Game.RuleEvent], fields: dict[str, Any], state: Any) -> None:
        """``trigger_event`` for a rule event whose next state is already known: the event is
        made and appended as ``trigger_event`` does, and it moves the game to ``state``
        (``RuleEvent.settle``) instead of folding itself again (``RuleEvent.apply``, which a
        replay from the store runs)."""
        event = event_class(
            originator_id=self.id,
            originator_version=self.version + 1,
            timestamp=event_class.create_timestamp(),
            **fields,
        )
        event.settle(self, state)
        self.version = event.originator_version
        self.modified_on = event.timestamp
        self._pending_events.append(event)

    def finish_if_over(self, seed_hex: str) -> bool:
        """Records ``Finished`` (revealing the seed) once the rules say the game is over."""
        if self.status != "active":
            return False
        outcome = self.ruleset.outcome(self.state)
        if outcome is None:
            return False
        self.trigger_event(self.Finished, outcome=outcome.to_json(), seed=seed_hex)
        return True


@cache
def rule_event_class(slug: str, kind: str) -> type[Game.RuleEvent]:
    """The stored event class of one rule event type, under a stable topic."""
    topic = f"dragonhall:{slug}:{kind}"
    try:
        return resolve_topic(topic)  # type: ignore[no-any-return]
    except Exception:
        pass
    cls = type(
        kind,
        (Game.RuleEvent,),
        {"TOPIC": topic, "KIND": kind, "__module__": __name__, "__qualname__": f"Game.{slug}.{kind}"},
    )
    register_topic(topic, cls)
    return cls


def register_rule_events(ruleset: Ruleset[Any]) -> None:
    """Makes every rule event of ``ruleset`` loadable from the store."""
    for kind in ruleset.events.types:
        rule_event_class(ruleset.slug, kind)
