"""A table with too many players is refused naming the game and variant as the lobby lists them."""

from __future__ import annotations

import pytest

from domain.catalog import GAMES
from domain.kernel import ConfigError, Ruleset


@pytest.mark.parametrize("ruleset", GAMES, ids=lambda r: r.slug)
def test_too_many_players_names_the_variant_by_its_title(ruleset: Ruleset) -> None:
    variant = ruleset.variants[0]
    with pytest.raises(ConfigError) as refused:
        ruleset.configure(variant.name, None, variant.max_seats + 1)
    said = str(refused.value)
    assert ruleset.title in said and f"not {variant.max_seats + 1}" in said
    assert variant.title in said and f"({variant.name})" not in said
