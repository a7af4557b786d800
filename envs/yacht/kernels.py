"""Yacht's compiled rules: new games, legal masks, steps and observations (numba kernels).

Each kernel is a loop over the batch calling scalar code for one game, which reads the
``YachtState`` arrays (see :mod:`envs.yacht.rules`) and writes them in place.  The
tables (reroll results, category scores, observation pieces) are module globals,
frozen into the compiled code.  The pattern every game follows is described in
:mod:`envs.core.kernels`; :class:`envs.yacht.rules.Yacht` is the Python API on top.

Draws: every step takes one draw (a code of five fresh dice, uniform in 0..6**5-1) from
the game's stream, a new game one; a reroll uses as many of its base-6 digits as dice it
rerolls.
"""

from __future__ import annotations

import collections

import numpy as np

from ..core.kernels import block, dims, draw_int, kernel, mask_all, observe_all, step_all, step_rows_all
from ..core.state import HEADER
from .dice import FULL_REROLL, KEEP_OF, NUM_REROLL_IDS, ROLL_MOD, ROLL_OFFSET, ROLL_RESULT
from .observation import CELL_TABLE, HEAD_TABLE, MAX_SEATS, SEAT_BLOCK, TOTAL_TABLE
from .scoring import MULTISETS, NUM_CATEGORIES, NUM_DICE, SCORE_TABLE, dice_code

NUM_OUTCOMES = 6**NUM_DICE
ALL_DICE_ID = NUM_REROLL_IDS - 1  # the reroll id of all five dice (a new turn)
SCORE_START = NUM_REROLL_IDS  # action ids 32..43 score category id - 32
ROLLS_PER_TURN = 2
NUM_ROUNDS = 12
SEATS_START = 52  # first entry of the seat blocks in the observation
HEAD_SIZE = 51  # dice one-hot, counts, potential, rolls-left one-hot

_KEEP_OF = KEEP_OF.astype(np.int16)
_ROLL_MOD = ROLL_MOD.astype(np.int64)
_ROLL_OFFSET = ROLL_OFFSET.astype(np.int64)
_ROLL_RESULT = ROLL_RESULT.astype(np.int16)
_SCORES = SCORE_TABLE[dice_code(MULTISETS)].astype(np.int16)  # (252, 12): multiset, category
_FULL_ROLL_MOD = np.int64(ROLL_MOD[FULL_REROLL])
_FULL_ROLL_OFFSET = np.int64(ROLL_OFFSET[FULL_REROLL])
_FROUND = np.float32(1 / 11)

Arrays = collections.namedtuple("Arrays", "to_move done key counter dice rolls_left round_ sheets")
"""The arrays of a Yacht state inside a kernel (the ``YachtState`` fields, in order)."""


@kernel(inline=True)
def unpack(buf):
    """The :class:`Arrays` views of a ``YachtState`` buffer (its layout: :mod:`envs.core.state`)."""
    B, P = dims(buf)
    to_move, o = block(buf, HEADER, B, 1, np.int8)
    done, o = block(buf, o, B, 1, np.bool_)
    key, o = block(buf, o, B, 8, np.uint64)
    counter, o = block(buf, o, B, 8, np.uint64)
    dice, o = block(buf, o, B, 2, np.int16)
    rolls_left, o = block(buf, o, B, 1, np.int8)
    round_, o = block(buf, o, B, 1, np.int8)
    sheets, o = block(buf, o, B * P * NUM_CATEGORIES, 2, np.int16)
    return Arrays(to_move, done, key, counter, dice, rolls_left, round_, sheets.reshape((B, P, NUM_CATEGORIES)))


@kernel(inline=True)
def reroll(dice, reroll_id, code):
    """Multiset index after rerolling the dice of ``reroll_id`` with fresh-dice ``code``."""
    keep = _KEEP_OF[dice, reroll_id]
    return _ROLL_RESULT[_ROLL_OFFSET[keep] + code % _ROLL_MOD[keep]]


# ------------------------------------------------------------------ new games
@kernel
def new_games(buf, rows):
    """Start a fresh game in every row ``rows[j]`` of a ``YachtState`` buffer, continuing the row's
    stream (``rng_key``, ``rng_counter``): one draw, its first roll; every other field of the row
    is written."""
    s = unpack(buf)
    P = s.sheets.shape[1]
    for j in range(rows.shape[0]):
        i = rows[j]
        code = draw_int(s.key[i], s.counter[i], NUM_OUTCOMES)
        s.counter[i] += np.uint64(1)
        s.dice[i] = _ROLL_RESULT[_FULL_ROLL_OFFSET + code % _FULL_ROLL_MOD]
        s.to_move[i] = 0
        s.done[i] = False
        s.rolls_left[i] = ROLLS_PER_TURN
        s.round_[i] = 1
        for p in range(P):
            for c in range(NUM_CATEGORIES):
                s.sheets[i, p, c] = -1


# ---------------------------------------------------------------------- masks
@kernel(inline=True)
def mask_one(i, s, row):
    """Fill ``row`` (44,) with game ``i``'s legal actions (all False when done): the per-game
    body of :func:`legal_mask` (``s``: :func:`unpack`)."""
    to_move, done, rolls_left, sheets = s.to_move, s.done, s.rolls_left, s.sheets
    if done[i]:
        row[:] = False
        return
    row[0] = False  # rerolling no die is not a move (docs/rules/yacht.md §5.1)
    can_reroll = rolls_left[i] > 0
    for a in range(1, SCORE_START):
        row[a] = can_reroll
    seat = to_move[i]
    for c in range(NUM_CATEGORIES):
        row[SCORE_START + c] = sheets[i, seat, c] < 0


