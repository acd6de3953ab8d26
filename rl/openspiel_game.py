"""OpenSpiel Python games for every game of the catalogue: ``python_dragonhall_<slug>``.

``pyspiel.load_game("python_dragonhall_tarasque", {"variant": "numbered", "players": 3})``
after ``import rl.openspiel_game`` (which registers them all). Actions are the game's
fixed action space (``rl.actions``), the same integers as the PettingZoo environment's.

**Chance is explicit.** The engines draw every chance outcome through ``Rng.below(n)``
(a shuffle is a run of them, a die one). Here ``setup`` and ``decide`` run with a
stand-in ``Rng`` that replays the outcomes chosen so far and stops at the first draw it
has no outcome for: the state is then a chance node with the ``n`` outcomes of that draw,
each of probability ``1/n`` (``below`` is uniform). Once the chance player has chosen
every draw, the engine's events are folded. The engine is a pure function of its inputs,
so running it again with one more outcome is exact.

**Decisions without a move.** After the moves, the action space holds ``skip`` (the acting
seat's decision lost to a timeout, where the rules allow), ``leave(seat)`` (that seat resigns
or forfeits, whichever seat is to act) and ``join`` (a newcomer takes the next seat of a running
game, where the rules allow: a game loaded with ``seated`` seats at the start, fewer than its
``players``): a server game records them all (``rl.openspiel_records``). ``legal_actions()`` lists
none of them (the rules' choices are the moves); ``apply_action`` takes them where the rules do. A
player not seated yet is never to act, observes nothing (zeros, ``"not seated"``) and gets 0.

Observations are the seat's own view (``rl.features``): as a string its canonical JSON,
as a tensor its hashed vector. The information state adds the seat's own past actions.
Returns: the seats beaten less the seats that beat one, over ``players - 1`` (zero-sum).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import numpy as np
import pyspiel

from domain.catalog import GAMES
from domain.kernel import Command, Event, Rng, RuleError, Ruleset, Viewer, state_after
from rl import hooks
from rl.actions import ActionCodec, Legal
from rl.features import OBSERVATION_SIZE, describe
from rl.match import Without, decided, returns
from rl.specs import codec_for, spec_for

T = TypeVar("T")


class NeedChance(Exception):
    """The engine drew from the Rng and no outcome is chosen yet: a chance node of ``n`` outcomes."""

    def __init__(self, n: int) -> None:
        super().__init__(n)
        self.n = n


class Replay(Rng):
    """An ``Rng`` whose draws are chosen outside: the given outcomes in order, then ``NeedChance``.

    A draw with one possible outcome needs no choice."""

    __slots__ = ("_at", "_outcomes")

    def __init__(self, outcomes: Sequence[int]) -> None:
        super().__init__(b"", "replay")
        self._outcomes = outcomes
        self._at = 0

    def below(self, n: int) -> int:
        if n == 1:
            return 0
        if self._at < len(self._outcomes):
            self._at += 1
            return self._outcomes[self._at - 1]
        raise NeedChance(n)


class Shared:
    """An immutable value that copies of a state share (``deepcopy`` keeps the same object):
    engine states are frozen, and a ruleset is a module's single instance."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __deepcopy__(self, memo: dict[int, Any]) -> Shared:
        return self


class Forgotten(Shared):
    """A cache that a serialised state leaves out (it is rebuilt when next asked for): OpenSpiel
    serialises a Python state's attributes with pickle, and a legal-move table is up to a megabyte."""

    __slots__ = ()

    def __reduce__(self) -> tuple[Any, tuple[()]]:
        return _forgotten, ()


def _forgotten() -> None:
    return None


def game_name(slug: str) -> str:
    return "python_dragonhall_" + slug.replace("-", "_")


def _game_type(ruleset: Ruleset[Any]) -> pyspiel.GameType:
    default = ruleset.variants[0]
    return pyspiel.GameType(
        short_name=game_name(ruleset.slug),
        long_name=f"Dragonhall {ruleset.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(v.max_seats for v in ruleset.variants),
        min_num_players=min(v.min_seats for v in ruleset.variants),
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"variant": default.name, "players": default.min_seats, "options": "", "seated": 0},
    )


