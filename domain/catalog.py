"""The games Dragonhall serves: one registration line per game."""


# Each game package exports one Ruleset instance as RULESET.
