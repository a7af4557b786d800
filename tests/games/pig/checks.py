"""The compiled check of Pig states (see :mod:`envs.core.state_check`)."""

from __future__ import annotations

import numpy as np
from numba import types

from envs.core.kernels import kernel
from envs.core.state_check import StateChecker

from .kernels import unpack

FIELDS = (
    ("to_move", np.int8, ()), ("done", np.bool_, ()), ("rng_key", np.uint64, ()),
    ("rng_counter", np.uint64, ()), ("scores", np.int16, ("P",)), ("turn_total", np.int16, ()),
    ("last_roll", np.int8, ()),
)
RULES = (
    (("to_move",), "to_move must be a seat in 0..{P_1}"),
    (("scores",), "every score is in 0..target+5"),
    (("last_roll",), "last_roll must be in 0..6 (0: none yet this turn)"),
    (("done", "scores"), "a live game has every score below the target"),
    (("done", "to_move", "scores", "turn_total"), "a live game's mover has score + turn_total below the target"),
    (("done", "turn_total", "last_roll"), "in a live game a turn total above 0 comes with a last roll of 2..6, a turn total of 0 with 0 or 1"),
    (("done", "to_move", "scores", "turn_total"),
     "a finished game has turn_total 0 and exactly one winner, the last mover, at or above the target"),
)


@kernel(inline=True)
def check_rules(lo, hi, skip, s, P, target):
    """The first rule of :data:`RULES` that a game ``lo..hi-1`` (``hi`` -1: to the end) not marked
    in ``skip`` breaks, as ``(rule, game)``; ``(-1 - k, -1)`` when field ``k`` has the wrong shape;
    ``(0, -1)`` when all is well (``s``: :func:`~.kernels.unpack`)."""
    to_move, done, rng_key, rng_counter, scores, turn_total, last_roll = s
    B = done.shape[0]
    if to_move.shape[0] != B:
        return -1, -1
    if rng_key.shape[0] != B:
        return -3, -1
    if rng_counter.shape[0] != B:
        return -4, -1
    if scores.shape[0] != B or scores.shape[1] != P:
        return -5, -1
    if turn_total.shape[0] != B:
        return -6, -1
    if last_roll.shape[0] != B:
        return -7, -1
    if hi < 0:
        hi = B
    for i in range(lo, hi):
        if skip.shape[0] and skip[i]:
            continue
        seat = to_move[i]
        if seat < 0 or seat >= P:
            return 1, i
        reached = 0
        for s in range(P):
            if scores[i, s] < 0 or scores[i, s] > target + 5:
                return 2, i
            if scores[i, s] >= target:
                reached += 1
        if last_roll[i] < 0 or last_roll[i] > 6:
            return 3, i
        if not done[i]:
            if reached:
                return 4, i
            if turn_total[i] < 0 or scores[i, seat] + turn_total[i] >= target:
                return 5, i
        if not done[i] and (turn_total[i] > 0) != (last_roll[i] >= 2):
            return 6, i
        if done[i] and (turn_total[i] != 0 or reached != 1 or scores[i, seat] < target):
            return 7, i
    return 0, -1


def _check_buffer(lo, hi, skip, buf, P, target):
    return check_rules(lo, hi, skip, unpack(buf), P, target)


CHECKER = StateChecker(FIELDS, _check_buffer, (types.int64, types.int64), RULES, buffer=True)
