"""The statistics of a benchmark result: means with 95 % CIs over independent units, and Elo on a ladder."""

from __future__ import annotations

import math

import numpy as np

Z95 = 1.959964
ELO_SCALE = 400 / math.log(10)


def mean_ci(totals, counts) -> tuple[float, float]:
    """Mean per game and the half-width of its 95 % CI, from independent units (games or deal pairs).

    ``totals[u]`` is the sum over unit ``u``'s ``counts[u]`` games; the mean is a ratio, its
    standard error the delta method's (for equal counts, the usual s.e. of the unit means).
    """
    t, n = np.asarray(totals, np.float64), np.asarray(counts, np.float64)
    units, total_games = t.size, n.sum()
    if units == 0 or total_games == 0:
        return float("nan"), float("nan")
    mean = t.sum() / total_games
    if units < 2:
        return float(mean), float("nan")
    resid = t - mean * n
    se = math.sqrt((resid ** 2).sum() * units / (units - 1)) / total_games
    return float(mean), float(Z95 * se)


def elo_on_ladder(scores, ratings, anchor: float = 1500.0) -> float:
    """The Elo rating that explains ``scores`` against rungs of fixed ``ratings``.

    ``scores`` is a list of ``(points, games)`` per rung: points won (a draw counts one
    half) out of games.  The maximum-likelihood rating under the Elo model, with the prior
    of :func:`training.evaluate.bradley_terry_elo` (half a win and half a loss against a
    virtual player rated ``anchor``), so that a policy that wins or loses everything stays
    finite.
    """
    pts = [(float(s), float(n), float(r)) for (s, n), r in zip(scores, ratings)] + [(0.5, 1.0, anchor)]

    def excess(rating):  # expected minus actual points: increasing in rating
        return sum(n / (1 + math.exp((r - rating) / ELO_SCALE)) - s for s, n, r in pts)

    low, high = anchor - 4000.0, anchor + 4000.0
    for _ in range(200):
        mid = (low + high) / 2
        if excess(mid) > 0:
            high = mid
        else:
            low = mid
    return (low + high) / 2


def normal_p(z: float) -> float:
    """Two-sided p-value of a standard normal statistic."""
    return math.erfc(abs(z) / math.sqrt(2))
