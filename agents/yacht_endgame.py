"""Exact two-player Yacht endgames against an expectation-optimal opponent.

The opponent (``yacht-solver``) plays its own sheet whatever we do, so its turn from open
set ``o`` ends with category ``c`` scored for ``s`` points with a fixed probability
``q[o, c, s]`` (:func:`turn_outcomes`), and the chance of winning from the start of our turn
depends only on our open set ``a``, the opponent's ``o`` and our lead ``x`` (our total minus
its total).  With a tie counting half a win::

    M(a, o, x) = one turn solved exactly, ending in category c with s points, of value
                 sum over (c', s') of q[o, c', s'] * M(a - c, o - c', x + s - s')
    M(a, {}, x) = P(R_a > -x) + 1/2 P(R_a = -x)   (the opponent has finished: a threshold)
    M({}, o, x) = P(R_o < x) + 1/2 P(R_o = x)     (we have finished)

with ``R`` a remaining score (the threshold policy's for us, :func:`solve_threshold`; the
expectation-optimal policy's for the opponent, :func:`solve_distribution`).  :func:`lead_values`
gives ``M(a, o, .)`` over every lead in -320..320 and caches it.  This is exact for any
sizes, but the number of (a, o) pairs grows fast, so ``yacht-win`` uses it for the last
three rounds only (our open set of at most three categories); :func:`after_turn` gives the
values of the end of our current turn from the tables of the next round.
"""

from __future__ import annotations

import functools

import numpy as np
from numba import njit

from .yacht_dp import NUM_MASKS
from .yacht_threshold import MAX_REMAINING, SIZE, solve_distribution, solve_threshold, solver_policy_table
from .yacht_turn import (ADD_DIE, FRESH_ROLL, KEEP_ORDER, MULTISET_OF_KEEP, NUM_KEEPS, NUM_MULTISETS, SCORES,
                         best_keeps, keep_values)

LEAD = 320
"""Leads -LEAD..LEAD are tabled (any real lead, plus one turn's score, stays inside)."""
NUM_LEADS = 2 * LEAD + 1
MAX_SCORE = int(SCORES.max())
NUM_CATEGORIES = SCORES.shape[1]


# ------------------------------------------------------------- the opponent's turn
@njit(cache=True)
def _turn_outcomes(policy, q):  # pragma: no cover - compiled
    """``q[m, c, s]`` from the policy codes (a keep index, or NUM_KEEPS + c to score c)."""
    dice = np.empty(NUM_MULTISETS)
    kept = np.empty(NUM_KEEPS)
    for m in range(1, policy.shape[0]):
        for d in range(NUM_MULTISETS):
            dice[d] = FRESH_ROLL[d]
        for r in (2, 1, 0):
            kept[:] = 0.0
            for d in range(NUM_MULTISETS):
                code = policy[m, r, d]
                if code >= NUM_KEEPS:
                    c = code - NUM_KEEPS
                    q[m, c, SCORES[d, c]] += dice[d]
                else:
                    kept[code] += dice[d]
            if r == 0:
                break
            # Roll the missing dice one at a time: each keep passes its chance to the six
            # keeps one die larger.
            for i in range(NUM_KEEPS):
                k = KEEP_ORDER[i]
                if MULTISET_OF_KEEP[k] < 0:
                    for f in range(6):
                        kept[ADD_DIE[k, f]] += kept[k] / 6.0
            for d in range(NUM_MULTISETS):
                dice[d] = 0.0
            for k in range(NUM_KEEPS):
                if MULTISET_OF_KEEP[k] >= 0:
                    dice[MULTISET_OF_KEEP[k]] = kept[k]


@functools.lru_cache(maxsize=1)
def turn_outcomes() -> np.ndarray:
    """(4096, 12, 51): ``q[o, c, s]``, the chance that the expectation-optimal bot, starting a
    turn with open set ``o``, ends it by scoring ``s`` points in category ``c``."""
    policy = solver_policy_table()
    q = np.zeros((NUM_MASKS, NUM_CATEGORIES, MAX_SCORE + 1))
    _turn_outcomes(policy, q)
    return q


# ------------------------------------------------------------------ the tables
_LEADS = np.arange(-LEAD, LEAD + 1)


def _u(x: np.ndarray) -> np.ndarray:
    return (x > 0) + 0.5 * (x == 0)


