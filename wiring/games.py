"""The games a process serves: the catalogue, handed to the kernel's registry."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from domain import catalog
from domain.kernel import Ruleset, register
from services.play.aggregate import register_rule_events


def register_games(games: Iterable[Ruleset[Any]] = catalog.GAMES) -> None:
    """Registers each game with the kernel (``find_game``, ``all_games``) and makes its rule
    events loadable from the store. Registering a game twice does nothing."""
    for ruleset in games:
        register(ruleset)
        register_rule_events(ruleset)
