"""A Yacht bot that plays to win (``yacht-win``), not for points.

Against opponents who play the expectation-optimal policy (``yacht-solver``), each
opponent's final total is its written total plus a remaining score whose distribution is
known exactly (:func:`agents.yacht_threshold.solve_distribution`, from the open categories
its sheet shows).  Winning then means finishing above that total: the bot's utility for a
final total ``s`` is ``U(s) = P(best opponent < s) + 1/2 P(best opponent = s)`` (a tie
counts half a win), and it maximises ``E[U]``.

Each decision solves the current turn exactly (:mod:`agents.yacht_turn`); the value of the
sheet reached at the end of the turn, with ``n`` points still to find against an opponent
total ``t``, is a blend of two bounds on the true probability of winning:

* the **threshold** value (:func:`solve_threshold`): as if the bot knew the opponents' final
  totals already and played the best policy for each (an upper bound);
* the **expected-score** value: as if it kept playing for points
  (:func:`solve_distribution`; a lower bound).

``blend`` weights the first (default 1).  Both are exact when the bot has no turn left after
this one, and the threshold value is exact whenever the opponents finish before the bot's next
turn (each has at most one category left; in a two-player game, the second seat's last two
turns): there the bot uses it alone, whatever ``blend`` says.  In the last ``exact_rounds``
rounds of a two-player game (default 3: its sheet has at most three open categories) the value
is exact everywhere, from the endgame tables of :mod:`agents.yacht_endgame`.  Among actions
within 1e-12 of the best it takes the one of the best expected score, so a decided game is
played for points; in solitaire it is the solver.

Against opponents that do not play like ``yacht-solver`` the opponents' distributions, and so
the bot's values, are only approximations.

It reads everything from its own observation: its dice, rerolls, sheet and total, and the
open categories and totals of the other seats' sheets.
"""

from __future__ import annotations

import functools

import numpy as np
from numba import njit

from envs.yacht.observation import MAX_SEATS, OBS_SIZE, OBS_SLICES, SEAT_BLOCK, SEAT_OPEN, SEAT_PRESENT, \
    SEAT_TOTAL, decode_own
from envs.yacht.rules import NUM_ACTIONS
from envs.yacht.scoring import MAX_TOTAL, MULTISET_INDEX, NUM_CATEGORIES, dice_code

from .base import BaseBot, as_batch
from .yacht_threshold import SIZE, solve_distribution, solve_threshold
from .yacht_turn import BITS, NUM_MULTISETS, SCORES, turn_action_values

FINALS = MAX_TOTAL + 1
"""Final totals 0..303."""
_POSSIBLE = np.zeros((NUM_CATEGORIES, SCORES.max() + 1), dtype=np.bool_)
_POSSIBLE[np.arange(NUM_CATEGORIES)[None, :], SCORES] = True


@functools.lru_cache(maxsize=4)
def win_table(blend: float) -> np.ndarray:
    """(4096, SIZE + 2) ``g[m, n + 1]``: the value of needing ``n`` more points than a known
    opponent total (``n`` in -1..305, clamped), a tie counting half: ``P(R > n) + 1/2 P(R = n)``
    for the remaining score ``R`` from open set ``m``, blended ``blend`` : ``1 - blend`` between
    the threshold bound and the expected-score policy."""
    def half_ties(at_least: np.ndarray) -> np.ndarray:  # at_least[:, n] = P(R >= n), n = 0..304
        full = np.concatenate([np.ones((at_least.shape[0], 1)), at_least, np.zeros((at_least.shape[0], 2))], axis=1)
        return 0.5 * (full[:, :-1] + full[:, 1:])  # column j: n = j - 1

    out = np.zeros((1 << NUM_CATEGORIES, SIZE + 2))
    if blend > 0:
        out += blend * half_ties(solve_threshold())
    if blend < 1:
        pmf = solve_distribution()
        out += (1 - blend) * half_ties(np.cumsum(pmf[:, ::-1], axis=1)[:, ::-1])
    return out


@njit(cache=True)
def _win_leaf(g, opp, m, total, out):  # pragma: no cover - compiled
    """``out[b, d, c]``: E over the opponents' best final total ``t`` (pmf ``opp[b]``) of
    ``g[m - c, t - total - score(d, c) + 1]`` (clamped), ``-inf`` for closed categories."""
    per_score = np.empty(_POSSIBLE.shape[1])
    last = g.shape[1] - 1
    for b in range(out.shape[0]):
        lo, hi = 0, opp.shape[1] - 1
        while lo < hi and opp[b, lo] == 0.0:
            lo += 1
        while hi > lo and opp[b, hi] == 0.0:
            hi -= 1
        for c in range(NUM_CATEGORIES):
            if not (m[b] >> c) & 1:
                for d in range(NUM_MULTISETS):
                    out[b, d, c] = -np.inf
                continue
            after = m[b] ^ (1 << c)
            for s in range(_POSSIBLE.shape[1]):
                if not _POSSIBLE[c, s]:
                    continue
                acc = 0.0
                for t in range(lo, hi + 1):
                    j = t - total[b] - s + 1
                    j = 0 if j < 0 else (last if j > last else j)
                    acc += opp[b, t] * g[after, j]
                per_score[s] = acc
            for d in range(NUM_MULTISETS):
                out[b, d, c] = per_score[SCORES[d, c]]


