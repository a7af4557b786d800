"""A simple greedy Yacht bot (``yacht-greedy``): about 110 points in solitaire (docs/rules/yacht.md §4)."""

from __future__ import annotations

import numpy as np

from envs.yacht.observation import OBS_SIZE, decode_own
from envs.yacht.rules import NUM_ACTIONS, SCORE_START
from envs.yacht.scoring import category_scores

from .base import BaseBot, as_batch

# Categories worth stopping for at once when open and made: straights and Yacht.
_STOP_FOR = np.array([9, 10, 11])
_DIE_BITS = 1 << np.arange(5)


class YachtGreedyBot(BaseBot):
    """Keep the most common value (ties: the higher), reroll the rest; score greedily.

    It stops rolling early when the dice make an open straight or Yacht, and it
    scores the open category with the highest immediate score (ties: the lowest
    category, so a zero goes to Ones first).  Falls back to any legal action if
    its choice is masked out.
    """

    name = "yacht-greedy"
    game = "yacht"

    def act(self, observation, mask, rng):
        obs, m = as_batch(observation, mask, OBS_SIZE, NUM_ACTIONS)
        dice, rolls_left, is_open = decode_own(obs)
        scores = category_scores(dice)
        best_cat = np.where(is_open, scores, -1).argmax(axis=1)
        made = (is_open[:, _STOP_FOR] & (scores[:, _STOP_FOR] > 0)).any(axis=1)
        counts = np.stack([(dice == v).sum(axis=1) for v in range(1, 7)], axis=1)
        keep_value = 6 - np.argmax(counts[:, ::-1], axis=1)  # most common, higher on ties
        reroll_id = ((dice != keep_value[:, None]) * _DIE_BITS).sum(axis=1)
        score_now = (rolls_left == 0) | made | (reroll_id == 0)
        actions = np.where(score_now, SCORE_START + best_cat, reroll_id).astype(np.int64)
        ok = m[np.arange(len(actions)), actions]
        if not ok.all():  # masked out (e.g. a caller's restricted mask): first legal action
            actions[~ok] = m[~ok].argmax(axis=1)
        return actions