class DragonhallGame(pyspiel.Game):
    """One game of the catalogue; parameters ``variant``, ``players``, ``options`` (the variant's
    options as a JSON object, its defaults when empty: ``'{"track": "ring"}'``) and ``seated`` (the
    seats at the start where newcomers join later, up to ``players``; 0: all of them)."""

    ruleset: Ruleset[Any]

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**self.game_type().parameter_specification, **(params or {})}
        options = json.loads(str(params["options"]) or "{}")
        players = int(params["players"])
        seated = int(params["seated"]) or players
        if not 0 < seated <= players:
            raise ValueError(f"seated {seated}: from 1 to players ({players})")
        self.config = self.ruleset.configure(str(params["variant"]), options, seated)
        self.codec: ActionCodec = codec_for(self.ruleset)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.codec.size,
            max_chance_outcomes=spec_for(self.ruleset.slug).max_chance_outcomes,
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=self.ruleset.max_decisions * 64,
        )
        super().__init__(self.game_type(), info, params)

    @classmethod
    def game_type(cls) -> pyspiel.GameType:
        return _game_type(cls.ruleset)

    def new_initial_state(self) -> DragonhallState:
        return DragonhallState(self)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: dict[str, Any] | None = None
    ) -> ViewObserver:
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return ViewObserver(perfect_recall)


