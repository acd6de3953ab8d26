"""The registry of games by slug. The composition root (``wiring``) registers each game of
``domain.catalog``; the kernel imports no game."""

from __future__ import annotations

from typing import Any, TypeVar

from domain.kernel.ruleset import ConfigError, Ruleset

R = TypeVar("R", bound=Ruleset[Any])

_GAMES: dict[str, Ruleset[Any]] = {}
"""Slug to game. Games differ in their state type, hence ``Ruleset[Any]``."""


def register(ruleset: R) -> R:
    """Adds ``ruleset`` to the catalogue under its slug, and returns it as given."""
    if ruleset.slug in _GAMES and _GAMES[ruleset.slug] is not ruleset:
        raise ValueError(f"game {ruleset.slug!r} is already registered")
    _GAMES[ruleset.slug] = ruleset
    return ruleset


def find_game(slug: str) -> Ruleset[Any]:
    """The registered game ``slug``; ``ConfigError`` lists the known ones. (Every move asks
    for its game's rules several times: a game already registered is found without the
    import machinery.)"""
    ruleset = _GAMES.get(slug)
    if ruleset is None:
        known = ", ".join(sorted(_GAMES))
        raise ConfigError("game", f"unknown game {slug!r}; expected one of: {known}")
    return ruleset


def all_games() -> list[Ruleset[Any]]:
    """Every registered game, by slug."""
    return [_GAMES[k] for k in sorted(_GAMES)]
