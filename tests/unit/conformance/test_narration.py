"""Every game speaks its own words: each event, move, result and option has them, and they are clean.

For every registered game (Dice Race included), the narrator's tables cover every event and command
type the game's codecs declare, so a new event without a sentence fails here. Random games, told to
every viewer (each seat, a spectator, everyone after the end), check each sentence and phrase: no id,
JSON, Python literal, raw float, seat number, wire name or hidden marker (``tests.support.page_text``).
And a sentence never tells a viewer a secret: an event whose secret fields are swapped for other
values of the game is told to a viewer who may not see them in exactly the same words.
"""

from __future__ import annotations

import random
import re
from dataclasses import fields, replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.kernel import Codec, Rng, RuleError, Viewer, all_games
from domain.kernel.narration import Audience, Names
from tests.support.page_text import narration_faults
from tests.support.runs import count
from tests.support.toygame import DICE_RACE

GAMES = [DICE_RACE, *all_games()]
CASES = [pytest.param(g, v.name, id=f"{g.slug}-{v.name}") for g in GAMES for v in g.variants]
DECISIONS = 150
"""Decisions of each random game: enough to meet most event types, few enough to stay quick."""
PLAYERS = [
    {"seat": 0, "name": "ann"},
    {"seat": 1, "name": "greedy bot", "bot": "greedy"},
    {"seat": 2, "name": "greedy bot", "bot": "greedy"},
    {"seat": 3, "name": "Bruno"},
    {"seat": 4, "name": "cai"},
    {"seat": 5, "name": "dee"},
]


@pytest.mark.parametrize("ruleset", GAMES, ids=[g.slug for g in GAMES])
def test_every_event_and_move_type_has_its_words(ruleset: Any) -> None:
    narrator = ruleset.narrator
    assert not set(ruleset.events.types) - set(narrator.events), "events told in no words of the game"
    assert not set(ruleset.commands.types) - set(narrator.moves), "moves told in no words of the game"
    assert set(narrator.events) <= set(ruleset.events.types), "words for events the game does not have"
    assert set(narrator.moves) <= set(ruleset.commands.types), "words for moves the game does not have"


@pytest.mark.parametrize("ruleset", GAMES, ids=[g.slug for g in GAMES])
def test_every_option_of_every_variant_is_described_for_a_form(ruleset: Any) -> None:
    for variant in ruleset.variants:
        described = variant.options_schema()
        assert [d["name"] for d in described] == [f.name for f in fields(variant.options)]
        for d in described:
            assert d["label"] and d["doc"], f"{variant.name}.{d['name']} has no label or help"
            assert not narration_faults(d["label"] + ". " + d["doc"])
            if "choices" in d:
                assert all(c["label"] for c in d["choices"])
                assert not [c for c in d["choices"] if narration_faults(c["label"])]
                assert d["default"] in [c["value"] for c in d["choices"]]
            ruleset.configure(variant.name, {d["name"]: d["default"]}, variant.min_seats)


def test_names_tell_bots_of_one_kind_apart_and_call_the_viewer_you() -> None:
    names = Names.of(PLAYERS[:4], ("red", "blue", "green", "yellow"), yours=[0])
    assert [names(s) for s in range(4)] == ["You", "Greedy bot (1)", "Greedy bot (2)", "Bruno"]
    assert [names.full(s) for s in range(4)] == ["You (red)", "Greedy bot (1) (blue)", "Greedy bot (2) (green)",
                                                 "Bruno (yellow)"]  # fmt: skip
    assert names.possessive(0, start=True) == "Your" and names.possessive(3) == "Bruno's"
    assert Names.of(PLAYERS[:2], (), yours=[0, 1])(1) == "You (orange)", "the platform's colours by default"