@kernel
def legal_mask(buf, out):
    """Fill ``out`` (B, 44) with the legal actions of the seat to move (all False when done)."""
    mask_all(mask_one, unpack(buf), out)


# ----------------------------------------------------------------------- step
@kernel(inline=True)
def _total(sheets, i, seat):
    t = 0
    for c in range(NUM_CATEGORIES):
        v = sheets[i, seat, c]
        if v > 0:
            t += v
    return t


@kernel
def _win_rewards(sheets, i, rewards, r):
    """Row ``r`` of ``rewards``: +1 shared by the winners and -1 by the losers of finished game
    ``i`` (0 for all when every seat ties)."""
    P = sheets.shape[1]
    best = -1
    for s in range(P):
        best = max(best, _total(sheets, i, s))
    k = 0
    for s in range(P):
        if _total(sheets, i, s) == best:
            k += 1
    losers = P - k
    for s in range(P):
        if losers == 0:
            rewards[r, s] = 0.0
        elif _total(sheets, i, s) == best:
            rewards[r, s] = 1.0 / k
        else:
            rewards[r, s] = -1.0 / losers


@kernel(inline=True)
def _pass_turn(i, seat, s):
    """After ``seat`` scored in game ``i``: the turn passes to the next seat in order with an open
    category (possibly ``seat`` itself); returns True when no seat has one (the game is over)."""
    P = s.sheets.shape[1]
    for j in range(1, P + 1):
        nxt = (seat + j) % P
        for c in range(NUM_CATEGORIES):
            if s.sheets[i, nxt, c] < 0:
                s.to_move[i] = nxt
                if nxt <= seat and s.round_[i] < NUM_ROUNDS:
                    s.round_[i] += 1
                return False
    return True


@kernel(inline=True)
def step_one(i, a, r, s, rewards, score_rewards):
    """Apply action ``a`` to game ``i`` (not done, ``a`` legal; ``s``: :func:`unpack`); its
    rewards go to row ``r`` of ``rewards``: the per-game body of :func:`step` and
    :func:`step_rows`, for compiled callers too."""
    to_move, done, key, counter, dice, rolls_left, round_, sheets = s
    finished = False
    if a >= SCORE_START:
        seat = to_move[i]
        category = a - SCORE_START
        points = _SCORES[dice[i], category]
        sheets[i, seat, category] = points
        if score_rewards:
            rewards[r, seat] = points
        finished = _pass_turn(i, seat, s)
    code = draw_int(key[i], counter[i], NUM_OUTCOMES)  # every step draws once
    counter[i] += np.uint64(1)
    if finished:  # the last dice stay on the table
        rolls_left[i] = 0
        done[i] = True
        if not score_rewards:
            _win_rewards(sheets, i, rewards, r)
    elif a >= SCORE_START:  # the next turn rolls all five dice
        dice[i] = reroll(dice[i], ALL_DICE_ID, code)
        rolls_left[i] = ROLLS_PER_TURN
    else:
        dice[i] = reroll(dice[i], a, code)
        rolls_left[i] -= 1


@kernel
def step(buf, actions, rewards, score_rewards):
    """Apply validated ``actions`` to every game (none done); fill ``rewards`` (B, P), zeroed.

    ``score_rewards``: the mover is paid the points it writes (``reward="score"``);
    otherwise a finished game pays the win/loss rewards.
    """
    step_all(step_one, unpack(buf), actions, rewards, score_rewards)


@kernel
def step_rows(buf, rows, actions, rewards, score_rewards):
    """Apply validated ``actions[j]`` to game ``rows[j]``; its rewards go to ``rewards[j]`` (n, P)."""
    step_rows_all(step_one, unpack(buf), rows, actions, rewards, score_rewards)


# ---------------------------------------------------------------- observation
@kernel(inline=True)
def observe_one(i, seat, s, row, cfg):
    """Fill ``row`` (156,) with game ``i``'s observation from ``seat``'s point of view: the
    per-game body of :func:`observe` (``s``: :func:`unpack`; ``cfg`` is unused)."""
    dice, rolls_left, round_, sheets = s.dice, s.rolls_left, s.round_, s.sheets
    P = sheets.shape[1]
    k0 = dice[i] * 3 + rolls_left[i]
    for k in range(HEAD_SIZE):
        row[k] = HEAD_TABLE[k0, k]
    row[HEAD_SIZE] = np.float32(round_[i] - 1) * _FROUND
    for j in range(P):  # the observer first, then the next seats in turn order
        other = (seat + j) % P
        base = SEATS_START + j * SEAT_BLOCK
        row[base] = 1.0
        total = 0
        for c in range(NUM_CATEGORIES):
            v = sheets[i, other, c]
            row[base + 1 + 2 * c] = CELL_TABLE[v + 1, 0]
            row[base + 2 + 2 * c] = CELL_TABLE[v + 1, 1]
            if v > 0:
                total += v
        row[base + SEAT_BLOCK - 1] = TOTAL_TABLE[total]
    for k in range(SEATS_START + P * SEAT_BLOCK, SEATS_START + MAX_SEATS * SEAT_BLOCK):
        row[k] = 0.0


@kernel
def observe(buf, seats, out):
    """Fill ``out`` (B, 156) with every game's observation from ``seats[i]``'s point of view
    (layout in :mod:`envs.yacht.observation`)."""
    observe_all(observe_one, unpack(buf), seats, out)
