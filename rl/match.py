"""One game played offline, as the platform plays it: the engine, the seed and the decisions.

``Match`` is what both environments drive. Chance is drawn as the server draws it
(``Rng(seed, "setup")`` for the opening, ``Rng(seed, f"v{n}")`` for the n-th decision),
so a seed reproduces a game exactly.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal

from domain.kernel import Command, Event, Outcome, Rng, Ruleset, Viewer, state_after

Lost = Literal["skip", "leave"]
"""How a seat's decision is taken without a move: lost to a timeout, or by the seat leaving."""
Without = Literal["skip", "leave", "join"]
"""A decision taken without a move: a ``Lost`` one, or a newcomer joining a running game (the new
seat is the next, as ``Ruleset.join`` makes it)."""


def seed_bytes(seed: int) -> bytes:
    """The game seed an integer seed stands for."""
    return f"dragonhall-rl:{seed}".encode()


class Match:
    """The state of one game and the next decision's number."""

    def __init__(
        self,
        ruleset: Ruleset[Any],
        variant: str | None,
        players: int,
        seed: int,
        *,
        options: Mapping[str, Any] | None = None,
        game_seed: bytes | None = None,
        streams: Sequence[str] | None = None,
    ) -> None:
        """``options`` are the variant's; ``game_seed`` (a server game's revealed seed) replaces the
        seed ``seed`` stands for, and ``streams`` the stream of each decision (``rl.records``)."""
        self.ruleset = ruleset
        self.config = ruleset.configure(variant, options, players)
        self.seed = game_seed if game_seed is not None else seed_bytes(seed)
        self.streams = streams
        self.state, _ = ruleset.new_game(self.config, Rng(self.seed, "setup"))
        self.decisions = 0
        self._legal: tuple[int, Sequence[Command]] | None = None
        self._awaiting: tuple[Any, tuple[int, ...]] = (None, ())

    @property
    def players(self) -> int:
        return self.config.seats

    def awaiting(self) -> tuple[int, ...]:
        """The seats awaited now (kept until the next decision: an environment step asks twice)."""
        if self._awaiting[0] is not self.state:
            self._awaiting = (self.state, self.ruleset.awaiting(self.state))
        return self._awaiting[1]

    def legal_moves(self, seat: int) -> Sequence[Command]:
        """The legal moves of ``seat`` now (kept until the next decision)."""
        if self._legal is None or self._legal[0] != seat:
            self._legal = (seat, self.ruleset.legal_moves(self.state, seat))
        return self._legal[1]

    def take(self, seat: int, decision: Command | Without) -> None:
        """``seat``'s decision, as a server game records it (``rl.records``): a move (the engine
        checks it), or one without a move: ``"skip"`` loses it to a timeout where the rules allow
        (``ValueError``, changing nothing, where they do not), ``"leave"`` makes the seat leave,
        ``"join"`` seats a newcomer (``seat``, the next) where the rules let one join."""
        self._step(lambda rng: decided(self.ruleset, self.state, seat, decision, rng))

    def _step(self, decide: Callable[[Rng], list[Event]]) -> list[Event]:
        """One decision: its events, drawn from the decision's stream, folded."""
        k = self.decisions
        stream = self.streams[k] if self.streams is not None and k < len(self.streams) else f"v{k}"
        events = decide(Rng(self.seed, stream))
        self.state = state_after(self.ruleset, self.state, events)  # folded once, by the decider, as the platform does
        self.decisions += 1
        self._legal = None
        return events

    def view(self, seat: int) -> dict[str, Any]:
        """The board as ``seat`` sees it: the only source of its observations."""
        return self.ruleset.view(self.state, Viewer.of(seat))

    def outcome(self) -> Outcome | None:
        return self.ruleset.outcome(self.state)

    def truncated(self) -> bool:
        return self.decisions >= self.ruleset.max_decisions


def decided(ruleset: Ruleset[Any], state: Any, seat: int, command: Command | Without, rng: Rng) -> list[Event]:
    """The events of ``seat``'s decision: a move, a lost decision (``ValueError`` where the rules let
    none be lost), leaving, or joining as the next seat."""
    if command == "skip":
        events = ruleset.skip(state, seat, rng)
        if events is None:
            raise ValueError(f"the rules let no decision of seat {seat + 1} be lost here")
        return events
    if command == "leave":
        return ruleset.leave(state, seat, rng)
    if command == "join":
        return ruleset.join(state, rng)
    assert not isinstance(command, str)
    return ruleset.decide(state, seat, command, rng)


def returns(outcome: Outcome, players: int) -> list[float]:
    """Each seat's return from its place: the seats it beat less the seats that beat it, over
    ``players - 1``. Zero-sum and within [-1, 1]: a lone winner 1, a lone last -1, a tie 0."""
    places = outcome.places or (1,) * players
    scale = max(len(places) - 1, 1)
    return [sum((q > p) - (q < p) for q in places) / scale for p in places]
