"""The plug-in contract: a game is a pure decider registered under a slug.

A ``Ruleset`` never does I/O and never reads the clock. The platform calls it as:

1. ``config = ruleset.configure(variant, options, seats)`` (validates options);
2. ``state = ruleset.initial(config)``, then folds ``ruleset.setup(state, rng)``;
3. for each decision: ``events = ruleset.decide(state, seat, command, rng)`` and
   ``state = ruleset.evolve(state, e)`` for each event;
4. ``awaiting``, ``legal_moves``, ``view`` and ``outcome`` answer queries.

Chance comes only from the ``Rng`` handed to ``setup``, ``decide``, ``leave`` and
``skip``, and every chance outcome must be recorded in an event, so that
``evolve`` never needs the generator: replaying events reproduces the state.

States are immutable (frozen dataclasses of tuples, frozensets and such), so a
state can be shared between threads, cached, hashed and compared.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from domain.kernel.decoding import DecodeError, decode
from domain.kernel.game_config import GameConfig
from domain.kernel.jsonable import encode
from domain.kernel.narration import DEFAULT_NARRATOR, Narrator
from domain.kernel.options import describe as describe_option
from domain.kernel.outcome import Outcome
from domain.kernel.picture import SEAT_COLOURS
from domain.kernel.pointing import NOWHERE, Narrowing, Pointing, Ref, narrowed
from domain.kernel.records import Codec, Command, Event
from domain.kernel.rng import Rng
from domain.kernel.rules import JOINING, MOVE_SHAPE, IllegalMove, MalformedMove, RuleRef
from domain.kernel.schema import move_schema
from domain.kernel.viewer import Viewer

S = TypeVar("S")
S_contra = TypeVar("S_contra", contravariant=True)


class ConfigError(ValueError):
    """A game cannot be set up as asked (unknown variant, bad option, seat count)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


