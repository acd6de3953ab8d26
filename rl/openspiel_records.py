"""A finished server game rebuilt as an OpenSpiel state: its chance nodes answered with the server's draws.

The OpenSpiel games (``rl.openspiel_game``) make chance explicit: every ``Rng.below(n)`` the
engine asks is a chance node of ``n`` equally likely outcomes. A server game draws the same
``below`` calls from its seed (``Rng(seed, "setup")`` for the opening, ``Rng(seed, decision.stream)``
for each recorded decision: ``rl.records``), so replaying a record is answering each chance node
with the outcome the server drew and each decision node with the recorded move's action:

    game, state = from_record(record)              # the state after the whole game
    for state, decision, action in replay(record):  # the state before each recorded decision
        state.observation_tensor(decision.seat)     # what the seat saw then

The history of a state so rebuilt is the exact history of the server's game (chance outcomes
and actions), so ``from_history(game, state.full_history())`` gives it again (and so does applying
``state.history()`` to a new initial state, when every simultaneous phase went in seat order). Each seat
sees in it what it saw on the server: its observation is built from its own view
(``Ruleset.view``), the view ``GET /games/{id}`` gave it, and the seat to act has exactly the
legal moves the server listed (``tests/unit/rl/test_openspiel_from_record.py``).

A simultaneous phase is taken by OpenSpiel one player at a time, in seat order unless told:
the replay tells the state which seat answers next (``DragonhallState.answer_next``), so the phase
goes in the record's order. A legal move that the listing samples out (a too-short plank on a gap
the listing skips, a stone dropped between the listed points) has the action of its exact numbering,
which ``apply_action`` takes when the rules accept it, as the server did.

A decision taken without a move is the action that stands for it: a timeout's lost decision
``codec.skip``, a resignation or a forfeit ``codec.leave(seat)``, taken when that seat is to act
if it is awaited, else at whichever seat's node the game stood.

Limits, as for PettingZoo (``rl.records``): only a finished game's record (a running game's seed
is secret, so its chance cannot be answered). A move that no action is exactly (one recorded before
the rules took continuous values in whole units, bounded Seven Dragons' table and reused Mekong's
stone names, such as a Drachenreiter turn of 16.875° or a Mekong stone ``s28``) is refused with a
``ValueError`` naming its version.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

import pyspiel

from domain.kernel import Rng
from rl import records
from rl.match import decided
from rl.openspiel_game import DragonhallState, game_name


class Drawing(Rng):
    """The server's generator for one step, noting each outcome of a draw with a choice (a chance node)."""

    __slots__ = ("drawn",)

    def __init__(self, seed: bytes, stream: str) -> None:
        super().__init__(seed, stream)
        self.drawn: list[int] = []

    def below(self, n: int) -> int:
        out = super().below(n)
        if n > 1:
            self.drawn.append(out)
        return out


def load_game(recorded: records.Recorded) -> pyspiel.Game:
    """The OpenSpiel game of a record's table: its game, variant, options and seats."""
    params = {"variant": recorded.variant, "players": recorded.seats, "seated": recorded.players,
              "options": json.dumps(dict(recorded.options), sort_keys=True)}  # fmt: skip
    return pyspiel.load_game(game_name(recorded.ruleset.slug), params)


def replay(record: Mapping[str, Any]) -> Iterator[tuple[DragonhallState, records.Decision, int]]:
    """Plays a finished server game's record in OpenSpiel, yielding before each recorded decision
    the state (a decision node of the decision's seat), the ``Decision`` (its server version) and
    the action that stands for it. The state yielded is the one replayed: do not change it (clone
    it to explore). ``ValueError`` for a record OpenSpiel cannot take (the module says which)."""
    for state, decision, action in _steps(records.read(record)):
        if decision is not None and action is not None:
            yield state, decision, action


def from_record(record: Mapping[str, Any]) -> tuple[pyspiel.Game, DragonhallState]:
    """The OpenSpiel game of a finished server game's record and the state at its end."""
    end, _, _ = deque(_steps(records.read(record)), maxlen=1)[0]
    return end.get_game(), end


