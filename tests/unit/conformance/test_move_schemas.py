"""Every game's move schema (``Ruleset.move_schema``) tells the truth about ``parse_move``.

For every registered game, variant and seat count, seeded random games list the legal moves of
a few hundred positions; a sample of them, in their wire form, must validate against the game's
schema. Moves the codec refuses (an unknown type, a missing field, an extra field, a value of
the wrong type) must be refused by the schema too.
"""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from domain.kernel import Codec, MalformedMove, Rng, all_games
from tests.support.runs import count
from tests.support.toygame import DICE_RACE

GAMES = [DICE_RACE, *all_games()]
CASES = [
    pytest.param(g, v.name, n, id=f"{g.slug}-{v.name}-{n}p")
    for g in GAMES
    for v in g.variants
    for n in sorted({v.min_seats, v.max_seats})
]
POSITIONS = count(30, 80)
"""Positions visited per case (whole games one after the other, from fixed seeds): 30 in ``make
test``, 80 with ``--thorough`` (a few hundred per game over its variants and seat counts)."""
MALFORMED_POSITIONS = 12
"""Positions whose first legal moves are spoilt into malformed ones."""
SAMPLE = 8
"""Legal moves checked per position: listings run to thousands of moves."""


def _validator(ruleset: Any) -> Draft202012Validator:
    schema = ruleset.move_schema()
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def _positions(ruleset: Any, variant: str, seats: int, count: int = POSITIONS) -> Any:
    """The legal moves of an awaited seat at ``count`` positions of seeded random games."""
    seen, seed = 0, 0
    while True:
        rng = random.Random(seed)
        config = ruleset.configure(variant, None, seats)
        state, _ = ruleset.new_game(config, Rng(b"schema-%d" % seed, "setup"))
        for decision in range(ruleset.max_decisions):
            if ruleset.is_over(state) or seen >= count:
                break
            seat = rng.choice(ruleset.awaiting(state))
            moves = ruleset.legal_moves(state, seat)  # a lazy sequence: indexed, never listed whole
            yield moves
            seen += 1
            state = ruleset.fold(state, ruleset.decide(state, seat, rng.choice(moves), Rng(b"s", f"v{decision}")))
        if seen >= count:
            return
        seed += 1


@pytest.mark.parametrize(("ruleset", "variant", "seats"), CASES)
def test_every_sampled_legal_move_validates_against_its_games_schema(ruleset: Any, variant: str, seats: int) -> None:
    validator = _validator(ruleset)
    pick = random.Random(f"{ruleset.slug}-{variant}-{seats}")
    types_seen: set[str] = set()
    for moves in _positions(ruleset, variant, seats):
        for i in pick.sample(range(len(moves)), min(SAMPLE, len(moves))):
            move = moves[i]
            wire = json.loads(json.dumps(Codec.dump(move)))
            errors = [e.message for e in validator.iter_errors(wire)]
            assert not errors, f"{wire} is legal but refused by the schema: {errors}"
            types_seen.add(wire["type"])
    assert types_seen, "no legal move was checked"


def _malformed(ruleset: Any, legal: dict[str, Any]) -> list[tuple[str, Any]]:
    """Moves the codec refuses, made from a legal one."""
    out: list[tuple[str, Any]] = [
        ("unknown type", {**legal, "type": "no_such_move"}),
        ("no type", {k: v for k, v in legal.items() if k != "type"}),
        ("extra field", {**legal, "surplus": 1}),
        ("not an object", [legal]),
    ]
    cls = ruleset.commands.by_type[legal["type"]]
    required = {f.name for f in dataclasses.fields(cls) if f.default is f.default_factory}
    for name, value in legal.items():
        if name == "type":
            continue
        if name in required:
            out.append((f"missing {name}", {k: v for k, v in legal.items() if k != name}))
        out.append((f"{name} of the wrong type", {**legal, name: {"wrong": value}}))
    return out


@pytest.mark.parametrize("ruleset", GAMES, ids=lambda g: g.slug)
def test_moves_the_codec_refuses_the_schema_refuses(ruleset: Any) -> None:
    validator = _validator(ruleset)
    variant = ruleset.variants[0]
    checked = 0
    for moves in _positions(ruleset, variant.name, variant.min_seats, MALFORMED_POSITIONS):
        for move in (moves[i] for i in range(min(3, len(moves)))):
            legal = json.loads(json.dumps(Codec.dump(move)))
            for what, bad in _malformed(ruleset, legal):
                with pytest.raises(MalformedMove):
                    ruleset.parse_move(bad)
                assert not validator.is_valid(bad), f"{what}: the schema takes {bad}"
                checked += 1
    assert checked > 50
