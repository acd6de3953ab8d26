"""Ratings as people read them: a familiar number near 1500 for a newcomer, never negative.

The projection keeps OpenSkill's mu and sigma (``projections.ratings``: Plackett-Luce with its
defaults, mu 25, sigma 25/3, beta 25/6); leaderboards may sort by the conservative mu - 3 sigma.
Neither reads well: a newcomer's conservative rating is 0 and falls below it after one loss,
and mu's units mean nothing to a player. The pages show instead

    rating = 1500 + PER_MU * (mu - 25),   uncertainty = PER_MU * sigma,

with ``PER_MU`` chosen so a gap on this scale means what it means in Elo between two settled
players: in Plackett-Luce, the better of two players with small sigma finishes first with
probability logistic((mu1 - mu2) / (sqrt(2) * beta)); in Elo, logistic(d * ln 10 / 400). So
``PER_MU = 400 / (ln 10 * sqrt(2) * beta)``, about 29.5 points per unit of mu: 400 points
apart, the stronger of two wins ten games in eleven. A newcomer shows 1500 ± 246; after one
loss to another newcomer about 1440. It would take a mu below -26 (hundreds of straight losses
to strong players) to reach 0, and the scale stops there.
"""

from __future__ import annotations

import math

BASE = 1500
"""A newcomer's rating on this scale (mu = ``MU``)."""
MU = 25.0
"""OpenSkill's starting mu (Plackett-Luce's default)."""
BETA = 25.0 / 6.0
"""OpenSkill's performance spread (Plackett-Luce's default)."""
PER_MU = 400.0 / (math.log(10.0) * math.sqrt(2.0) * BETA)
"""Points of this scale per unit of mu (about 29.48)."""


def rating(mu: float) -> int:
    """The rating a person reads for ``mu``: a whole number, 0 at the least."""
    return max(0, round(BASE + PER_MU * (mu - MU)))


def uncertainty(sigma: float) -> int:
    """How far the rating may be off (one standard deviation), on the same scale."""
    return round(PER_MU * sigma)
