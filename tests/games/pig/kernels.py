"""Pig's compiled rules: legal masks, steps and observations (numba kernels).

The same frame as the games under ``envs`` (:mod:`envs.core.kernels` describes it): the
exported kernels take the state's one buffer, rebuild its fields with :func:`unpack` and run
the shared batch loops over the scalar rules of one game (``mask_one``, ``step_one``,
``observe_one``).  Draws: every roll takes one draw (a die, uniform in 1..6) from the game's
stream; a hold draws nothing.
"""

from __future__ import annotations

import collections

import numpy as np

from envs.core.kernels import block, dims, draw_int, kernel, mask_all, observe_all, step_all, step_rows_all
from envs.core.state import HEADER

ROLL, HOLD = 0, 1
MAX_PLAYERS = 4
OBS_SLICES = {
    "my_score": slice(0, 1), "other_scores": slice(1, MAX_PLAYERS), "turn_total": slice(4, 5),
    "mover": slice(5, 5 + MAX_PLAYERS), "last_roll": slice(9, 16), "target": slice(16, 17),
}
"""The observation layout: scores over target + 5 (the observer's, then the others' in seat
order after it, zero-padded), the turn total over the target, the mover relative to the
observer (one-hot), the last roll of the turn (one-hot 0..6), the target over 100."""
OBS_SIZE = 17
_TURN_TOTAL, _MOVER = OBS_SLICES["turn_total"].start, OBS_SLICES["mover"].start
_LAST_ROLL, _TARGET = OBS_SLICES["last_roll"].start, OBS_SLICES["target"].start

Arrays = collections.namedtuple("Arrays", "to_move done key counter scores turn_total last_roll")
"""The arrays of a Pig state inside a kernel (the ``PigState`` fields, in order)."""


@kernel(inline=True)
def unpack(buf):
    """The :class:`Arrays` views of a ``PigState`` buffer (its layout: :mod:`envs.core.state`)."""
    B, P = dims(buf)
    to_move, o = block(buf, HEADER, B, 1, np.int8)
    done, o = block(buf, o, B, 1, np.bool_)
    key, o = block(buf, o, B, 8, np.uint64)
    counter, o = block(buf, o, B, 8, np.uint64)
    scores, o = block(buf, o, B * P, 2, np.int16)
    turn_total, o = block(buf, o, B, 2, np.int16)
    last_roll, o = block(buf, o, B, 1, np.int8)
    return Arrays(to_move, done, key, counter, scores.reshape((B, P)), turn_total, last_roll)


# ---------------------------------------------------------------------- masks
@kernel(inline=True)
def mask_one(i, s, row):
    """Fill ``row`` (2,) with game ``i``'s legal actions: roll while live, hold once the turn
    total is above 0 (``s``: :func:`unpack`)."""
    live = not s.done[i]
    row[ROLL] = live
    row[HOLD] = live and s.turn_total[i] > 0


@kernel
def legal_mask(buf, out):
    """Fill ``out`` (B, 2) with the legal actions of the seat to move (all False when done)."""
    mask_all(mask_one, unpack(buf), out)


# ----------------------------------------------------------------------- step
@kernel(inline=True)
def step_one(i, a, r, s, rewards, target):
    """Apply action ``a`` to game ``i`` (not done, ``a`` legal; ``s``: :func:`unpack`); its rewards
    go to row ``r`` of ``rewards``: +1 to the winner and -1 shared by the others when the game
    ends.  ``target`` is the score that wins (the step's ``cfg``)."""
    P = s.scores.shape[1]
    seat = np.int64(s.to_move[i])
    bust = False
    reached = False
    if a == ROLL:
        die = draw_int(s.key[i], s.counter[i], 6) + 1
        s.counter[i] += np.uint64(1)
        s.last_roll[i] = die
        if die == 1:  # the turn total is lost
            bust = True
            s.turn_total[i] = 0
        else:
            s.turn_total[i] += die
            reached = s.scores[i, seat] + s.turn_total[i] >= target  # banked at once
    won = False
    if a == HOLD or reached:
        s.scores[i, seat] += s.turn_total[i]
        s.turn_total[i] = 0
        won = s.scores[i, seat] >= target
    if a == HOLD:
        s.last_roll[i] = 0
    if bust or (a == HOLD and not won):
        s.to_move[i] = (seat + 1) % P
    if won:
        s.done[i] = True
        for k in range(P):
            rewards[r, k] = 1.0 if k == seat else -1.0 / (P - 1)


@kernel
def step(buf, actions, rewards, target):
    """Apply validated ``actions`` to every game (none done); fill ``rewards`` (B, P), zeroed."""
    step_all(step_one, unpack(buf), actions, rewards, target)


@kernel
def step_rows(buf, rows, actions, rewards, target):
    """Apply validated ``actions[j]`` to game ``rows[j]``; its rewards go to ``rewards[j]`` (n, P)."""
    step_rows_all(step_one, unpack(buf), rows, actions, rewards, target)


# ---------------------------------------------------------------- observation
@kernel(inline=True)
def observe_one(i, seat, s, row, target):
    """Fill ``row`` (17,) with game ``i``'s observation from ``seat``'s point of view (the layout
    of :data:`OBS_SLICES`; ``target`` is the observation's ``cfg``)."""
    P = s.scores.shape[1]
    row[:] = 0.0
    for k in range(P):  # k = 0: the observer, then the others in seat order
        row[k] = s.scores[i, (seat + k) % P] / (target + 5)
    row[_TURN_TOTAL] = s.turn_total[i] / target
    row[_MOVER + (s.to_move[i] - seat) % P] = 1.0
    row[_LAST_ROLL + s.last_roll[i]] = 1.0
    row[_TARGET] = target / 100


@kernel
def observe(buf, seats, out, target):
    """Fill ``out`` (B, 17) with every game's observation from ``seats[i]``'s point of view."""
    observe_all(observe_one, unpack(buf), seats, out, target)
