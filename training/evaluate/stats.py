"""The statistics of the evaluations: 95 % confidence intervals and Elo ratings."""

from __future__ import annotations

import numpy as np


Z95 = 1.959964
"""The normal quantile of a two-sided 95 % interval."""


def pair_mean_ci(x: np.ndarray, pair: np.ndarray, pairs: int) -> tuple[float, float]:
    """The mean of ``x`` (one value per game) and the half-width of its 95 % CI.

    ``pair[i]`` is game ``i``'s deal pair (``0..pairs - 1``); the pairs are independent, so the
    interval comes from the spread of the pairs' totals (0 with a single pair).
    """
    totals = np.bincount(pair, weights=x, minlength=pairs)
    sd = totals.std(ddof=1) if pairs > 1 else 0.0
    return float(x.sum() / x.size), float(Z95 * sd * np.sqrt(pairs) / x.size)


def bradley_terry_elo(wins: np.ndarray, iterations: int = 2000, anchor: float = 1500.0) -> np.ndarray:
    """Elo ratings from a pairwise win matrix by the Bradley–Terry MM algorithm.

    ``wins[i, j]`` counts i's wins over j (ties as halves).  A small prior (half a win
    each way against a virtual average player) keeps undefeated bots finite.  Ratings
    are on the Elo scale (400 log10 strength) with mean ``anchor``.
    """
    wins = np.asarray(wins, dtype=np.float64)
    n = wins.shape[0]
    games = wins + wins.T
    p = np.ones(n)
    for _ in range(iterations):
        denom = (games / (p[:, None] + p[None, :])).sum(axis=1) + 1.0 / (p + 1.0)
        new = (wins.sum(axis=1) + 0.5) / denom
        new /= np.exp(np.log(new).mean())
        if np.allclose(new, p, rtol=1e-10):
            p = new
            break
        p = new
    elo = 400 * np.log10(p)
    return elo - elo.mean() + anchor
