"""Twin games for the no-leak property: two running games a viewer cannot tell apart.

Hidden information is a security property: while a game runs, the bytes a viewer
receives from any endpoint must depend only on what that viewer may know. To test
it from outside, build two games that share their public history and differ in
what is hidden from the viewer (other seats' hands, goals, programs, speeds, pile
orders), play the same public decisions on both, and compare every answer.

* Both games start from a position reached by real play: game A from the true
  state, game B from the same state with everything hidden from the viewer
  resampled (``observe`` for a seat; for a spectator, ``observe`` for every seat
  in turn). Each is a ``Forked`` game whose position is hidden from non-seats.
* Both draw chance from the same seed, so a roll is the same in both games.
* Each decision of A is matched in B by a decision whose public trace (the move
  and the events as the viewer sees them, who is awaited after each) is the same:
  the viewer's own decisions are the same command; another seat's decision is
  searched among its legal moves in B. When no decision matches, the public
  histories part and the comparison stops there.
* The clock is frozen and moved on between actions, the same in both games, and
  the ids that differ (games, players, disputes) are renamed before comparing.
"""

from __future__ import annotations

import json
import random
import uuid
from dataclasses import dataclass, field
from typing import Any

from domain.kernel import Codec, Rng, RuleError, Viewer, encode, find_game, seed_commitment, state_hash
from services.play.aggregate import Game

SEARCH = 3000
"""Legal moves of B tried when matching another seat's decision."""


@dataclass
class World:
    """One of the twin games, and the accounts that play it."""

    game_id: str
    players: list[dict[str, Any]]

    def token(self, seat: int) -> str:
        return str(self.players[seat]["token"])


@dataclass
class Twins:
    """Two games a viewer cannot tell apart, on one platform, with one seed."""

    client: Any
    ruleset: Any
    viewer: Viewer
    a: World
    b: World
    spectator: dict[str, Any]
    seed: bytes
    renames: dict[str, str] = field(default_factory=dict)
    """Ids of world B and what they are called in world A."""
    history: int = 0
    """Versions whose replays have been compared."""

    @property
    def platform(self) -> Any:
        return self.client.platform

    def token(self, world: World) -> str | None:
        if self.viewer.seat is not None:
            return world.token(self.viewer.seat)
        return None if self.spectator is None else str(self.spectator["token"])

    def state(self, world: World) -> Any:
        return self.platform.games.load(world.game_id).state

    def normalized(self, text: str) -> str:
        for theirs, ours in self.renames.items():
            text = text.replace(theirs, ours)
        return text


def resampled(ruleset: Any, state: Any, viewer: Viewer, seats: int, rng: random.Random) -> Any:
    """A state ``viewer`` cannot tell from ``state``, everything hidden from it drawn anew."""
    if viewer.seat is not None:
        return ruleset.observe(state, viewer.seat, rng)
    for seat in range(seats):
        state = ruleset.observe(state, seat, rng)
    return state


def fork(
    platform: Any,
    game_id: uuid.UUID,
    slug: str,
    variant: str,
    state: Any,
    players: list[dict[str, Any]],
    time_control: dict[str, Any],
) -> str:
    """A running game (not a sandbox) that starts from ``state``, seat ``i`` held by ``players[i]``."""
    ruleset = find_game(slug)
    seats = [
        {"seat": i, "player_id": p["id"], "name": p["name"], "kind": "human", "bot": None}
        for i, p in enumerate(players)
    ]
    table = Game._create(
        Game.Created,
        id=game_id,
        game=slug,
        variant=variant,
        options={},
        seats=len(seats),
        creator=players[0]["id"],
        time_control=time_control,
        starts_at=None,
        seed_commitment=seed_commitment(platform.seeds.of(game_id)),
        engine=ruleset.engine_version,
        settings={},
        sandbox_of=None,
    )
    table.trigger_event(
        Game.Forked,
        seats=seats,
        state=encode(state),
        state_hash=state_hash(state),
        awaiting=list(ruleset.awaiting(state)),
    )
    platform.uow.add(table)
    return str(game_id)


def public_trace(ruleset: Any, state: Any, seat: int, command: Any, viewer: Viewer, rng: Rng) -> Any:
    """What ``viewer`` learns from ``seat`` deciding ``command`` in ``state``: the move and the
    events as it sees them, who is awaited after each, the board it then sees, and whether the
    game ends; or the fact that the rules refuse it (``None``)."""
    try:
        events = ruleset.decide(state, seat, command, rng)
    except RuleError:
        return None
    trace = [command.TYPE, command.visible_data(seat, viewer)]
    for e in events:
        state = ruleset.evolve(state, e)
        trace.append((e.TYPE, e.visible_data(viewer), ruleset.awaiting(state)))
    trace.extend((ruleset.view(state, viewer), ruleset.is_over(state)))
    return json.loads(json.dumps(trace, default=str))


def matching_move(
    ruleset: Any, state_a: Any, state_b: Any, seat: int, command: Any, viewer: Viewer, rng_of: Any, pick: random.Random
) -> Any | None:
    """A decision of ``seat`` in B with the public trace of ``command`` in A, or None."""
    wanted = public_trace(ruleset, state_a, seat, command, viewer, rng_of())
    if viewer.seat == seat:  # the viewer knows the same in both games: the same command is legal in both
        mine = public_trace(ruleset, state_b, seat, command, viewer, rng_of())
        assert (mine is None) == (wanted is None), (
            f"seat {seat}'s own decision {Codec.dump(command)} is judged differently when what it cannot "
            "see is resampled"
        )
        return command if mine == wanted else None  # else it reveals what differs: the histories part
    listed = list(ruleset.legal_moves(state_b, seat))
    pick.shuffle(listed)
    for candidate in [command, *listed[:SEARCH]]:
        if public_trace(ruleset, state_b, seat, candidate, viewer, rng_of()) == wanted:
            return candidate
    return None
