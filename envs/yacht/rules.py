"""Yacht batched rules (spec ``yacht.md``): 5 dice, 12 categories, 1..4 players.

Action layout, one flat ``Discrete(44)`` (spec §5)::

    0 ............ 31 | 32 ........... 43
    reroll dice whose |  score category
    bit is set in id  |  id - 32
    (id 0 never legal)|  (open on the mover's sheet)

Dice are kept sorted ascending after every roll, so die ``i`` is the ``i``-th
smallest; the state holds them as an index into the 252 sorted multisets
(:mod:`envs.yacht.dice`).  A turn is the initial roll plus up to two rerolls
(``rolls_left`` counts the rerolls still allowed); scoring a category ends the
turn, and the next seat with an open category rolls at once.  Every step draws
one code of five fresh dice from the game's own counter-based stream (a reroll
uses as many of them as it rerolls), so a game's dice depend only on its seed
and its actions.

Rewards: ``reward="score"`` (default) gives the mover the points it writes;
``reward="win"`` (2+ players) gives 0 until the end, then +1 shared by the
winners and -1 shared by the losers (0 for all when every seat ties).
"""

from __future__ import annotations

import dataclasses

import numpy as np

from ..core import rng
from ..core.game import Game
from ..core.state import BatchState
from . import dice as dice_tables
from . import observation, position, view
from .dice import NUM_REROLL_IDS, REROLL_BITS
from .scoring import CATEGORY_NAMES, MULTISETS, NUM_CATEGORIES, NUM_DICE, SCORE_TABLE, dice_code

REROLL_START = 0  # ids 0..31: reroll mask (bit i = die i)
SCORE_START = REROLL_START + NUM_REROLL_IDS  # ids 32..43: score category id - 32
NUM_ACTIONS = SCORE_START + NUM_CATEGORIES
ACTION_SLICES = {"reroll": slice(REROLL_START, SCORE_START), "score": slice(SCORE_START, NUM_ACTIONS)}
"""The action layout as named slices of the flat action ids (tile 0..NUM_ACTIONS exactly)."""
ROLLS_PER_TURN = 2  # rerolls after the first roll
NUM_ROUNDS = 12
NUM_OUTCOMES = 6**NUM_DICE

_ALL_DICE = NUM_REROLL_IDS - 1
_SCORES = SCORE_TABLE[dice_code(MULTISETS)].astype(np.int16).reshape(-1)
"""Flat: ``_SCORES[12 * dice_index + category]``."""


@dataclasses.dataclass
class YachtState(BatchState):
    """Batched Yacht state (B games, P seats); see :class:`envs.core.state.BatchState`.

    ``dice`` (B,) int16 index of the sorted dice in ``scoring.MULTISETS`` (use
    :meth:`Yacht.dice` for the five values); ``rolls_left`` (B,) int8 in 0..2; ``round``
    (B,) int8 in 1..12; ``sheets`` (B, P, 12) int16 with -1 for an open category.
    """

    to_move: np.ndarray
    done: np.ndarray
    rng_key: np.ndarray
    rng_counter: np.ndarray
    dice: np.ndarray
    rolls_left: np.ndarray
    round: np.ndarray
    sheets: np.ndarray


class Yacht(Game):
    """Batched Yacht rules; ``Yacht(num_players=1..4, reward="score"|"win")``."""

    name = "yacht"
    env_id = "madang/Yacht-v0"
    num_actions = NUM_ACTIONS
    obs_size = observation.OBS_SIZE
    obs_slices = observation.OBS_SLICES
    action_slices = ACTION_SLICES
    min_players, max_players = 1, 4
    zero_sum = False
    reward_modes = ("score", "win")
    view_module = view

    # ------------------------------------------------------------ new games
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
            dice=dice_tables.reroll(np.zeros(B, np.int64), np.full(B, _ALL_DICE), code).astype(np.int16),
            rolls_left=np.full(B, ROLLS_PER_TURN, np.int8),
            round=np.ones(B, np.int8),
            sheets=np.full((B, P, NUM_CATEGORIES), -1, np.int16),
        )

    # ---------------------------------------------------------------- masks
    def legal_mask(self, state):
        B = state.batch_size
        mask = np.empty((B, NUM_ACTIONS), dtype=bool)
        mask[:, REROLL_START] = False
        mask[:, REROLL_START + 1 : SCORE_START] = (state.rolls_left > 0)[:, None]
        own = state.sheets[:, 0] if self.num_players == 1 else state.sheets[np.arange(B), state.to_move]
        mask[:, SCORE_START:] = own < 0
        mask[state.done] = False
        return mask

    # ----------------------------------------------------------------- step
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
        state.dice = dice_tables.reroll(state.dice, reroll_id, code).astype(np.int16)
        rolls = np.where(is_score, ROLLS_PER_TURN, state.rolls_left - 1).astype(np.int8)
        rolls[finished] = 0
        state.rolls_left = rolls
        state.done |= finished

        if self.reward == "win" and finished.any():
            rewards[finished] = self.win_rewards(self.totals(state)[finished])
        return rewards

    # ---------------------------------------------------------- observation
    def observe(self, state, seats=None):
        return observation.encode(
            state.dice.astype(np.int64),
            state.rolls_left.astype(np.int64),
            state.round.astype(np.float32),
            state.sheets,
            self.observer_seats(state, seats),
        )

    def observation_position(self, obs_row):
        """The position an observation of the seat to move shows (:func:`.observation.position_of`)."""
        return observation.position_of(obs_row, self.num_players)

    # -------------------------------------------------------------- results
    @staticmethod
    def dice(state) -> np.ndarray:
        """(B, 5) int64 sorted dice values of every game."""
        return MULTISETS[state.dice]

    @staticmethod
    def totals(state) -> np.ndarray:
        """(B, P) int64 sheet totals (open categories count 0)."""
        return np.where(state.sheets < 0, 0, state.sheets).sum(axis=2, dtype=np.int64)

    def result(self, state, index=0):
        return {"scores": [int(x) for x in self.totals(state)[index]]}

    def to_position(self, state, index=0):
        return position.to_position(state, index)

    def from_position(self, position_dict, seed=None):
        key = rng.keys_from_seeds([rng.resolve_seed(seed)])
        return position.from_position(position_dict, self.num_players, key, YachtState)

    def describe_action(self, action):
        action = int(action)
        if REROLL_START <= action < SCORE_START:
            dice = [i for i in range(NUM_DICE) if REROLL_BITS[action, i]]
            return f"reroll dice {dice}"
        if SCORE_START <= action < NUM_ACTIONS:
            return f"score {CATEGORY_NAMES[action - SCORE_START]}"
        return f"out-of-range action {action}"

