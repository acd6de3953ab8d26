"""The games Dragonhall serves: one line per game.

The kernel does not import this module: the composition root (``wiring``) hands
``GAMES`` to the kernel's registry, so the lowest layer never reaches up to the list
of games built on it.
"""

from typing import Any

from domain import drachenreiter, mekong, seven_dragons, tarasque
from domain.kernel import Ruleset

GAMES: tuple[Ruleset[Any], ...] = (
    tarasque.RULESET,
    seven_dragons.RULESET,
    drachenreiter.RULESET,
    mekong.RULESET,
)