@pytest.mark.parametrize(("ruleset", "variant"), CASES)
@settings(max_examples=count(1, 3), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**16))
def test_every_sentence_is_clean_and_tells_no_viewer_a_secret(ruleset: Any, variant: str, seed: int) -> None:
    rng = random.Random(seed)
    v = ruleset.variant(variant)
    seats = rng.randint(v.min_seats, v.max_seats)
    config = ruleset.configure(variant, None, seats)
    colours = ruleset.seat_colours(config)
    state, events = ruleset.new_game(config, Rng(seed.to_bytes(4, "big"), "narration"))
    told: list[tuple[Any, int | None]] = [(e, None) for e in events]
    moves: list[tuple[Any, int]] = []
    for _ in range(DECISIONS):
        awaited = ruleset.awaiting(state)
        if not awaited:
            break
        seat = rng.choice(awaited)
        move = rng.choice(list(ruleset.legal_moves(state, seat)))
        moves.append((move, seat))
        made = ruleset.decide(state, seat, move, Rng(seed.to_bytes(4, "big"), f"d{len(moves)}"))
        told += [(e, seat) for e in made]
        state = ruleset.fold(state, made)
    viewers = [Viewer.spectator(), Viewer.everyone(), *(Viewer.of(s) for s in range(seats))]
    others = _values_by_field(e for e, _ in told)
    for viewer in viewers:
        audience = Audience(Names.of(PLAYERS[:seats], colours, [] if viewer.seat is None else [viewer.seat]), variant)
        for event, _ in told:
            _check_event(ruleset, event, viewer, audience, others)
        for move, seat in moves:
            shown = {"type": move.TYPE, **move.visible_data(seat, viewer)}
            _check(ruleset.narrator.move(shown, audience, seat), move, starts=False)
        outcome = ruleset.outcome(state)
        if outcome is not None:
            _check(ruleset.narrator.outcome(outcome.to_json(), audience), outcome)


def _check_event(ruleset: Any, event: Any, viewer: Viewer, audience: Audience, others: dict[Any, list[Any]]) -> None:
    narrator = ruleset.narrator
    said = narrator.event(event.TYPE, event.visible_data(viewer), audience)
    _check(said, event)
    heading = narrator.turn(event.TYPE, event.visible_data(viewer), audience)
    if heading is not None:
        _check(heading, event)
    secret = [f.name for f in fields(event) if f.name in type(event).SECRET]
    if not secret or viewer.omniscient:
        return
    for name in secret:
        for other in others.get((event.TYPE, name), []):
            mine = getattr(event, name)
            if other == mine or (isinstance(mine, tuple) and len(other) != len(mine)):
                continue  # the same secret, or one of another size (redaction shows sizes: they are public)
            twin = replace(event, **{name: other})
            if twin.visible_data(viewer) == twin.data():
                continue  # the viewer owns it: the twin's secret is theirs to read
            assert narrator.event(twin.TYPE, twin.visible_data(viewer), audience) == said, (
                f"{event.TYPE} tells {viewer} its secret {name}"
            )
            break


def _values_by_field(events: Any) -> dict[Any, list[Any]]:
    """Every value each secret field of each event type took in the game: the twins' other secrets."""
    out: dict[Any, list[Any]] = {}
    for e in events:
        for name in type(e).SECRET:
            out.setdefault((e.TYPE, name), []).append(getattr(e, name))
    return out


def _check(text: str, record: Any, starts: bool = True) -> None:
    faults = narration_faults(text)
    if starts and re.match(r"(the|a|an|one|two) ", text):
        faults.append(f"a sentence that starts in lower case: {text!r}")
    assert not faults, f"{type(record).__name__} {Codec.dump(record) if hasattr(record, 'TYPE') else record}: {faults}"


@pytest.mark.parametrize("ruleset", GAMES, ids=[g.slug for g in GAMES])
def test_every_rule_a_page_cites_reads_as_words(ruleset: Any) -> None:
    """Replays, audits and refusals show each rule's one line of English to people."""
    for rule in ruleset.rules:
        assert not narration_faults(rule.text.replace("seat order", "turn order")), rule.id


@pytest.mark.parametrize("ruleset", GAMES, ids=[g.slug for g in GAMES])
def test_a_refusal_is_told_as_what_could_not_be_played_and_why(ruleset: Any) -> None:
    variant = ruleset.variants[0]
    config = ruleset.configure(variant.name, None, variant.min_seats)
    state, _ = ruleset.new_game(config, Rng(b"refusals", "setup"))
    rng = random.Random(5)
    for n in range(DECISIONS):  # on to a position where a seat waits (past a simultaneous phase)
        awaited = ruleset.awaiting(state)
        idle = next((s for s in range(variant.min_seats) if s not in awaited), None)
        if idle is not None:
            break
        seat = rng.choice(awaited)
        move = rng.choice(list(ruleset.legal_moves(state, seat)))
        state = ruleset.fold(state, ruleset.decide(state, seat, move, Rng(b"refusals", f"{n}")))
    assert idle is not None
    move = ruleset.legal_moves(state, awaited[0])[0]
    with pytest.raises(RuleError) as refused:
        ruleset.decide(state, idle, move, Rng(b"refusals", "decide"))
    audience = Audience(Names.of(PLAYERS[: variant.min_seats], ruleset.seat_colours(config), [idle]), variant.name)
    said = ruleset.narrator.refusal(Codec.dump(move), refused.value.code, refused.value.rule.text, audience, idle)
    assert said.startswith("You cannot ") and "it is not your turn" in said
    assert not narration_faults(said), said