class DragonhallState(pyspiel.State):
    """A position, or a chance node while the engine's pending step awaits its draws."""

    def __init__(self, game: DragonhallGame) -> None:
        super().__init__(game)
        self._rules = Shared(game.ruleset)
        self._engine = Shared(game.ruleset.initial(game.config))
        self._pending: tuple[int, Command | Without] | None = None  # None before setup: the opening is pending
        self._opened = False
        self._draws: list[int] = []
        self._chance = 0
        self._decisions = 0
        self._mine: list[list[int]] = [[] for _ in range(game.num_players())]
        self.seated = game.config.seats
        """The seats in the game now (newcomers join as the next)."""
        self._legal: Forgotten | None = None
        self._next: int | None = None
        self._resolve()

    # ------------------------------------------------------------ the engine

    @property
    def ruleset(self) -> Ruleset[Any]:
        return self._rules.value

    @property
    def _codec(self) -> ActionCodec:
        return codec_for(self.ruleset)

    @property
    def engine_state(self) -> Any:
        """The engine's state (before the pending step's events while chance is pending)."""
        return self._engine.value

    def _resolve(self) -> None:
        """Run the pending step with the draws chosen so far; fold its events once none is missing."""
        rng = Replay(self._draws)
        try:
            events = self._step(rng)
        except NeedChance as need:
            self._chance = need.n
            return
        self._engine = Shared(state_after(self.ruleset, self.engine_state, events))
        if self._pending is not None and self._pending[1] == "join":
            self.seated += 1
        self._opened, self._pending, self._draws, self._chance, self._legal = True, None, [], 0, None

    def _step(self, rng: Rng) -> list[Event]:
        if not self._opened:
            return self.ruleset.setup(self.engine_state, rng)
        assert self._pending is not None
        seat, command = self._pending
        return decided(self.ruleset, self.engine_state, seat, command, rng)

    def _table(self) -> Legal:
        if self._legal is None:
            seat, state = self.current_player(), self.engine_state
            rules = self.ruleset
            self._legal = Forgotten(hooks.legal(rules, state, seat, lambda: rules.legal_moves(state, seat)))
        return self._legal.value

    # ------------------------------------------------------------ the OpenSpiel protocol

    def current_player(self) -> int:
        if self._chance:
            return int(pyspiel.PlayerId.CHANCE)
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        awaited = self.ruleset.awaiting(self.engine_state)
        return self._next if self._next in awaited else awaited[0]

    def answer_next(self, seat: int) -> None:
        """In a simultaneous phase, let ``seat`` (one of the seats awaited) answer next.

        OpenSpiel takes one player at a time: a simultaneous phase goes in seat order unless
        told otherwise. A server game's seats answer it in any order, and a record replayed in
        OpenSpiel (``rl.openspiel_records``) answers it in the record's order, so that every state
        it passes through is the server's. A phase draws no chance before its last answer, so the
        order changes no state once the phase is complete."""
        if self._chance or self.is_terminal() or seat not in self.ruleset.awaiting(self.engine_state):
            raise ValueError(f"seat {seat} is not awaited now")
        if seat != self.current_player():
            self._next, self._legal = seat, None

    def _legal_actions(self, player: int) -> list[int]:
        if player != self.current_player():
            return []
        return self._table().actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        p = 1.0 / self._chance
        return [(k, p) for k in range(self._chance)]

    def _apply_action(self, action: int) -> None:
        if self._chance:
            self._draws.append(int(action))
        else:
            seat, command = self._chosen(int(action))
            self._pending, self._next = (seat, command), None
            self._mine[seat].append(int(action))
            self._decisions += 1
        self._resolve()

    def _chosen(self, action: int) -> tuple[int, Command | Without]:
        """The seat deciding and what it decides: the acting seat's listed move, else (checked)
        a move the listing samples out or its lost decision, another seat leaving or a newcomer."""
        seat = self.current_player()
        listed = self._table().command(action)
        if listed is not None:
            return seat, listed
        without = self._codec.without(action)
        if without is None:
            return seat, self._checked(seat, self._table().playable(action), action)
        how, leaver = without
        seat = self.seated if how == "join" else seat if leaver is None else leaver  # a leave names its seat
        if seat >= self.get_game().num_players():
            raise ValueError(f"action {action} (join): the game's {seat} players are all seated")
        return seat, self._checked(seat, how, action)

    def _checked(self, seat: int, command: Command | Without | None, action: int) -> Command | Without:
        """``command`` when the rules accept it of ``seat`` now, as the server would (a too-short
        plank on a wide gap, a stone dropped between the listed points, a lost decision):
        ``ValueError`` otherwise."""
        if command is not None:
            try:
                decided(self.ruleset, self.engine_state, seat, command, Replay(()))
                return command
            except NeedChance:
                return command
            except (RuleError, ValueError):
                pass
        raise ValueError(f"action {action} ({self._codec.describe(action)}) is not legal for player {seat} now")

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"draw {action}"
        return str(self._codec.describe(int(action)))

    def is_terminal(self) -> bool:
        if self._chance:
            return False
        return self.ruleset.is_over(self.engine_state) or self._decisions >= self.ruleset.max_decisions

    def returns(self) -> list[float]:
        outcome = self.ruleset.outcome(self.engine_state) if not self._chance else None
        n = self.get_game().num_players()
        return [*returns(outcome, self.seated), *[0.0] * (n - self.seated)] if outcome is not None else [0.0] * n

    def resample_from_infostate(self, player_id: int, probability_sampler: Callable[[], float]) -> DragonhallState:
        """A state ``player_id`` cannot tell from this one: what it does not see (the others'
        hands and programmes, the deck's order, secret speeds and trap values) drawn anew from what
        it knows, by the engine's own ``observe`` (the one the server's bots decide on), seeded
        from ``probability_sampler()`` (a float in [0, 1), as OpenSpiel's samplers give).

        What imperfect-information search needs: ``player_id``'s observation, information state and
        legal actions are those of this state. The new state's ``history()`` is this one's: the
        hidden draws it changed are not in it. At a decision or terminal node only."""
        if self._chance:
            raise ValueError("resample_from_infostate at a chance node: answer its draw first")
        if player_id >= self.seated:
            raise ValueError(f"player {player_id} is not seated yet")
        seed = int(probability_sampler() * 2**53)
        other = self.clone()
        other._engine = Shared(self.ruleset.observe(self.engine_state, player_id, random.Random(seed)))
        other._legal = None
        return other

    def view(self, player: int) -> dict[str, Any]:
        """What ``player`` sees of the position."""
        return self.ruleset.view(self.engine_state, Viewer.of(player))

    def action_for(self, command: Command) -> int | None:
        """The action of the player to act that stands for ``command``: a listed move's, else the
        action whose numbering is exactly ``command`` (a legal move the listing samples out, which
        ``apply_action`` takes when the rules accept it). None when no action is ``command`` (a
        continuous value off the action grid)."""
        return self._table().action_of(command)

    def own_actions(self, player: int) -> list[int]:
        return list(self._mine[player])

    def __str__(self) -> str:
        view = self.ruleset.view(self.engine_state, Viewer.spectator())
        return describe(view, -1) + (f" (drawing 1 of {self._chance})" if self._chance else "")


class ViewObserver:
    """A seat's observation: the hashed vector of its view, and its view as a string. With
    ``perfect_recall`` (information states) the string adds the seat's own past actions."""

    def __init__(self, perfect_recall: bool, size: int = OBSERVATION_SIZE) -> None:
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"view": self.tensor}

    def set_from(self, state: DragonhallState, player: int) -> None:
        if player >= state.seated:
            self.tensor[:] = 0.0
            return
        self.tensor[:] = hooks.observation(state.ruleset, state.engine_state, player, self.tensor.size)

    def string_from(self, state: DragonhallState, player: int) -> str:
        if player >= state.seated:
            return "not seated"
        text = describe(state.view(player), player)
        if self.perfect_recall:
            text += f" mine: {state.own_actions(player)}"
        return text


def register_all() -> None:
    """Register a Python game per game of the catalogue (once; later calls do nothing)."""
    known = set(pyspiel.registered_names())
    for ruleset in GAMES:
        name = game_name(ruleset.slug)
        if name in known:
            continue
        cls = type(f"Dragonhall_{ruleset.slug.replace('-', '_')}", (DragonhallGame,), {"ruleset": ruleset})
        pyspiel.register_game(_game_type(ruleset), cls)


register_all()
