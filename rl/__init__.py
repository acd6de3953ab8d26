"""Dragonhall's games for machine learning: PettingZoo and OpenSpiel environments, and a bridge
that plays a trained policy on a server through the bot client (``dragonhall[rl]``).

Imports ``domain`` only (and the client ``dragonhall`` for the bridge). See docs/rl.md."""

import rl.games  # noqa: F401  (registers each game's action numbering)
