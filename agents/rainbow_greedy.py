"""The greedy Rainbow Dice bot (``rainbow-greedy``, docs/rules/rainbow_dice.md §11): an exact plan of each turn.

Every decision re-solves the rest of the current turn exactly (expectimax over the free
rerolls, ±1 adjustments and token rerolls still allowed; :mod:`agents.rainbow_turn`) with
the value of ending the dice phase taken from :mod:`agents.rainbow_value`: the marginal
end-game score of the card(s) it can buy (second card included) or of taking tokens, plus
``token_value`` points per token kept.  It looks no further than the turn; in its last
round a token is worth exactly its 3 end-game points.  It reads everything from the
observation, so it is stateless and plays any seat of any table size (its own cards only).
"""

from __future__ import annotations

import numpy as np

from envs.rainbow_dice.actions import (
    BUY_START, DECLINE, DOWN_START, NUM_ACTIONS, SECOND_START, STOP, TAKE, TOKEN_REROLL_START,
    UP_START,
)
from envs.rainbow_dice.hands import PLACE, SATISFIED, dice_code
from envs.rainbow_dice.observation import OBS_SIZE, decode
from envs.rainbow_dice.position import MAX_DIE_ACTIONS, NUM_ROUNDS
from envs.rainbow_dice.rules import LATE_ROUND
from envs.rainbow_dice.scoring import TOKEN_POINTS

from . import rainbow_turn as turn
from .base import BaseBot, as_batch
from .rainbow_value import PATTERN_OF, SECOND_CARD_PRICE, Holdings, end_values

# Flat index of the kept dice inside reroll_means()[K] (die i weighs 6**(kept dice below i)).
_KEEP_WEIGHTS = np.array(
    [[6 ** bin(k & ((1 << i) - 1)).count("1") if k >> i & 1 else 0 for i in range(6)] for k in range(64)],
    dtype=np.int64,
)
# Tie-breaks between equal values: end the turn, then stop, then anything else.
_PRIORITY = np.zeros(NUM_ACTIONS)
_PRIORITY[BUY_START:] = 2e-3
_PRIORITY[STOP] = 1e-3
_PRIORITY[UP_START:STOP] = -1e-3


class RainbowGreedyBot(BaseBot):
    """Plans each turn exactly, valuing cards by marginal final score and tokens at ``token_value``.

    Options: ``token_value`` (points per token kept, default 8: about 1226 solo with 8 and 972
    with 3, docs/rules/rainbow_dice.md §11), ``final_round_token_value`` (default 3: tokens left
    after the last turn are worth exactly 3), ``chunk`` (games solved together; memory is
    about 1.2 MB per game).  Ties go to ending the turn, then to stopping.
    """

    name = "rainbow-greedy"
    game = "rainbow_dice"

    def __init__(self, token_value: float = 8.0, final_round_token_value: float = TOKEN_POINTS, chunk: int = 32):
        self.token_value = float(token_value)
        self.final_round_token_value = float(final_round_token_value)
        self.chunk = int(chunk)

    def act(self, observation, mask, rng):
        obs, m = as_batch(observation, mask, OBS_SIZE, NUM_ACTIONS)
        values = np.where(m, self.action_values(obs) + _PRIORITY, -np.inf)
        # Actions the plan does not rate (never legal in real play) stay pickable.
        values = np.where(m & np.isneginf(values), -1e18, values)
        return values.argmax(axis=1).astype(np.int64)

    def action_values(self, observation) -> np.ndarray:
        """(B, 145) planned value of every action, relative to keeping the current tokens
        (-inf for actions that make no sense in the observed state)."""
        info = decode(np.asarray(observation, dtype=np.float32))
        B = observation.shape[0]
        values = np.full((B, NUM_ACTIONS), -np.inf)
        phase, tokens = info["phase"], info["tokens"]
        c = np.where(info["round"] >= NUM_ROUNDS, self.final_round_token_value, self.token_value)
        take = c * np.where(info["round"] >= LATE_ROUND, 2, 1)
        holdings = Holdings(info["cards"], info["supply"])
        code = dice_code(info["dice"])
        sat = SATISFIED[code]

        second = np.flatnonzero(phase == 2)
        values[second, SECOND_START:DECLINE] = np.where(
            sat[second], holdings.gain1[second] - SECOND_CARD_PRICE * c[second, None], -np.inf)
        values[second, DECLINE] = 0.0

        dice_rows = np.flatnonzero(phase < 2)
        values[dice_rows, BUY_START:TAKE] = holdings.buy_values(sat, tokens, c)[dice_rows]
        values[dice_rows, TAKE] = take[dice_rows]
        levels = np.minimum(MAX_DIE_ACTIONS - info["die_actions"], tokens) + 1
        free = info["free_rerolls"]
        planned = dice_rows[(free[dice_rows] > 0) | (levels[dice_rows] > 1)]
        keys = free[planned] * 8 + levels[planned]
        for key in np.unique(keys):
            rows = planned[keys == key]
            for start in range(0, rows.size, self.chunk):
                sub = rows[start : start + self.chunk]
                self._plan(values, sub, int(free[sub[0]]), int(levels[sub[0]]), info, holdings, c, take, code)
        return values

    def _plan(self, values, rows, free, levels, info, holdings, c, take, code):
        """Fill ``values[rows]`` from an exact solve of the rest of the turn."""
        best1, best2 = holdings.take(rows).pattern_values()
        tokens, cr = info["tokens"][rows], c[rows]
        end = []
        for j in range(levels):
            v = end_values(best1, best2, tokens - j, cr, take[rows]) - (cr * j).astype(np.float32)[:, None]
            end.append(turn.as_tensor(v[:, PATTERN_OF]))
        tables = turn.solve(end, free)
        x = code[rows]
        dice = info["dice"][rows]
        if free:
            values[rows, STOP] = turn.at(tables["W0_0"], x)
            means = turn.reroll_means(tables["reroll_into"])
            kept_index = (dice - 1) @ _KEEP_WEIGHTS.T  # (G, 64)
            for reroll in range(1, 64):
                keep = 63 ^ reroll
                values[rows, reroll] = turn.at(means[keep], kept_index[:, keep])
        if levels > 1:
            nxt = tables["next"]
            for i in range(6):
                up, down = dice[:, i] < 6, dice[:, i] > 1
                values[rows, UP_START + i] = np.where(up, turn.at(nxt, np.where(up, x + PLACE[i], x)), -np.inf)
                values[rows, DOWN_START + i] = np.where(down, turn.at(nxt, np.where(down, x - PLACE[i], x)), -np.inf)
            if not free:
                for i in range(6):
                    m = nxt.sum(axis=turn.AXIS[i], keepdims=True) / 6
                    idx = (dice - 1) @ _KEEP_WEIGHTS[63 ^ (1 << i)]
                    values[rows, TOKEN_REROLL_START + i] = turn.at(m, idx)
