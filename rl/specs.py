"""What the environments need to know of a game beyond its ``Ruleset``, registered by slug.

A game with no registered spec still gets environments: its command fields are numbered
from their type hints where they can be, and by listing order (``Listed``) where they
cannot (``ActionCodec``). A module in ``rl.games`` refines that for one game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import numpy as np

from domain.kernel import Ruleset
from rl.action_fields import Spec
from rl.actions import ActionCodec
from rl.features import Leaves

Encoder = Callable[[Any, int], Leaves]
"""``(state, seat) -> the leaves of the seat's view``."""
LegalActions = Callable[[Any, int], "np.ndarray | None"]
"""``(state, seat) -> its legal actions`` (an integer array), or None to list the moves instead."""


@dataclass(frozen=True)
class GameSpec:
    """One game's numbering of its commands and the bounds OpenSpiel asks for."""

    slug: str
    actions: Mapping[str, Spec] = field(default_factory=dict)
    """Command wire name to its numbering; command types left out are inferred."""
    max_chance_outcomes: int = 256
    """The largest ``Rng.below(n)`` the game draws (a shuffle of n items draws up to n)."""
    observed_view: Callable[[dict[str, Any]], dict[str, Any]] | None = None
    """What the observation hashes of a seat's view, where that is not the view as sent: a pure
    function of the view (a bot on a server applies it too, ``rl.hooks.of_view``). Seven Dragons
    keys its grid by cell rather than by place in the list, so that a card keeps its features
    when another is placed before it. None: the view itself."""
    observation: Encoder | None = None
    """The leaves of a seat's observed view straight from the state, in the view's order: the same
    vector as ``rl.hooks.of_view``, faster (``rl.hooks.observation``). None: the view is featurized."""
    legal_actions: LegalActions | None = None
    """A seat's legal actions straight from the state, without building every command, or None
    where the listing is cheap enough (``rl.hooks.legal``): distinct, in increasing order, and
    each decoding to a listed command (``ActionCodec.command``). None: the listing is indexed
    (``ActionCodec.table``)."""


_SPECS: dict[str, GameSpec] = {}


def game(slug: str) -> Ruleset[Any]:
    """The game ``slug`` of the catalogue (``domain.catalog``: the server's registry is filled
    by its composition root, which the environments do without)."""
    from domain.catalog import GAMES

    for ruleset in GAMES:
        if ruleset.slug == slug:
            return ruleset
    raise ValueError(f"unknown game {slug!r}; expected one of: {', '.join(r.slug for r in GAMES)}")


def register_spec(spec: GameSpec) -> None:
    _SPECS[spec.slug] = spec


def spec_for(slug: str) -> GameSpec:
    return _SPECS.get(slug) or GameSpec(slug)


@cache
def codec_for(ruleset: Ruleset[Any]) -> ActionCodec:
    """The action space of ``ruleset``'s game (one per game, all variants and seat counts)."""
    seats = max(v.max_seats for v in ruleset.variants)
    return ActionCodec(ruleset.commands, spec_for(ruleset.slug).actions, seats=seats)
