"""Exact Yacht solvers beyond the mean: threshold probabilities and score distributions.

Two tables over the 4096 sheets (open-category masks; Yacht has no bonus, so nothing else
about a sheet matters) and one more dimension, every score from 0 to 304:

* :func:`solve_threshold`: ``values[m, n]``, the largest probability of scoring at least
  ``n`` more points from the start of a turn with open set ``m`` (each ``n`` with its own
  optimal policy).  ``n >= 304`` is never reachable (the largest total is 303).
* :func:`solve_distribution`: ``pmf[m, s]``, the probability that the expectation-optimal
  policy (:mod:`agents.yacht_solver`, with the same tie-breaking) scores exactly ``s`` more
  points from the start of a turn with open set ``m``.

Both are built over the sheets in order of their open categories, like
:mod:`agents.yacht_dp`, with the score dimension carried along: for every sheet and score
up to what its open categories can still make, one turn is solved with the steps of
:mod:`agents.yacht_turn` (about 6 x 10^5 turns per table, compiled).  Each table is
4096 x 305 float64 (10 MB) and takes a few seconds of CPU (``madang solve yacht --target``
prints the times); both are built on first use and cached in the process.

:class:`YachtThresholdBot` (``yacht-solver-threshold``) plays the threshold policy for a
target total: every decision maximises ``P(final total >= target)``, solving the current
turn from the table.
"""

from __future__ import annotations

import functools

import numpy as np
from numba import njit

from envs.yacht.dice import KEEP_OF
from envs.yacht.observation import OBS_SIZE, SEAT_TOTAL, decode_own
from envs.yacht.rules import NUM_ACTIONS, SCORE_START
from envs.yacht.scoring import MAX_TOTAL, MULTISET_INDEX, NUM_CATEGORIES, dice_code

from .base import BaseBot, as_batch
from .yacht_dp import NUM_MASKS, solve
from .yacht_turn import (BITS, FRESH_ROLL, NUM_KEEPS, NUM_MULTISETS, SCORES, best_keeps, keep_values,
                         turn_action_values)

SIZE = MAX_TOTAL + 2
"""Scores 0..304 (304: more than any sheet can score)."""

_POPCOUNT = np.array([bin(m).count("1") for m in range(NUM_MASKS)])
ORDER = np.argsort(_POPCOUNT, kind="stable").astype(np.int64)
"""Every open set after all of its subsets (by the number of open categories)."""
MAX_REMAINING = (((np.arange(NUM_MASKS)[:, None] & BITS) > 0) * SCORES.max(axis=0)).sum(axis=1)
"""(4096,): the most points the open categories of each set can still score."""


@njit(cache=True)
def _solve_threshold(values):  # pragma: no cover - compiled
    v0, v1, v2 = np.empty(NUM_MULTISETS), np.empty(NUM_MULTISETS), np.empty(NUM_MULTISETS)
    kv, best = np.empty(NUM_KEEPS), np.empty(NUM_KEEPS + 1)
    for i in range(ORDER.shape[0]):
        m = ORDER[i]
        values[m, 0] = 1.0
        for n in range(1, min(MAX_REMAINING[m], SIZE - 1) + 1):
            for d in range(NUM_MULTISETS):
                top = -np.inf
                for c in range(NUM_CATEGORIES):
                    if (m >> c) & 1:
                        y = n - SCORES[d, c]
                        v = values[m ^ (1 << c), y if y > 0 else 0]
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
            values[m, n] = total


@functools.lru_cache(maxsize=1)
def solve_threshold() -> np.ndarray:
    """(4096, 305) float64: ``values[m, n]`` = max over policies of P(at least ``n`` more points)
    from the start of a turn with open set ``m`` (cached; seconds)."""
    values = np.zeros((NUM_MASKS, SIZE))
    _solve_threshold(values)
    return values


# ------------------------------------------------------------------ distribution
def solver_policy(masks: np.ndarray) -> np.ndarray:
    """(M, 3, 252) int64: the expectation-optimal bot's choice for open set ``masks[i]``, ``r``
    rerolls left and dice ``d``: a keep index (0..461) to reroll to, or 462 + c to score ``c``.

    The same values and tie-breaking as :class:`agents.yacht_solver.YachtSolverBot`.
    """
    from .yacht_solver import solver_action_values

    t = solve()
    M = masks.size
    m = np.repeat(masks, NUM_MULTISETS)
    d = np.tile(np.arange(NUM_MULTISETS), M)
    out = np.empty((M, 3, NUM_MULTISETS), dtype=np.int64)
    for r in range(3):
        vals = solver_action_values(t, d, np.full(d.size, r), m)
        legal = np.zeros_like(vals, dtype=bool)
        legal[:, SCORE_START:] = (m[:, None] & BITS) > 0
        if r:
            legal[:, 1:SCORE_START] = True
        vals = np.where(legal, vals, -np.inf)
        vals = np.where(legal & np.isneginf(vals), -1e18, vals)
        action = vals.argmax(axis=1)
        code = np.where(action >= SCORE_START, NUM_KEEPS + action - SCORE_START, KEEP_OF[d, np.minimum(action, 31)])
        out[:, r] = code.reshape(M, NUM_MULTISETS)
    return out


@njit(cache=True, inline="always")
def _follow(pmf, m, s, codes, kv, out):  # pragma: no cover - compiled
    """``out[d]``: P(``s`` more points) with dice ``d`` when the policy's choice is ``codes[d]``:
    a keep (read ``kv``) or a category (a shifted ``pmf`` row)."""
    for d in range(NUM_MULTISETS):
        code = codes[d]
        if code < NUM_KEEPS:
            out[d] = kv[code]
        else:
            c = code - NUM_KEEPS
            y = s - SCORES[d, c]
            out[d] = pmf[m ^ (1 << c), y] if y >= 0 else 0.0


