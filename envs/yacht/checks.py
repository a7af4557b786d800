"""The compiled check of Yacht states (see :mod:`envs.core.state_check`).

Every state the rules reach and every loaded position obeys these rules; together they keep
every kernel's table reads in bounds, every observation in [0, 1] and a legal move in every
live game.
"""

from __future__ import annotations

import numpy as np
from numba import types

from ..core.kernels import kernel, mask_all, no_touch, observe_all, step_checked_all
from ..core.state_check import StateChecker
from .kernels import mask_one, observe_one, step_one, unpack
from .scoring import ACHIEVABLE, MULTISETS, NUM_CATEGORIES

FIELDS = (
    ("to_move", np.int8, ()), ("done", np.bool_, ()), ("rng_key", np.uint64, ()),
    ("rng_counter", np.uint64, ()), ("dice", np.int16, ()), ("rolls_left", np.int8, ()),
    ("round", np.int8, ()), ("sheets", np.int16, ("P", NUM_CATEGORIES)),
)
RULES = (
    (("to_move",), "to_move must be a seat in 0..{P_1}"),
    (("dice",), f"dice must index one of the {len(MULTISETS)} sorted dice sets (0..{len(MULTISETS) - 1})"),
    (("rolls_left",), "rolls_left must be in 0..2"),
    (("round",), "round must be in 1..12"),
    (("sheets",), "every sheet cell is -1 (open) or a score its category can take"),
    (("done", "sheets"), "a finished game has every sheet full"),
    (("done", "rolls_left"), "a finished game has rolls_left 0"),
    (("to_move", "sheets"), "the seat to move in a live game has an open category"),
)
_MAX_CELL = max(max(a) for a in ACHIEVABLE)
_CELL_OK = np.zeros((NUM_CATEGORIES, _MAX_CELL + 2), dtype=np.bool_)
"""``_CELL_OK[c, v + 1]``: ``v`` (-1 for open) may stand in category ``c``'s cell."""
_CELL_OK[:, 0] = True
for _c, _values in enumerate(ACHIEVABLE):
    _CELL_OK[_c, np.array(sorted(_values)) + 1] = True
_NUM_DICE_SETS = len(MULTISETS)


def _check(lo, hi, skip, st, P):
    (to_move, done, rng_key, rng_counter, dice, rolls_left, round_, sheets) = st
    B = done.shape[0]
    if to_move.shape[0] != B:
        return -1, -1
    if rng_key.shape[0] != B:
        return -3, -1
    if rng_counter.shape[0] != B:
        return -4, -1
    if dice.shape[0] != B:
        return -5, -1
    if rolls_left.shape[0] != B:
        return -6, -1
    if round_.shape[0] != B:
        return -7, -1
    if sheets.shape[0] != B or sheets.shape[1] != P or sheets.shape[2] != NUM_CATEGORIES:
        return -8, -1
    if hi < 0:
        hi = B
    for i in range(lo, hi):
        if skip.shape[0] and skip[i]:
            continue
        seat = to_move[i]
        if seat < 0 or seat >= P:
            return 1, i
        if dice[i] < 0 or dice[i] >= _NUM_DICE_SETS:
            return 2, i
        if rolls_left[i] < 0 or rolls_left[i] > 2:
            return 3, i
        if round_[i] < 1 or round_[i] > 12:
            return 4, i
        open_cells = 0
        mover_open = False
        for s in range(P):
            for c in range(NUM_CATEGORIES):
                v = np.int64(sheets[i, s, c])
                if v < -1 or v > _MAX_CELL or not _CELL_OK[c, v + 1]:
                    return 5, i
                if v == -1:
                    open_cells += 1
                    if s == seat:
                        mover_open = True
        if done[i]:
            if open_cells:
                return 6, i
            if rolls_left[i] != 0:
                return 7, i
        elif not mover_open:
            return 8, i
    return 0, -1


check_rules = kernel(inline=True)(_check)
"""The rules of :func:`_check` for compiled callers, over the :func:`~.kernels.unpack` ``Arrays``
(``check_rules(lo, hi, skip, s, P)``): the checked step's first pass."""


def _check_buffer(lo, hi, skip, buf, P):
    return check_rules(lo, hi, skip, unpack(buf), P)


@kernel
def step_checked(buf, actions, rewards, row, cfg, P):
    """``Game.step`` with ``check=True`` in one dispatch: the state check (``(rule, 0, game)``
    when a rule is broken), then the action check (``(0, kind, game)``, ``kind`` as
    :func:`~envs.core.kernels.first_bad_action`), then the step (``(0, 0, -1)``), each followed
    by :func:`~envs.core.kernels.step_checked_all`'s ``touched``; nothing is written unless every
    check passes.  ``actions`` (B,) int64, ``rewards`` (B, P) zeroed,
    ``row`` (A,) bool scratch; ``cfg`` is the step kernels' (``score_rewards``)."""
    s = unpack(buf)
    rule, i = check_rules(0, -1, row[:0], s, P)
    if rule != 0:
        return rule, 0, i, np.uint64(0)
    if actions.shape[0] != s.done.shape[0]:
        return 0, 4, -1, np.uint64(0)
    kind, i, touched = step_checked_all(step_one, mask_one, no_touch, s, actions, rewards, row, cfg)
    return 0, kind, i, touched


@kernel
def legal_mask_checked(buf, out, skip, P):
    """``Game.legal_mask`` with ``check=True`` in one dispatch: the state check's ``(rule, game)``
    (``skip`` as the check's), and ``out`` (B, A) filled only when every game passes."""
    s = unpack(buf)
    rule, i = check_rules(0, -1, skip, s, P)
    if rule == 0:
        mask_all(mask_one, s, out)
    return rule, i


@kernel
def observe_checked(buf, seats, out, skip, P):
    """``Game.observe`` with ``check=True`` in one dispatch, as :func:`legal_mask_checked`
    (``seats`` (B,) checked seats)."""
    s = unpack(buf)
    rule, i = check_rules(0, -1, skip, s, P)
    if rule == 0:
        observe_all(observe_one, s, seats, out)
    return rule, i


CHECKER = StateChecker(FIELDS, _check_buffer, (types.int64,), RULES, buffer=True)
