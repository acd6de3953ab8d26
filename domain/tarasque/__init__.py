"""Tarasque (DrachenWurf): roll dragon dice to win tiles, guard them at your base, score rows in your lair."""

from domain.tarasque.ruleset import RULESET

__all__ = ["RULESET"]
