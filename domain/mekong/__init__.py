"""Les Dragons du Mékong (Roberto Fraga): build bridges of planks on stones across the delta."""

from domain.mekong.ruleset import RULESET

__all__ = ["RULESET"]
