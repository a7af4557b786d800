"""A fast, simple Rainbow Dice bot (``rainbow-simple``): chase n-of-a-kind, never spend tokens on dice.

It is deterministic and fully vectorized (no planning), so it serves as a cheap opponent
for training and tests.  Solo it scores far below ``rainbow-greedy``.
"""

from __future__ import annotations

import numpy as np

from envs.rainbow_dice.actions import BUY_START, DECLINE, NUM_ACTIONS, SECOND_START, TAKE
from envs.rainbow_dice.hands import SATISFIED, dice_code
from envs.rainbow_dice.observation import OBS_SIZE, decode
from envs.rainbow_dice.rules import LATE_ROUND
from envs.rainbow_dice.scoring import TOKEN_POINTS

from .base import BaseBot, as_batch
from .rainbow_value import SECOND_CARD_PRICE, Holdings

_DIE_BITS = 1 << np.arange(6)


class RainbowSimpleBot(BaseBot):
    """Keep the most common value (ties: the higher), reroll the rest, buy the best card.

    While free rerolls are left it stops and buys as soon as the best buyable card gains
    at least ``stop_at`` points (default 30).  Afterwards it buys the card with the largest
    marginal score gain if that beats taking tokens (``token_value`` points each, default
    3), and pays for a second card when its gain beats 3 tokens.  Falls back to the first
    legal action if its choice is masked out.
    """

    name = "rainbow-simple"
    game = "rainbow_dice"

    def __init__(self, stop_at: float = 30.0, token_value: float = TOKEN_POINTS):
        self.stop_at = float(stop_at)
        self.token_value = float(token_value)

    def act(self, observation, mask, rng):
        obs, m = as_batch(observation, mask, OBS_SIZE, NUM_ACTIONS)
        info = decode(obs)
        B = obs.shape[0]
        dice, phase = info["dice"], info["phase"]
        gains = np.where(SATISFIED[dice_code(dice)], Holdings(info["cards"], info["supply"]).gain1, -np.inf)
        best = gains.argmax(axis=1)
        best_gain = gains[np.arange(B), best]
        take = self.token_value * np.where(info["round"] >= LATE_ROUND, 2, 1)
        counts = np.stack([(dice == v).sum(axis=1) for v in range(1, 7)], axis=1)
        keep_value = 6 - np.argmax(counts[:, ::-1], axis=1)
        reroll = ((dice != keep_value[:, None]) * _DIE_BITS).sum(axis=1)
        end = np.where(best_gain > take, BUY_START + best, TAKE)
        rolling = (info["free_rerolls"] > 0) & (best_gain < self.stop_at) & (reroll > 0)
        actions = np.where(rolling, reroll, end)
        second = best_gain > SECOND_CARD_PRICE * self.token_value
        actions = np.where(phase == 2, np.where(second, SECOND_START + best, DECLINE), actions)
        actions = actions.astype(np.int64)
        ok = m[np.arange(B), actions]
        if not ok.all():
            actions[~ok] = m[~ok].argmax(axis=1)
        return actions