CHOICE_DECISIONS = 30
"""Decisions of each random game whose choices are read (every third's, for each awaited seat)."""
CHOICE_MOVES = 300
"""Legal moves of a seat whose choices are read at such a decision, drawn at random (a Mékong
programme has thousands)."""


@pytest.mark.parametrize(("ruleset", "variant"), CASES)
@settings(max_examples=count(1, 2), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**16))
def test_every_choice_of_the_move_controls_reads_in_words_and_names_its_move(
    ruleset: Any, variant: str, seed: int
) -> None:
    """The move controls ask a seat's legal moves of one type as the game's choices
    (``Narrator.choices``): every question and answer is clean words; every move of a type has as
    many choices; two moves with the same answers read alike in their whole phrase too, so that the
    selects can name every move a person could tell apart."""
    rng = random.Random(seed)
    v = ruleset.variant(variant)
    seats = rng.randint(v.min_seats, v.max_seats)
    config = ruleset.configure(variant, None, seats)
    state, _ = ruleset.new_game(config, Rng(seed.to_bytes(4, "big"), "choices"))
    narrator = ruleset.narrator
    for n in range(CHOICE_DECISIONS):
        awaited = ruleset.awaiting(state)
        if not awaited:
            break
        for seat in awaited if n % 3 == 0 else ():
            audience = Audience(Names.of(PLAYERS[:seats], ruleset.seat_colours(config), [seat]), variant)
            every = list(ruleset.legal_moves(state, seat))
            listed = [Codec.dump(m) for m in rng.sample(every, min(len(every), CHOICE_MOVES))]
            lengths: dict[str, set[int]] = {}
            named: dict[tuple[str, ...], str] = {}
            for move in listed:
                asked = narrator.choices(move, audience, seat)
                assert not [f for q, a in asked for f in narration_faults(q) + narration_faults(a)], (move, asked)
                assert not [a for _, a in asked if re.fullmatch(r"-?\d+(\.\d+)?|none", a)], (move, asked)
                lengths.setdefault(move["type"], set()).add(len(asked))
                if asked:
                    said = narrator.move(move, audience, seat)
                    key = (move["type"], *(a for _, a in asked))
                    assert named.setdefault(key, said) == said, f"{said!r} and {named[key]!r} answer alike: {asked}"
            assert all(len(counts) == 1 for counts in lengths.values()), lengths
        seat = rng.choice(awaited)
        move = rng.choice(list(ruleset.legal_moves(state, seat)))
        state = ruleset.fold(state, ruleset.decide(state, seat, move, Rng(seed.to_bytes(4, "big"), f"d{n}")))


REAL_GAMES = [g for g in GAMES if g is not DICE_RACE]
"""The games people play on the pages (Dice Race is the tests' own toy)."""


@pytest.mark.parametrize("ruleset", REAL_GAMES, ids=[g.slug for g in REAL_GAMES])
def test_every_move_type_has_its_heading_and_with_fields_its_choices(ruleset: Any) -> None:
    """A move type with fields may have more legal moves than buttons: the game words its choices;
    and every type has a heading in words over its moves."""
    schema = ruleset.move_schema().get("$defs", {})
    with_fields = {t for t in ruleset.commands.types if set(schema.get(t, {}).get("properties", {})) - {"type"}}
    assert with_fields <= set(ruleset.narrator.choices_of), with_fields - set(ruleset.narrator.choices_of)
    kinds = ruleset.narrator.kinds
    assert set(ruleset.commands.types) <= set(kinds), "move types with no heading over their moves"
    assert not [k for k in kinds.values() if narration_faults(k) or not k[0].isupper()], kinds
