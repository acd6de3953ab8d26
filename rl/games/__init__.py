"""The games' own numberings of their moves: one module per game, each registering a ``GameSpec``.

A game without a module here still works (``rl.specs.spec_for`` infers what it can)."""

from rl.games import drachenreiter, mekong, seven_dragons, tarasque

__all__ = ["drachenreiter", "mekong", "seven_dragons", "tarasque"]