def _check_sets(a, o) -> None:
    for name, v in (("our open set", a), ("the opponent's open set", o)):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or not 0 <= v < NUM_MASKS:
            raise ValueError(f"{name} must be an integer mask in 0..{NUM_MASKS - 1}, got {v!r}")


@functools.lru_cache(maxsize=None)
def lead_values(a: int, o: int) -> np.ndarray:
    """(641,) ``M(a, o, x)`` for leads ``x`` = -320..320 at the start of our turn (see the module
    docstring); ``a`` is our open set, ``o`` the opponent's (who moves after us), both 12-bit
    masks (``ValueError`` otherwise)."""
    _check_sets(a, o)
    a, o = int(a), int(o)
    if a == 0:
        pmf = solve_distribution()[o]
        r = np.arange(SIZE)
        return (pmf[None, :] * _u(_LEADS[:, None] - r[None, :])).sum(axis=1)
    if o == 0:
        v = solve_threshold()[a]
        need = -_LEADS  # points to find for a tie
        at = lambda n: v[np.clip(n, 0, SIZE - 1)]  # noqa: E731
        return 0.5 * (at(need) + at(need + 1))
    after = after_turn(a, o)
    out = np.empty(NUM_LEADS)
    lo = max(-LEAD, -int(MAX_REMAINING[a]) - 1)
    hi = min(LEAD, int(MAX_REMAINING[o]) + 1)
    _solve_leads(after, a, lo + LEAD, hi + LEAD, out)
    return out


def after_turn(a: int, o: int) -> np.ndarray:
    """(12, 641): ``P[c, y]``, the chance of winning once our turn ends with category ``c``
    scored and our lead at ``y`` (the opponent to move with open set ``o``); rows of closed
    categories are -inf."""
    _check_sets(a, o)
    a, o = int(a), int(o)
    q = turn_outcomes()[o]
    out = np.full((NUM_CATEGORIES, NUM_LEADS), -np.inf)
    for c in range(NUM_CATEGORIES):
        if not a >> c & 1:
            continue
        acc = np.zeros(NUM_LEADS)
        for c2 in range(NUM_CATEGORIES):
            if not o >> c2 & 1:
                continue
            # Lead y before the opponent's s points is y - s after them; below -LEAD the game
            # is lost whatever happens (value 0), so the sum over s is a plain convolution.
            acc += np.convolve(lead_values(a & ~(1 << c), o & ~(1 << c2)), q[c2])[:NUM_LEADS]
        out[c] = acc
    return out


@njit(cache=True)
def _solve_leads(after, a, lo, hi, out):  # pragma: no cover - compiled
    """``out[j]`` for lead index ``j`` in lo..hi: our turn solved with end values ``after``;
    0 below (a loss whatever happens), 1 above (a win)."""
    v0, v1, v2 = np.empty(NUM_MULTISETS), np.empty(NUM_MULTISETS), np.empty(NUM_MULTISETS)
    kv, best = np.empty(NUM_KEEPS), np.empty(NUM_KEEPS + 1)
    last = after.shape[1] - 1
    for j in range(out.shape[0]):
        if j < lo:
            out[j] = 0.0
        elif j > hi:
            out[j] = 1.0
        else:
            for d in range(NUM_MULTISETS):
                top = -np.inf
                for c in range(NUM_CATEGORIES):
                    if (a >> c) & 1:
                        y = j + SCORES[d, c]
                        v = after[c, y if y < last else last]
                        if v > top:
                            top = v
                v0[d] = top
            keep_values(v0, kv)
            best_keeps(kv, v0, best, v1)
            keep_values(v1, kv)
            best_keeps(kv, v0, best, v2)
            total = 0.0
            for d in range(NUM_MULTISETS):
                total += FRESH_ROLL[d] * v2[d]
            out[j] = total


def exact_leaf(a: np.ndarray, o: np.ndarray, lead: np.ndarray) -> np.ndarray:
    """(B, 252, 12): the exact chance of winning after scoring each category with each dice, for
    our open sets ``a``, the opponent's ``o`` (it moves next) and our leads ``lead`` (B,) each;
    -inf for closed categories.  Fills the tables of the next round as needed."""
    B = a.shape[0]
    leaf = np.empty((B, NUM_MULTISETS, NUM_CATEGORIES))
    for b in range(B):
        after = after_turn(int(a[b]), int(o[b]))
        y = np.clip(int(lead[b]) + SCORES + LEAD, 0, NUM_LEADS - 1)  # (252, 12)
        leaf[b] = after[np.arange(NUM_CATEGORIES)[None, :], y]
    return leaf