def opponents_of(obs: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The other seats an observation shows: ``(present (B, 3) bool, open sets (B, 3), totals (B, 3))``."""
    seats = obs[:, OBS_SLICES["seats"]].reshape(-1, MAX_SEATS, SEAT_BLOCK)[:, 1:]
    present = seats[:, :, SEAT_PRESENT] > 0.5
    is_open = seats[:, :, SEAT_OPEN] > 0.5
    masks = is_open.astype(np.int64) @ BITS
    totals = np.rint(seats[:, :, SEAT_TOTAL] * MAX_TOTAL).astype(np.int64)
    return present, masks, totals


def best_opponent_pmf(present: np.ndarray, masks: np.ndarray, totals: np.ndarray) -> np.ndarray:
    """(B, 304) pmf of the best final total among the present opponents, each playing the
    expectation-optimal policy from the start of its next turn, independently."""
    pmf = solve_distribution()
    B = present.shape[0]
    t = np.arange(FINALS)
    cdf = np.ones((B, FINALS))
    for j in range(present.shape[1]):
        rows = np.flatnonzero(present[:, j])
        if rows.size:
            shift = t[None, :] - totals[rows, j, None]
            own = np.where(shift >= 0, pmf[masks[rows, j, None], np.clip(shift, 0, SIZE - 1)], 0.0)
            cdf[rows] *= np.cumsum(own, axis=1)
    return np.diff(cdf, axis=1, prepend=0.0)


def _popcount(x: np.ndarray) -> np.ndarray:
    return ((x[..., None] & BITS) > 0).sum(axis=-1)


class YachtWinBot(BaseBot):
    """Maximises the probability of winning (ties half) against expectation-optimal opponents.

    ``blend`` in [0, 1]: the weight of the threshold bound in the value of the end of a turn;
    ``exact_rounds`` in 0..3: the last rounds of a two-player game played from the exact endgame
    tables (see the module docstring).  Solitaire: plays for points.  The tables are built on
    the first decision (seconds), the endgame tables as the games reach them.
    """

    name = "yacht-win"
    game = "yacht"

    def __init__(self, blend: float = 1.0, exact_rounds: int = 3):
        if isinstance(blend, bool) or not isinstance(blend, (int, float)) or not 0.0 <= float(blend) <= 1.0:
            raise ValueError(f"blend must be a number in [0, 1], got {blend!r}")
        if isinstance(exact_rounds, bool) or not isinstance(exact_rounds, (int, np.integer)) \
                or not 0 <= exact_rounds <= 3:
            raise ValueError(f"exact_rounds must be an integer in 0..3, got {exact_rounds!r}")
        self.blend = float(blend)
        self.exact_rounds = int(exact_rounds)
        self._solver = None

    def _points(self):
        if self._solver is None:
            from .yacht_solver import YachtSolverBot

            self._solver = YachtSolverBot()
        return self._solver

    def action_values(self, observation) -> np.ndarray:
        """(B, 44) the estimated probability of winning (ties half) after every action; -inf
        where an action makes no sense.  Solitaire rows hold the expected score instead."""
        obs = np.asarray(observation, dtype=np.float32)
        dice, rolls_left, is_open = decode_own(obs)
        present, masks, totals = opponents_of(obs)
        values = np.empty((obs.shape[0], NUM_ACTIONS))
        alone = ~present.any(axis=1)
        if alone.any():
            values[alone] = self._points().action_values(obs[alone])
        rows = np.flatnonzero(~alone)
        if rows.size:
            opp = best_opponent_pmf(present[rows], masks[rows], totals[rows])
            m = is_open[rows].astype(np.int64) @ BITS
            own = np.rint(obs[rows, OBS_SLICES["seats"].start + SEAT_TOTAL] * MAX_TOTAL).astype(np.int64)
            leaf = np.empty((rows.size, NUM_MULTISETS, NUM_CATEGORIES))
            # Opponents with at most one category left finish before the bot's next turn:
            # the threshold value is then exact.
            done_next = (~present[rows] | (_popcount(masks[rows]) <= 1)).all(axis=1)
            # Two players, few categories left: the exact endgame tables.
            endgame = (present[rows].sum(axis=1) == 1) & (_popcount(m) <= self.exact_rounds) & ~done_next
            kind = np.where(endgame, 2, done_next.astype(np.int64))
            for k in (0, 1, 2):
                sel = np.flatnonzero(kind == k)
                if not sel.size:
                    continue
                if k == 2:
                    from .yacht_endgame import exact_leaf

                    leaf[sel] = exact_leaf(m[sel], masks[rows[sel], 0], own[sel] - totals[rows[sel], 0])
                else:
                    part = np.empty((sel.size, NUM_MULTISETS, NUM_CATEGORIES))
                    _win_leaf(win_table(1.0 if k else self.blend), opp[sel], m[sel], own[sel], part)
                    leaf[sel] = part
            values[rows] = turn_action_values(leaf, MULTISET_INDEX[dice_code(dice[rows])], rolls_left[rows])
        return values

    def act(self, observation, mask, rng):
        obs, m = as_batch(observation, mask, OBS_SIZE, NUM_ACTIONS)
        values = np.where(m, self.action_values(obs), -np.inf)
        values = np.where(m & np.isneginf(values), -1e18, values)
        best = m & (values >= values.max(axis=1, keepdims=True) - 1e-12)
        ev = np.where(best, self._points().action_values(obs), -np.inf)
        ev = np.where(best & np.isneginf(ev), -1e18, ev)
        return ev.argmax(axis=1).astype(np.int64)