class OptionError(ValueError):
    """Raised by an options dataclass's ``__post_init__`` for a bad value."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


@dataclass(frozen=True, slots=True)
class NoOptions:
    """Options of a variant that has none."""


@dataclass(frozen=True, slots=True)
class Variant:
    """One way to play a game: its name, seat range and options type.

    ``options`` is a frozen dataclass whose every field has a default; its
    ``__post_init__`` raises ``OptionError`` for values out of range.
    """

    name: str
    title: str
    min_seats: int
    max_seats: int
    options: type = NoOptions
    description: str = ""

    def options_schema(self) -> list[dict[str, Any]]:
        """A JSON description of the options, for clients, forms and the API docs: each with its
        name, type, default, words and, where it has them, choices and range
        (``domain.kernel.options``)."""
        return [describe_option(f) for f in fields(self.options)]


class Bot(Protocol[S_contra]):
    """A player program. It sees only what its seat may see: the platform hands it
    ``ruleset.observe(state, seat, rng)``, never the true state."""

    def choose(self, state: S_contra, seat: int, rng: random.Random, budget: float | None = None) -> Command:
        """Returns one legal command for ``seat``; ``budget`` is a soft time limit in seconds."""
        ...


@dataclass(frozen=True, slots=True)
class BotLevel:
    """One rung of a game's bot ladder: a bot's name and, in a person's words, how it plays.
    Its level (``Level 1`` is the weakest) is its place in ``Ruleset.ladder``."""

    bot: str
    about: str


class Ruleset(ABC, Generic[S]):
    """A game plug-in. Subclass it once per game and register one instance."""

    slug: ClassVar[str]
    title: ClassVar[str]
    engine_version: ClassVar[str]
    """Bump when a change would alter the events of a recorded game."""
    variants: ClassVar[tuple[Variant, ...]]
    commands: ClassVar[Codec[Command]]
    events: ClassVar[Codec[Event]]
    state_type: type[S]
    """The class of the states (set on the subclass; not a ``ClassVar``, which cannot name ``S``)."""
    rules: ClassVar[tuple[RuleRef, ...]]
    """Every rule the game cites, for events and refusals alike."""
    bots: Mapping[str, Callable[[], Bot[S]]]
    """Bot name to what makes that bot with no arguments (a class, or a function).
    Set on the subclass; not a ``ClassVar``, which cannot name ``S``."""
    default_bot: ClassVar[str]
    """The bot that stands in for a timed-out seat."""
    ladder: ClassVar[tuple[BotLevel, ...]] = ()
    """The bots from the weakest up, as people choose them: ``Level 1``, ``Level 2``...
    (``docs/bots.md`` gives their measured ratings)."""
    max_decisions: ClassVar[int] = 10_000
    """A bound on the decisions of one game (all seats), for tests and safety stops."""
    narrator: ClassVar[Narrator] = DEFAULT_NARRATOR
    """The game's words for its events, moves, refusals, results and options
    (``domain.kernel.narration``; each game's ``narration.py``)."""

    # ------------------------------------------------------------ the decider

    @abstractmethod
    def initial(self, config: GameConfig) -> S:
        """The state before the opening events: empty board, nothing dealt."""

    @abstractmethod
    def setup(self, state: S, rng: Rng) -> list[Event]:
        """The opening events (shuffles, deals, first player) for a fresh state."""

    @abstractmethod
    def decide(self, state: S, seat: int, command: Command, rng: Rng) -> list[Event]:
        """The events that ``command`` by ``seat`` causes, including any automatic
        steps that follow until a decision is awaited again.

        :raises RuleError: (``NotYourTurn``, ``IllegalMove``, ``GameOver``) with
            the rule refused; then nothing has happened.
        """

    @abstractmethod
    def evolve(self, state: S, event: Event) -> S:
        """The state after ``event``. Total and unchecked: it trusts the event."""

    @abstractmethod
    def legal_moves(self, state: S, seat: int) -> Sequence[Command]:
        """Every complete command ``seat`` may submit now, each accepted as is.

        Where the move space is continuous, a representative sample at a
        resolution the game documents. Empty when ``seat`` is not awaited.
        """

    @abstractmethod
    def awaiting(self, state: S) -> tuple[int, ...]:
        """The seats whose decision is needed now, in seat order (several in
        simultaneous phases, none once the game is over)."""

    @abstractmethod
    def view(self, state: S, viewer: Viewer) -> dict[str, Any]:
        """The board as ``viewer`` may see it, JSON-native. The only code that
        decides the visibility of state."""

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """The ranking once the game is over, else ``None``."""

    @abstractmethod
    def leave(self, state: S, seat: int, rng: Rng) -> list[Event]:
        """``seat`` leaves (resigns or forfeits). The game goes on for the others
        if the rules allow it, or ends with a ranking where leavers rank last."""

    @abstractmethod
    def observe(self, state: S, seat: int, rng: random.Random) -> S:
        """A state ``seat`` cannot tell apart from ``state``: everything hidden
        from ``seat`` (others' hands, deck order, secret speeds) is resampled.
        Bots decide on this, so they cannot cheat."""

    # ------------------------------------------------------------ optional hooks

    def skip(self, state: S, seat: int, rng: Rng) -> list[Event] | None:
        """The events of losing ``seat``'s pending decision, where the rules allow
        a decision to be lost; ``None`` where they do not."""
        return None

    def can_join(self, state: S) -> bool:
        """Whether a newcomer may take a new seat in this running game."""
        return False

    def join(self, state: S, rng: Rng) -> list[Event]:
        """The events of a newcomer joining; the new seat is the next index."""
        raise IllegalMove(f"{self.title} does not let a newcomer join a running game", JOINING)

    def preview(self, state: S, seat: int, command: Command) -> dict[str, Any] | None:
        """A cheap forecast of a command's effect, for clients and bots."""
        return None

    def listing_key(self, state: S, seat: int) -> Hashable | None:
        """What ``seat``'s legal moves, their words and their ways on the board depend on, where
        the game knows it: two states of one game with equal keys list the same moves. None (the
        default): not known, and a listing belongs to its version alone. A game whose seats decide
        at once gives one (Mékong's programmes), so a seat's listing stands while the others
        decide: a page does not read it again, nor drop the choices a person made in it."""
        return None

    def point(self, state: S, seat: int, command: Command) -> Pointing:
        """How a person makes ``command`` (one of ``seat``'s legal moves) by clicking the board
        (``domain.kernel.pointing``): the ``data-ref`` names of ``render_svg``'s elements. From
        what the seat's own view shows only. ``NOWHERE`` where the board cannot make it."""
        return NOWHERE

    def narrow(self, state: S, seat: int, chosen: Sequence[Ref]) -> Narrowing:
        """``seat``'s legal moves narrowed by the refs clicked so far (``domain.kernel.pointing``).
        By default each legal move is pointed; a game whose listing is too long for that (Mékong's
        programmes) narrows its own, in the same order as ``legal_moves``."""
        return narrowed(((c, self.point(state, seat, c).ways) for c in self.legal_moves(state, seat)), chosen)

    def render_svg(self, view: Mapping[str, Any], last: Mapping[str, Any] | None = None) -> str | None:
        """The board of a view as an SVG document, if the game draws one; ``last`` is the last
        seat decision as the viewer may see it (``domain.kernel.picture``), to mark on it."""
        return None

    def seat_labels(self, state: S) -> tuple[str, ...] | None:
        """Optional names for the seats (colours), in seat order."""
        return None

    def seat_colours(self, config: GameConfig, state: S | None = None) -> tuple[str, ...]:
        """Each seat's colour, as the board draws it: the game's own (``seat_labels``), or the
        platform's seat colours. Known from the configuration alone, before the game starts."""
        labels = self.seat_labels(state if state is not None else self.initial(config))
        return tuple(labels) if labels else SEAT_COLOURS[: config.seats]

    # ------------------------------------------------------------ helpers

    def redecides(self, engine: str, variant: str) -> bool:
        """Whether this engine re-decides a game that ``engine`` of this game recorded in ``variant``
        to the same events (an audit re-decides every step): its own version, and an older one
        where no change since alters that variant's events."""
        return engine == self.engine_version

    def variant(self, name: str | None) -> Variant:
        """The named variant, or the first (the default) when ``name`` is None."""
        if name is None:
            return self.variants[0]
        for v in self.variants:
            if v.name == name:
                return v
        names = ", ".join(v.name for v in self.variants)
        raise ConfigError("variant", f"unknown variant {name!r} of {self.slug}; expected one of: {names}")

    def configure(self, variant: str | None, options: Mapping[str, Any] | None, seats: int) -> GameConfig:
        """A checked ``GameConfig``; ``ConfigError`` names the field at fault."""
        v = self.variant(variant)
        if not v.min_seats <= seats <= v.max_seats:
            span = f"{v.min_seats} to {v.max_seats}"
            named = self.title if v.title == self.title else f"{self.title}: {v.title}"  # as the lobby lists it
            raise ConfigError("players", f"{named} takes {span} players, not {seats}")
        try:
            opts: object = decode(v.options, dict(options or {}))
        except DecodeError as e:
            raise ConfigError(f"options.{e.path}", e.detail) from None
        except OptionError as e:
            raise ConfigError(f"options.{e.field}", e.message) from None
        check = getattr(opts, "check_seats", None)
        if check is not None:
            try:
                check(seats)
            except OptionError as e:
                raise ConfigError(f"options.{e.field}", e.message) from None
        return GameConfig(v.name, opts, seats)

    def options_json(self, config: GameConfig) -> dict[str, Any]:
        out: dict[str, Any] = encode(config.options)
        out.pop("type", None)
        return out

    def parse_move(self, obj: object) -> Command:
        """The command a JSON move stands for; ``MalformedMove`` names the bad field."""
        try:
            return self.commands.load(obj)
        except DecodeError as e:
            raise MalformedMove(f"malformed move: {e}", MOVE_SHAPE, field=e.path) from None

    def move_schema(self) -> dict[str, Any]:
        """The JSON Schema (2020-12) of this game's moves, made from its command types: what
        ``parse_move`` accepts as to shape (the rules still judge the move)."""
        return move_schema(self.commands)

    def load_event(self, name: str, data: Mapping[str, Any]) -> Event:
        return self.events.load_data(name, dict(data))

    def fold(self, state: S, events: Iterable[Event]) -> S:
        for e in events:
            state = self.evolve(state, e)
        return state

    def new_game(self, config: GameConfig, rng: Rng) -> tuple[S, list[Event]]:
        """The opening state and events, as the platform records them."""
        state = self.initial(config)
        events = self.setup(state, rng)
        return self.fold(state, events), events

    def is_over(self, state: S) -> bool:
        return self.outcome(state) is not None

    def bot(self, name: str) -> Bot[S]:
        try:
            return self.bots[name]()
        except KeyError:
            names = ", ".join(sorted(self.bots))
            raise ConfigError("bot", f"unknown bot {name!r} for {self.slug}; expected one of: {names}") from None

    def bot_title(self, name: str) -> str:
        """The bot's name as people read it: ``Level N`` for a bot of the ladder, else its name."""
        for level, rung in enumerate(self.ladder, 1):
            if rung.bot == name:
                return f"Level {level}"
        return name

    def citations(self) -> dict[str, RuleRef]:
        """Rule id to reference, for every rule the game cites."""
        return {r.id: r for r in self.rules}
