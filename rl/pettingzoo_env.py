"""PettingZoo AEC environments for every game of the catalogue, one class for all.

``env("tarasque", variant="numbered", players=3)`` is one game and variant. Agents are
``seat_0``...; the agent to act is the first seat the engine awaits (several in
simultaneous phases: they answer in seat order, none seeing another's secret answer).
Each agent's observation is ``{"observation": float32[OBSERVATION_SIZE], "action_mask":
int8[n]}``: the vector of its own view (``rl.features``) and the mask of its legal actions
in the game's fixed action space (``rl.actions``). Rewards come once, at the end: the
seats a seat beat less those that beat it, over ``players - 1``.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from domain.kernel import Command, RuleError, Ruleset, Viewer
from rl import hooks, records
from rl.actions import Legal
from rl.features import OBSERVATION_SIZE, describe
from rl.match import Match, Without, returns
from rl.specs import codec_for, game


class DragonhallEnv(AECEnv):
    """One Dragonhall game as a PettingZoo AEC environment."""

    metadata = {"render_modes": ["ansi", "human"], "name": "dragonhall_v0", "is_parallelizable": False}

    def __init__(
        self,
        slug: str | Ruleset[Any],
        variant: str | None = None,
        players: int | None = None,
        render_mode: str | None = None,
        observation_size: int = OBSERVATION_SIZE,
        options: Mapping[str, Any] | None = None,
        from_record: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__()
        self.recorded = records.read(from_record) if from_record is not None else None
        if self.recorded is not None:
            slug, variant, players = self.recorded.ruleset, self.recorded.variant, self.recorded.players
            options = self.recorded.options
        self.ruleset = game(slug) if isinstance(slug, str) else slug
        self.variant = self.ruleset.variant(variant).name
        self.players = players or self.ruleset.variant(variant).min_seats
        """Seats at the start; newcomers may join a recorded game up to ``len(possible_agents)``."""
        self.options = dict(options or {})
        self.ruleset.configure(self.variant, self.options, self.players)  # fails early on bad options or seats
        self.codec = codec_for(self.ruleset)
        self.render_mode = render_mode
        self.observation_size = observation_size
        most = self.recorded.seats if self.recorded is not None else self.players
        self.possible_agents = [f"seat_{i}" for i in range(most)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        self._observation_space = spaces.Dict(
            {
                "observation": spaces.Box(-np.inf, np.inf, (observation_size,), np.float32),
                "action_mask": spaces.Box(0, 1, (self.codec.size,), np.int8),
            }
        )
        self._action_spaces = {a: spaces.Discrete(self.codec.size) for a in self.possible_agents}
        self._observation_spaces = {a: self._observation_space for a in self.possible_agents}
        self.match: Match | None = None
        self._table: tuple[int, Legal] | None = None
        self._no_action = np.zeros(self.codec.size, dtype=np.int8)
        self._no_action.flags.writeable = False  # shared by every observation of a seat not to act

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_spaces[agent]

    # ------------------------------------------------------------ the AEC protocol

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game; the same ``seed`` gives the same game for the same actions. An environment made
        ``from_record`` starts the recorded game, whatever ``seed``: its seed and decisions' draws."""
        seed = secrets.randbits(63) if seed is None else seed
        if self.recorded is None:
            self.match = Match(self.ruleset, self.variant, self.players, seed, options=self.options)
        else:
            streams = [d.stream for d in self.recorded.decisions]
            game_seed = self.recorded.seed
            self.match = Match(
                self.ruleset,
                self.variant,
                self.players,
                seed,
                options=self.options,
                game_seed=game_seed,
                streams=streams,
            )
        self._table = None
        self.agents: list[str] = []
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}
        for agent in self.possible_agents[: self.players]:
            self._seated(agent)
        self._after_decision()

    def _seated(self, agent: str) -> None:
        """``agent`` takes its seat: at the start, or joining a running game."""
        self.agents.append(agent)
        self.rewards[agent] = self._cumulative_rewards[agent] = 0.0
        self.terminations[agent] = self.truncations[agent] = False
        self.infos[agent] = {}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self._seat[agent]
        if action is None or not self._decide(seat, int(action)):
            inside = action is not None and 0 <= int(action) < self.codec.size
            named = self.codec.describe(int(action)) if inside else "outside the action space"  # type: ignore[arg-type]
            raise ValueError(f"action {action} ({named}) is not legal for {agent} now")
        self._cumulative_rewards[agent] = 0.0
        self._table = None
        self._after_decision()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``agent``'s view as a vector, and its action mask (all zeros when it is not to act)."""
        match = self._match()
        seat = self._seat[agent]
        vector = hooks.observation(self.ruleset, match.state, seat, self.observation_size)
        if self.terminations.get(agent) or self.truncations.get(agent) or seat not in match.awaiting():
            mask = self._no_action
        else:
            mask = self._legal(seat).mask
        return {"observation": vector, "action_mask": mask}

    def render(self) -> str | None:
        """The board as a spectator sees it, as text (``ansi``) or printed (``human``)."""
        if self.render_mode is None or self.match is None:
            return None
        text = describe(self.ruleset.view(self.match.state, _SPECTATOR), -1)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass

    # ------------------------------------------------------------ helpers

    def replay(self, actions: bool = True) -> Iterator[tuple[str, int | None, records.Decision]]:
        """Plays the recorded decisions from a fresh ``reset()`` of an environment made
        ``from_record``, exactly: each is the recorded command, whose chance is drawn as the server
        drew it. Yields, before playing each, its agent, the action that stands for it (a listed
        move's, or for a legal move the listing samples out the action of its exact numbering, which
        ``step`` takes too; None when no action is the move: see ``docs/rl.md``)
        and the decision (its server version). A decision taken without a move (``Decision.how``)
        has ``codec.skip`` for a timeout's skip and ``codec.leave(seat)`` for a resignation or a
        forfeit; ``step`` takes them too.
        The agent is the recorded seat, which in a simultaneous phase may not be ``agent_selection``.
        ``actions=False`` skips finding the actions (None each), which costs a legal-move table a step."""
        if self.recorded is None:
            raise RuntimeError("replay() needs an environment made with from_record=")
        for decision in self.recorded.decisions:
            agent = self.possible_agents[decision.seat]
            action = self._action_of(decision) if actions else None
            yield agent, action, decision
            self._cumulative_rewards[agent] = 0.0
            self._match().take(decision.seat, decision.taken)
            if decision.how == "join":
                self._seated(agent)
            self._table = None
            self._after_decision()
            self._accumulate_rewards()

    def _decide(self, seat: int, action: int) -> bool:
        """Plays ``action`` for ``seat``, the agent to act: a listed move, a legal move the listing
        samples out (the command of its exact numbering, when the rules accept it), or a decision
        taken without a move (``codec.skip``: ``seat``'s, where the rules let it be lost;
        ``codec.leave(k)``: seat ``k`` leaves, if it is still playing; ``codec.join``: a newcomer
        takes the next seat, where the rules and ``possible_agents`` leave one). False, changing
        nothing, when none of these."""
        without = self.codec.without(action)
        decision: Command | Without | None = self._legal(seat).playable(action) if without is None else without[0]
        if without is not None and without[1] is not None:
            seat = without[1]  # a leave names its seat
        if decision == "join":
            seat = len(self.agents)
            if seat >= len(self.possible_agents):
                return False
        if decision is None:
            return False
        try:
            self._match().take(seat, decision)
        except (RuleError, ValueError):
            return False
        if decision == "join":
            self._seated(self.possible_agents[seat])
        return True

    def _action_of(self, decision: records.Decision) -> int | None:
        """The action that stands for a recorded decision (see ``replay``)."""
        if decision.how == "skip":
            return self.codec.skip
        if decision.how == "join":
            return self.codec.join
        if decision.how == "leave":
            return self.codec.leave(decision.seat)
        assert decision.command is not None
        return self._legal(decision.seat).action_of(decision.command)

    def legal_commands(self, agent: str) -> dict[int, Command]:
        """Each legal action of ``agent`` and the engine command it stands for."""
        return self._legal(self._seat[agent]).commands()

    def legal_actions(self, agent: str) -> list[int]:
        """The legal actions of ``agent``, in increasing order (the mask's nonzero places, without
        scanning the whole mask)."""
        return self._legal(self._seat[agent]).actions()

    def _match(self) -> Match:
        if self.match is None:
            raise RuntimeError("call reset() before using the environment")
        return self.match

    def _legal(self, seat: int) -> Legal:
        if self._table is None or self._table[0] != seat:
            match = self._match()
            self._table = (seat, hooks.legal(self.ruleset, match.state, seat, lambda: match.legal_moves(seat)))
        return self._table[1]

    def _after_decision(self) -> None:
        """Select the next agent, or end the game for everyone with its rewards."""
        match = self._match()
        outcome = match.outcome()
        if outcome is not None:
            for agent, r in zip(self.agents, returns(outcome, len(self.agents)), strict=True):
                self.rewards[agent] = r
                self.terminations[agent] = True
            self.agent_selection = self.agents[0]
        elif match.truncated():
            self.truncations = {a: True for a in self.agents}
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self.possible_agents[match.awaiting()[0]]


_SPECTATOR = Viewer.spectator()


def env(
    slug: str | None = None, variant: str | None = None, players: int | None = None, **kwargs: Any
) -> DragonhallEnv:
    """The AEC environment of game ``slug`` (a slug of the catalogue); ``options=`` the variant's
    options; ``from_record=`` a finished server game's record, which also says the game
    (``DragonhallEnv.replay``, ``rl.records``)."""
    if slug is None and kwargs.get("from_record") is None:
        raise TypeError("env() needs a game's slug, or from_record=")
    return DragonhallEnv(slug or "", variant, players, **kwargs)
