"""The games Dragonhall serves: one registration line per game."""

from domain import drachenreiter, mekong, seven_dragons, tarasque
from domain.kernel import register

# Each game package exports one Ruleset instance as RULESET.
register(tarasque.RULESET)
register(seven_dragons.RULESET)
register(drachenreiter.RULESET)
register(mekong.RULESET)
