"""A seat's observation and legal actions, through its game's own fast code where it has some.

Both environments (and the bench) ask here. A game's module in ``rl.games`` may register two
hooks (``GameSpec.observation`` and ``GameSpec.legal_actions``); a game without them goes the
generic way: the seat's view hashed by ``featurize`` (``of_view``), the legal listing indexed by the codec.
The hooks give the same answers as the generic way (tests/unit/rl/test_hooks.py checks it at
every step of random games), only faster: an encoder adds the view's leaves straight from the
state, rendering once the parts that recur; a mask hook numbers the legal moves without
building them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from domain.kernel import Command, Ruleset, Viewer
from rl.actions import Legal
from rl.features import OBSERVATION_SIZE, featurize
from rl.specs import codec_for, spec_for


def of_view(slug: str, view: dict[str, Any], seat: int, size: int = OBSERVATION_SIZE) -> np.ndarray:
    """The observation vector of ``seat``'s ``view`` of a game ``slug``: the view as the game's
    spec observes it (``GameSpec.observed_view``), hashed by ``featurize``. The one definition of
    an observation: what the environments give a seat, and what a bot on a server computes from
    the view it was sent (``rl.bridge``)."""
    reshape = spec_for(slug).observed_view
    return featurize(reshape(view) if reshape is not None else view, seat, size)


def observation(ruleset: Ruleset[Any], state: Any, seat: int, size: int = OBSERVATION_SIZE) -> np.ndarray:
    """``of_view(ruleset.slug, ruleset.view(state, Viewer.of(seat)), seat, size)``, by the game's
    encoder if it has one."""
    encode = spec_for(ruleset.slug).observation
    if encode is None:
        return of_view(ruleset.slug, ruleset.view(state, Viewer.of(seat)), seat, size)
    return encode(state, seat).vector(size)


def legal(ruleset: Ruleset[Any], state: Any, seat: int, moves: Callable[[], Sequence[Command]]) -> Legal:
    """The legal actions of ``seat``: by the game's mask hook if it has one and answers, else from
    ``moves()`` (the legal listing, called only then)."""
    codec = codec_for(ruleset)
    fast = spec_for(ruleset.slug).legal_actions
    actions = fast(state, seat) if fast is not None else None
    if actions is None:
        return Legal.of_moves(codec, moves())
    return Legal.of_actions(codec, actions)