@njit(cache=True)
def _solve_distribution(pmf, policy):  # pragma: no cover - compiled
    d0, d1, d2 = np.empty(NUM_MULTISETS), np.empty(NUM_MULTISETS), np.empty(NUM_MULTISETS)
    kv = np.empty(NUM_KEEPS)
    pmf[0, 0] = 1.0
    for i in range(ORDER.shape[0]):
        m = ORDER[i]
        if m == 0:
            continue
        for s in range(min(MAX_REMAINING[m], SIZE - 1) + 1):
            _follow(pmf, m, s, policy[m, 0], kv, d0)
            keep_values(d0, kv)
            _follow(pmf, m, s, policy[m, 1], kv, d1)
            keep_values(d1, kv)
            _follow(pmf, m, s, policy[m, 2], kv, d2)
            total = 0.0
            for d in range(NUM_MULTISETS):
                total += FRESH_ROLL[d] * d2[d]
            pmf[m, s] = total


@functools.lru_cache(maxsize=1)
def solver_policy_table() -> np.ndarray:
    """(4096, 3, 252) int16: :func:`solver_policy` of every open set (cached)."""
    return np.concatenate([solver_policy(np.arange(a, a + 256)) for a in range(0, NUM_MASKS, 256)]).astype(np.int16)


@functools.lru_cache(maxsize=1)
def solve_distribution() -> np.ndarray:
    """(4096, 305) float64: ``pmf[m, s]`` = P(the expectation-optimal bot scores exactly ``s``
    more points) from the start of a turn with open set ``m`` (cached; seconds)."""
    policy = solver_policy_table()
    pmf = np.zeros((NUM_MASKS, SIZE))
    _solve_distribution(pmf, policy)
    return pmf


# ------------------------------------------------------------------------- bot
def own_total(obs: np.ndarray) -> np.ndarray:
    """(B,) the observing seat's sheet total, read from its observation."""
    return np.rint(obs[:, 52 + SEAT_TOTAL] * MAX_TOTAL).astype(np.int64)


def threshold_leaf(values: np.ndarray, m: np.ndarray, need: np.ndarray) -> np.ndarray:
    """(B, 252, 12) P(reaching ``need`` more points) after scoring each category with each dice,
    from open sets ``m`` (B,) and needs ``need`` (B,) (any integers); ``-inf`` where closed."""
    after = m[:, None] & ~BITS  # (B, 12)
    rest = np.clip(need[:, None, None] - SCORES[None], 0, SIZE - 1)  # (B, 252, 12)
    leaf = values[after[:, None, :], rest]
    return np.where(((m[:, None] & BITS) > 0)[:, None, :], leaf, -np.inf)


class YachtThresholdBot(BaseBot):
    """Maximises the probability of finishing with at least ``target`` points (default 200).

    Each decision solves the current turn exactly (:func:`agents.yacht_turn.turn_action_values`)
    with the end-of-turn values from :func:`solve_threshold` at the points still needed
    (``target`` minus the sheet total the observation shows).  When the target is already
    reached or out of reach every action is worth the same; it then plays the
    Among actions of the same probability (to 1e-12) it takes the one of the best expected
    score (:mod:`agents.yacht_solver`): when the target is reached or out of reach, it plays
    for points; remaining ties go to the lowest action id.  In multi-player games it plays its own sheet
    the same way.  The table is built on the first decision (tens of seconds).
    """

    name = "yacht-solver-threshold"
    game = "yacht"

    def __init__(self, target: int = 200):
        if isinstance(target, bool) or not isinstance(target, (int, np.integer)) or not 0 <= target <= MAX_TOTAL + 1:
            raise ValueError(f"target must be an integer total in 0..{MAX_TOTAL + 1}, got {target!r}")
        self.target = int(target)
        self._solver = None

    def action_values(self, observation) -> np.ndarray:
        """(B, 44) P(final total >= target) after every action (-inf where it makes no sense)."""
        dice, rolls_left, is_open = decode_own(observation)
        m = is_open.astype(np.int64) @ BITS
        need = self.target - own_total(observation)
        leaf = threshold_leaf(solve_threshold(), m, need)
        return turn_action_values(leaf, MULTISET_INDEX[dice_code(dice)], rolls_left)

    def probability(self, observation) -> np.ndarray:
        """(B,) the probability of reaching the target from each observed position (best play)."""
        obs = np.asarray(observation, dtype=np.float32)
        if obs.ndim != 2 or obs.shape[1] != OBS_SIZE:
            raise ValueError(f"observations must be (B, {OBS_SIZE}), got {obs.shape}")
        _, rolls_left, is_open = decode_own(obs)
        values = self.action_values(obs)
        legal = np.zeros_like(values, dtype=bool)
        legal[:, SCORE_START:] = is_open
        legal[:, 1:SCORE_START] = (rolls_left > 0)[:, None]
        return np.where(legal, values, -np.inf).max(axis=1)

    def act(self, observation, mask, rng):
        obs, m = as_batch(observation, mask, OBS_SIZE, NUM_ACTIONS)
        values = np.where(m, self.action_values(obs), -np.inf)
        values = np.where(m & np.isneginf(values), -1e18, values)
        # Among the actions of the best probability, the one of the best expected score.
        best = m & (values >= values.max(axis=1, keepdims=True) - 1e-12)
        if self._solver is None:
            from .yacht_solver import YachtSolverBot

            self._solver = YachtSolverBot()
        ev = np.where(best, self._solver.action_values(obs), -np.inf)
        ev = np.where(best & np.isneginf(ev), -1e18, ev)
        return ev.argmax(axis=1).astype(np.int64)
