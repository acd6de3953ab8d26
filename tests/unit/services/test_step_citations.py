"""A step cites the rule each of its events applies, which may depend on the event (why a race or
a rolling ended), and the steps of the read side cite what the event itself says."""

from __future__ import annotations

from typing import Any

import pytest

from domain.drachenreiter import RULESET as DRACHENREITER
from domain.drachenreiter import rulebook as dr
from domain.drachenreiter.events import RaceFinished
from domain.kernel import Event, RuleRef, Ruleset
from domain.tarasque import RULESET as TARASQUE
from domain.tarasque import rulebook as tr
from domain.tarasque.events import RollingEnded
from services.reads.steps import steps


def _cited(ruleset: Ruleset[Any], event: Event) -> list[dict[str, Any]]:
    """The rules the read side's steps cite for ``event``, stored after a move."""
    move = {"type": "MoveMade", "version": 1, "at": "2026-12-01T00:00:00+00:00", "source": "platform",
            "data": {"seat": 0, "move": {"type": "roll"}}}  # fmt: skip
    stored = {"type": type(event).__name__, "version": 2, "at": move["at"], "source": "rules", "data": event.data()}
    (step,) = steps([move, stored], ruleset)
    return list(step["rules"])


@pytest.mark.parametrize(
    ("event", "rule"),
    [
        (RaceFinished("finish line crossed"), dr.END),
        (RaceFinished("last dragon flying"), dr.LAST_DRAGON),
        (RaceFinished("round limit"), dr.ROUND_LIMIT_RULE),
    ],
)
def test_a_race_ended_cites_the_rule_that_ended_it(event: Event, rule: RuleRef) -> None:
    """Rulebook (Fin de la partie): only a dragon across the line at a round's end ends the race by
    the book; a race down to one dragon, or past the round limit, ends by the server's own rules."""
    assert event.rule() == rule
    assert _cited(DRACHENREITER, event) == [rule.to_json()]


@pytest.mark.parametrize(
    ("event", "rule"),
    [(RollingEnded(0, "no valid die"), tr.NO_VALID_DIE), (RollingEnded(0, "no dice left"), tr.SET_ASIDE)],
)
def test_a_rolling_ended_cites_why_it_ended(event: Event, rule: RuleRef) -> None:
    """Rulebook: a roll without a valid die ends the rolling ("il n'a plus le droit de relancer"); six
    dice set aside leave none to roll ("Une fois qu'un dé est sélectionné, on ne peut pas le relancer")."""
    assert event.rule() == rule
    assert _cited(TARASQUE, event) == [rule.to_json()]
