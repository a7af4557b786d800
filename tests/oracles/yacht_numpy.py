"""The numpy implementation of Yacht's batched rules: the oracle of the compiled core.

This is the vectorized core madang shipped before the rules were compiled
(:mod:`envs.yacht.kernels`): masked array arithmetic over the whole batch.
:class:`NumpyYacht` keeps every public behaviour of :class:`envs.yacht.Yacht` (it only
replaces new games, masks, steps and observations), so the differential test steps both
with the same seeds and actions and compares everything.

One change from the shipped numpy core: a sheet total's entry is read from
``TOTAL_TABLE`` (``t / 303`` rounded once) instead of a float32 dot product, whose
rounding depended on the BLAS kernel of the machine.
"""

from __future__ import annotations

import numpy as np

from envs.core import rng
from envs.core.game import Game
from envs.yacht.dice import KEEP_OF, NUM_REROLL_IDS, ROLL_MOD, ROLL_OFFSET, ROLL_RESULT
from envs.yacht.observation import CELL_TABLE, HEAD_TABLE, OBS_SIZE, SEAT_BLOCK, SEAT_PRESENT, SEAT_TOTAL, TOTAL_TABLE
from envs.yacht.rules import NUM_ACTIONS, REROLL_START, SCORE_START, Yacht, YachtState
from envs.yacht.scoring import MULTISETS, NUM_CATEGORIES, NUM_DICE, SCORE_TABLE, dice_code

ROLLS_PER_TURN = 2
NUM_ROUNDS = 12
NUM_OUTCOMES = 6**NUM_DICE
_ALL_DICE = NUM_REROLL_IDS - 1
_SCORES = SCORE_TABLE[dice_code(MULTISETS)].astype(np.int16).reshape(-1)
"""Flat: ``_SCORES[12 * dice_index + category]``."""
_FROUND = np.float32(1 / 11)


def reroll(dice_index: np.ndarray, reroll_id: np.ndarray, code: np.ndarray) -> np.ndarray:
    """Vectorized reroll: multiset index after rerolling ``reroll_id`` with fresh-dice ``code``."""
    keep = KEEP_OF[dice_index, reroll_id]
    return ROLL_RESULT[ROLL_OFFSET[keep] + code % ROLL_MOD[keep]]


def encode(multiset_index, rolls_left, round_, sheets, seats) -> np.ndarray:
    """Encode B games from ``seats``' points of view (layout in :mod:`envs.yacht.observation`).

    ``multiset_index`` (B,) index of the sorted dice in MULTISETS; ``rolls_left`` (B,) in 0..2; ``round_`` (B,)
    1..12; ``sheets`` (B, P, 12) int16 with -1 for open; ``seats`` (B,) observing seat.
    Returns a fresh (B, OBS_SIZE) float32 array.
    """
    B, P, _ = sheets.shape
    obs = np.empty((B, OBS_SIZE), dtype=np.float32)
    obs[:, :51] = HEAD_TABLE.take(multiset_index * 3 + rolls_left, axis=0)
    obs[:, 51] = (round_ - 1) * _FROUND
    if P > 1:  # rotate so that the observing seat comes first
        order = (seats[:, None] + np.arange(P)[None, :]) % P
        sheets = np.take_along_axis(sheets, order[:, :, None], axis=1)
    cells = CELL_TABLE.take(sheets + 1, axis=0).reshape(B, P, 2 * NUM_CATEGORIES)
    blocks = obs[:, 52 : 52 + P * SEAT_BLOCK].reshape(B, P, SEAT_BLOCK)
    blocks[:, :, SEAT_PRESENT] = 1.0
    blocks[:, :, 1:25] = cells
    blocks[:, :, SEAT_TOTAL] = TOTAL_TABLE.take(np.where(sheets < 0, 0, sheets).sum(axis=2))
    obs[:, 52 + P * SEAT_BLOCK :] = 0.0
    return obs


