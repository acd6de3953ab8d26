"""The rating people read: 1500 for a newcomer, on Elo's scale, never negative."""

from __future__ import annotations

import math

from hypothesis import given
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from services.reads import rating_scale


def test_a_newcomer_reads_1500() -> None:
    model = PlackettLuce()
    assert rating_scale.rating(model.mu) == 1500
    assert rating_scale.uncertainty(model.sigma) == 246


def test_a_newcomer_after_one_loss_reads_below_1500_and_far_above_zero() -> None:
    model = PlackettLuce()
    [[winner], [loser]] = model.rate([[model.rating()], [model.rating()]], ranks=[1, 2])
    assert 1400 < rating_scale.rating(loser.mu) < 1500 < rating_scale.rating(winner.mu)


def test_400_points_mean_ten_to_one_between_settled_players() -> None:
    """Plackett-Luce's chance that the first of two places first, sigma small, is logistic(d / (sqrt 2 beta))."""
    gap_in_mu = 400 / rating_scale.PER_MU
    chance = 1 / (1 + math.exp(-gap_in_mu / (math.sqrt(2) * rating_scale.BETA)))
    assert math.isclose(chance, 10 / 11, rel_tol=1e-9)


@given(st.floats(-1e6, 1e6))
def test_the_rating_is_never_negative(mu: float) -> None:
    assert rating_scale.rating(mu) >= 0
