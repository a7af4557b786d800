"""Yacht observation encoding: one fixed-size float32 vector for 1..4 players.

Layout (named slices in :data:`OBS_SLICES`), every value in [0, 1]::

    dice        [  0: 30)  one-hot of each sorted die (die i -> 6 entries)
    counts      [ 30: 36)  how many dice show 1..6, divided by 5
    potential   [ 36: 48)  category_scores(dice) / 50: what each category would score now
    rolls_left  [ 48: 51)  one-hot of rerolls left (0, 1, 2)
    round       [ 51: 52)  (round - 1) / 11
    seats       [ 52:156)  4 blocks of 26, the observing seat first, then the next seats in
                           turn order; absent seats (fewer than 4 players) are all zero.
                           Block: present (1); per category c in order, the pair
                           (open, written score / 50) (24); sheet total / 303 (1)

Every entry comes from a table lookup: the dice, counts, potential and rolls-left slices
from one row of :data:`HEAD_TABLE` (indexed by the sorted multiset and the rerolls left),
each sheet cell from :data:`CELL_TABLE` and each total from :data:`TOTAL_TABLE`.  The
compiled encoder is :func:`envs.yacht.kernels.observe`.
"""

from __future__ import annotations

import numpy as np

from .scoring import MAX_TOTAL, MULTISETS, NUM_CATEGORIES, SCORE_TABLE, dice_code

MAX_SEATS = 4
SEAT_BLOCK = 1 + NUM_CATEGORIES + NUM_CATEGORIES + 1
OBS_SLICES = {
    "dice": slice(0, 30),
    "counts": slice(30, 36),
    "potential": slice(36, 48),
    "rolls_left": slice(48, 51),
    "round": slice(51, 52),
    "seats": slice(52, 52 + MAX_SEATS * SEAT_BLOCK),
}
OBS_SIZE = OBS_SLICES["seats"].stop
# Inside one seat block:
SEAT_PRESENT = 0
SEAT_OPEN = slice(1, 25, 2)  # open flag of category c at 1 + 2c
SEAT_WRITTEN = slice(2, 25, 2)  # written score / 50 of category c at 2 + 2c
SEAT_TOTAL = 25


def _head_table() -> np.ndarray:
    """(252 * 3, 51) float32: dice one-hot, counts, potential and rolls-left one-hot.

    Row ``3 * multiset_index + rolls_left``.
    """
    n = len(MULTISETS)
    onehot = np.zeros((n, 5, 6), dtype=np.float32)
    onehot[np.arange(n)[:, None], np.arange(5)[None, :], MULTISETS - 1] = 1.0
    counts = np.stack([(MULTISETS == v).sum(axis=1) for v in range(1, 7)], axis=1) / 5.0
    potential = SCORE_TABLE[dice_code(MULTISETS)] / 50.0
    dice_part = np.concatenate([onehot.reshape(n, 30), counts, potential], axis=1)
    rolls = np.eye(3)
    table = np.concatenate(
        [np.repeat(dice_part, 3, axis=0), np.tile(rolls, (n, 1))], axis=1
    )
    return table.astype(np.float32)


HEAD_TABLE = _head_table()
CELL_TABLE = np.zeros((52, 2), dtype=np.float32)
"""Row ``score + 1`` (score -1 = open): the (open, written / 50) pair of one sheet cell."""
CELL_TABLE[0, 0] = 1.0
CELL_TABLE[1:, 1] = np.arange(51) / 50.0
TOTAL_TABLE = (np.arange(MAX_TOTAL + 1) / MAX_TOTAL).astype(np.float32)
"""Row ``t``: a sheet total of ``t`` points as the observation shows it (t / 303, rounded once)."""


def decode_own(obs: np.ndarray):
    """Recover (multiset_index-free) facts a bot needs from observations.

    Returns ``(dice (B,5) int64 sorted, rolls_left (B,) int64, open (B,12) bool)`` of the
    observing seat.  Bots use this instead of reading the game state.
    """
    obs = np.asarray(obs)
    dice = obs[:, :30].reshape(-1, 5, 6).argmax(axis=2) + 1
    rolls_left = obs[:, 48:51].argmax(axis=1)
    is_open = obs[:, 52 + SEAT_OPEN.start : 52 + SEAT_OPEN.stop : SEAT_OPEN.step] > 0.5
    return dice.astype(np.int64), rolls_left.astype(np.int64), is_open


def position_of(observation: np.ndarray, num_players: int) -> tuple[dict, int]:
    """The position dict one (OBS_SIZE,) observation of the seat to move shows, and that seat.

    The observation holds every part of a Yacht state: the dice, rerolls left, the round and
    every sheet (the observer's first).  The observer's seat number is recovered from the
    sheets: in turn order, the seats before the mover have filled one more category this
    round than the mover.  ``ValueError`` when the present seats differ from
    ``num_players``.
    """
    obs = np.asarray(observation, dtype=np.float32)
    blocks = obs[OBS_SLICES["seats"]].reshape(MAX_SEATS, SEAT_BLOCK)
    present = int((blocks[:, SEAT_PRESENT] > 0.5).sum())
    if present != num_players:
        raise ValueError(f"the observation shows {present} seats, the game has {num_players}")
    blocks = blocks[:num_players]
    is_open = blocks[:, SEAT_OPEN] > 0.5
    written = np.rint(blocks[:, SEAT_WRITTEN] * 50).astype(np.int64)
    filled = (~is_open).sum(axis=1)
    seat = int((filled > filled[0]).sum())
    sheets = [None] * num_players
    for j in range(num_players):
        sheets[(seat + j) % num_players] = [None if is_open[j, c] else int(written[j, c])
                                            for c in range(NUM_CATEGORIES)]
    pos = {
        "round": int(np.rint(obs[OBS_SLICES["round"].start] * 11)) + 1,
        "to_move": seat,
        "dice": (obs[OBS_SLICES["dice"]].reshape(5, 6).argmax(axis=1) + 1).tolist(),
        "rolls_left": int(obs[OBS_SLICES["rolls_left"]].argmax()),
        "sheets": sheets,
    }
    if not is_open.any():
        pos["game_over"] = True
    return pos, seat