def from_history(game: pyspiel.Game, full_history: Iterable[pyspiel.PlayerAction | tuple[int, int]]) -> DragonhallState:
    """A new state of ``game`` with ``full_history`` (``state.full_history()``, or its ``(player,
    action)`` pairs) applied, each action by the player that took it. ``history()`` alone rebuilds a
    game whose simultaneous phases went in seat order; a replayed record's may have gone in another,
    which only the players say."""
    state = game.new_initial_state()
    for step in full_history:
        player, action = step if isinstance(step, tuple) else (step.player, step.action)
        if player >= 0 and player != state.current_player():
            state.answer_next(player)
        state.apply_action(action)
    return state


def dumps(state: DragonhallState) -> str:
    """``state`` as JSON text: its game's name and parameters, and its full history.

    ``pyspiel.serialize_game_and_state`` serialises a Python game's state with a pickle of its
    attributes, which only a trusted reader may load. This is what a C++ game's state is: the game
    and the actions that led to it, each with its player; ``loads`` replays them."""
    game = state.get_game()
    return json.dumps(
        {
            "game": game.get_type().short_name,
            "parameters": game.get_parameters(),
            "history": [[step.player, step.action] for step in state.full_history()],
        },
        separators=(",", ":"),
    )


def loads(text: str) -> tuple[pyspiel.Game, DragonhallState]:
    """The game and the state that ``dumps`` wrote (``ValueError`` for text it did not write, or a
    history the game refuses)."""
    data = json.loads(text)
    if not isinstance(data, dict) or set(data) != {"game", "parameters", "history"}:
        raise ValueError("not a state written by rl.openspiel_records.dumps")
    game = pyspiel.load_game(str(data["game"]), dict(data["parameters"]))
    return game, from_history(game, [(int(p), int(a)) for p, a in data["history"]])


def _steps(
    recorded: records.Recorded,
) -> Iterator[tuple[DragonhallState, records.Decision | None, int | None]]:
    """The state before each recorded decision with the decision and its action, then the end (None, None)."""
    game = load_game(recorded)
    ruleset = recorded.ruleset
    state = game.new_initial_state()
    opening = Drawing(recorded.seed, "setup")
    ruleset.setup(state.engine_state, opening)
    _answer_chance(state, opening.drawn, "the opening")
    for decision in recorded.decisions:
        _to_act(state, decision)
        action = _action(state, decision)
        yield state, decision, action
        drawing = Drawing(recorded.seed, decision.stream)
        decided(ruleset, state.engine_state, decision.seat, decision.taken, drawing)
        state.apply_action(action)
        _answer_chance(state, drawing.drawn, f"version {decision.version}")
    yield state, None, None


def _to_act(state: DragonhallState, decision: records.Decision) -> None:
    """Lets the decision's seat act next, where it is awaited (a seat may leave at any time, and a
    newcomer join)."""
    if state.current_player() == decision.seat:
        return
    try:
        state.answer_next(decision.seat)
    except ValueError:
        if decision.how not in ("leave", "join"):
            raise ValueError(f"version {decision.version}: seat {decision.seat + 1} moved out of turn") from None


def _action(state: DragonhallState, decision: records.Decision) -> int:
    """The action that stands for a recorded decision."""
    codec = state.get_game().codec
    if decision.how == "skip":
        return codec.skip
    if decision.how == "leave":
        return codec.leave(decision.seat)
    if decision.how == "join":
        return codec.join
    assert decision.command is not None
    action = state.action_for(decision.command)
    if action is None:
        raise ValueError(f"version {decision.version}: no action stands for the recorded move")
    return action


def _answer_chance(state: DragonhallState, drawn: list[int], where: str) -> None:
    """Answers the chance nodes ``state`` now stands at with the outcomes the server drew in the
    same step (its draws with a choice, in order)."""
    for outcome in drawn:
        if not state.is_chance_node():
            raise ValueError(f"{where}: the server drew more than OpenSpiel asks")
        state.apply_action(outcome)
    if state.is_chance_node():
        raise ValueError(f"{where}: OpenSpiel asks for more draws than the server made")