class NumpyYacht(Yacht):
    """Yacht with the numpy core (the oracle); same API, configuration and results."""

    def new_games(self, key, counter):
        B, P = key.shape[0], self.num_players
        key, counter = key.astype(np.uint64), counter.astype(np.uint64).copy()
        code = rng.draw_index(key, counter, NUM_OUTCOMES)
        counter += np.uint64(1)
        return YachtState(
            to_move=np.zeros(B, np.int8),
            done=np.zeros(B, bool),
            rng_key=key.copy(),
            rng_counter=counter,
            dice=reroll(np.zeros(B, np.int64), np.full(B, _ALL_DICE), code).astype(np.int16),
            rolls_left=np.full(B, ROLLS_PER_TURN, np.int8),
            round=np.ones(B, np.int8),
            sheets=np.full((B, P, NUM_CATEGORIES), -1, np.int16),
        )

    _reset_rows = Game._reset_rows  # the generic new_games / put

    def _legal_mask(self, state):
        B = state.batch_size
        mask = np.empty((B, NUM_ACTIONS), dtype=bool)
        mask[:, REROLL_START] = False
        mask[:, REROLL_START + 1 : SCORE_START] = (state.rolls_left > 0)[:, None]
        own = state.sheets[:, 0] if self.num_players == 1 else state.sheets[np.arange(B), state.to_move]
        mask[:, SCORE_START:] = own < 0
        mask[state.done] = False
        return mask

    def _apply(self, state, actions):
        B, P = state.batch_size, self.num_players
        seat = state.to_move
        is_score = actions >= SCORE_START
        rewards = np.zeros((B, P), dtype=np.float32)
        finished = np.zeros(B, dtype=bool)

        sr = np.flatnonzero(is_score)
        if sr.size:
            s_seat = seat[sr]
            cat = actions[sr] - SCORE_START
            points = _SCORES[state.dice[sr] * NUM_CATEGORIES + cat]
            state.sheets[sr, s_seat, cat] = points
            if self.reward == "score":
                rewards[sr, s_seat] = points
            # The turn passes to the next seat (in order) with an open category.
            if P == 1:
                over = state.sheets[sr, 0].min(axis=1) >= 0
                wrapped = ~over
            else:
                has_open = state.sheets[sr].min(axis=2) < 0  # (n, P)
                cands = (s_seat[:, None].astype(np.int64) + np.arange(1, P + 1)) % P
                ok = np.take_along_axis(has_open, cands, axis=1)
                nxt = np.take_along_axis(cands, ok.argmax(axis=1)[:, None], axis=1)[:, 0]
                over = ~ok.any(axis=1)
                wrapped = (nxt <= s_seat) & ~over
                state.to_move[sr] = np.where(over, s_seat, nxt)
            state.round[sr] = np.minimum(state.round[sr] + wrapped, NUM_ROUNDS)
            finished[sr] = over

        # Every step draws one code of fresh dice; a new turn rerolls all five.
        code = rng.draw_index(state.rng_key, state.rng_counter, NUM_OUTCOMES)
        state.rng_counter += np.uint64(1)
        reroll_id = np.where(is_score, _ALL_DICE, actions)
        reroll_id[finished] = 0  # a finished game keeps its last dice
        state.dice = reroll(state.dice, reroll_id, code).astype(np.int16)
        rolls = np.where(is_score, ROLLS_PER_TURN, state.rolls_left - 1).astype(np.int8)
        rolls[finished] = 0
        state.rolls_left = rolls
        state.done |= finished

        if self.reward == "win" and finished.any():
            rewards[finished] = self.win_rewards(self.totals(state)[finished])
        return rewards

    _apply_rows = Game._apply_rows  # the generic take / step / put

    def _observe(self, state, seats):
        return encode(
            state.dice.astype(np.int64),
            state.rolls_left.astype(np.int64),
            state.round.astype(np.float32),
            state.sheets,
            self.observer_seats(state, seats),
        )


ORACLE = NumpyYacht
"""The oracle class (what ``madang bench`` and the differential test look up)."""
