"""A greedy Go-Stop heuristic (``gostop-greedy``) that reads only its own observation.

Every card gets a value for the bot: its kind (brights and double junk high, plain junk
low), plus a bonus when taking it advances one of the bot's still-open combinations
(brights, godori birds, a ribbon set, the junk count) and a blocking bonus when the
opponent is one card short of a combination it needs that card for.

* PLAY: capture as much value as possible (a dealt triple or ppuk stack counts all four
  cards and the junk it earns); a card that matches nothing is placed, and the bot prefers
  placing cheap cards of months whose other cards are already out of play (so the
  opponent cannot take them).
* HAND_CHOICE / STOCK_CHOICE: the more valuable candidate.
* GO_STOP: Go while it still has cards to play and the opponent is far from 7 points
  and holds no near-complete combination; Stop otherwise.

Deterministic (ties go to the lowest action id), so it can serve as a reproducible opponent.
"""

from __future__ import annotations

import numpy as np

from envs.gostop import cards as C
from envs.gostop.actions import CHOOSE_START, GO, NUM_ACTIONS, STOP
from envs.gostop.observation import OBS_SIZE, View

from .base import Bot, as_batch

_IDS = np.arange(48)
_BASE = np.select(
    [C.KIND == C.BRIGHT, C.KIND == C.ANIMAL, C.KIND == C.RIBBON, C.KIND == C.DOUBLE_JUNK],
    [5.0, 2.5, 2.5, 3.0], 1.0,
)
_BASE[list(C.GODORI)] = 3.5
_BASE[C.CUP] = 3.0
_BASE[46] = 1.5  # the Dec ribbon completes no set

# Combination groups whose third card earns points: godori and the three ribbon sets.
_SETS = [C.GODORI, C.HONGDAN, C.CHEONGDAN, C.CHODAN]
_SET_MASKS = np.array([C.mask_of(s) for s in _SETS], dtype=np.uint64)
_IN_SET = np.array([[c in s for c in range(48)] for s in _SETS])  # (4, 48)
_SET_POINTS = np.array([5.0, 3.0, 3.0, 3.0])
_IS_BRIGHT = C.KIND == C.BRIGHT
_JUNK_UNITS = C.JUNK_UNITS.astype(np.float64)
_JUNK_UNITS[C.CUP] = 2.0  # the cup may count as double junk

GO_MAX_OPP_SCORE = 3
GO_MIN_HAND = 2


def _progress(own: np.ndarray, other: np.ndarray) -> np.ndarray:
    """(B, 48) bonus for ``own`` capturing each card: combinations it advances and keeps alive."""
    B = own.shape[0]
    bonus = np.zeros((B, 48))
    for j, m in enumerate(_SET_MASKS):
        have = C.popcount(own & m).astype(np.int64)
        alive = (other & m) == 0
        gain = np.where(have == 2, _SET_POINTS[j] + 1.0, np.where(have == 1, 1.0, 0.3)) * alive
        bonus += gain[:, None] * _IN_SET[j]
    b = C.popcount(own & C.M_BRIGHTS).astype(np.int64)
    bonus += np.where(b >= 2, 3.0, np.where(b == 1, 0.8, 0.0))[:, None] * _IS_BRIGHT
    units = C.popcount(own & C.M_SINGLE_JUNK) + 2 * C.popcount(own & C.M_DOUBLE_JUNK)
    bonus += np.where(units >= 7, 0.8, 0.0)[:, None] * _JUNK_UNITS
    return bonus


def _threat(own: np.ndarray, other: np.ndarray) -> np.ndarray:
    """(B, 48) blocking bonus: cards ``own`` (the opponent) needs to complete a combination."""
    B = own.shape[0]
    block = np.zeros((B, 48))
    for j, m in enumerate(_SET_MASKS):
        near = (C.popcount(own & m) == 2) & ((other & m) == 0)
        block += np.where(near, _SET_POINTS[j], 0.0)[:, None] * _IN_SET[j]
    b = C.popcount(own & C.M_BRIGHTS)
    block += np.where(b >= 2, 3.0, 0.0)[:, None] * _IS_BRIGHT
    return block


def card_values(view: View) -> np.ndarray:
    """(B, 48) value to the bot of capturing each card."""
    mine = _progress(view.captured_self, view.captured_opp)
    deny = _threat(view.captured_opp, view.captured_self)
    return _BASE[None, :] + mine + 0.8 * deny


def opponent_threat(view: View) -> np.ndarray:
    """(B,) the opponent's score plus 3 for each combination it is one card from completing."""
    opp, me = view.captured_opp, view.captured_self
    near = np.zeros(opp.shape[0])
    for m in _SET_MASKS:
        near += (C.popcount(opp & m) == 2) & ((me & m) == 0)
    near += C.popcount(opp & C.M_BRIGHTS) >= 2
    return view.score[:, 1] + 3.0 * near


class GoStopGreedyBot(Bot):
    """The greedy heuristic described in the module docstring (deterministic)."""

    name = "gostop-greedy"
    game = "gostop"

    def act(self, observation, mask, rng):
        obs, m = as_batch(observation, mask, OBS_SIZE, NUM_ACTIONS)
        view = View(obs)
        B = obs.shape[0]
        values = card_values(view)
        layout = C.unpack(view.layout)
        month_count = layout.reshape(B, 12, 4).sum(axis=2)
        unseen_month = C.unpack(view.unseen).reshape(B, 12, 4).sum(axis=2)
        scores = np.full((B, m.shape[1]), -np.inf)

        # PLAY: value captured by each hand card.
        lay_val = np.where(layout, values, 0.0).reshape(B, 12, 4)
        month_sum = lay_val.sum(axis=2)  # (B, 12)
        month_max = lay_val.max(axis=2)
        n = np.repeat(month_count, 4, axis=1)  # (B, 48) layout cards of each card's month
        steal = np.where(view.piles[:, 1], 2.0, 1.0) * 1.5  # own ppuk stacks pay 2 junk
        gain = np.select(
            [n == 1, n == 2, n == 3],
            [values + np.repeat(month_sum, 4, axis=1),
             values + np.repeat(month_max, 4, axis=1),
             values + np.repeat(month_sum + steal, 4, axis=1)],
            0.0,
        )
        exposed = np.repeat(unseen_month, 4, axis=1) > 0
        placed = -np.where(exposed, 0.6 * values, 0.0) - 0.01 * values
        play_score = np.where(n == 0, placed, gain)
        scores[:, :48] = np.where(m[:, :48], play_score, -np.inf)

        # HAND_CHOICE / STOCK_CHOICE: the more valuable candidate.
        scores[:, CHOOSE_START:GO] = np.where(m[:, CHOOSE_START:GO], values, -np.inf)

        # GO_STOP.
        hand_left = C.popcount(view.hand).astype(np.int64)
        safe = (opponent_threat(view) <= GO_MAX_OPP_SCORE) & (hand_left >= GO_MIN_HAND)
        scores[:, GO] = np.where(m[:, GO] & safe, 1.0, -np.inf)
        scores[:, STOP] = np.where(m[:, STOP], 0.0, -np.inf)
        return np.argmax(scores, axis=1).astype(np.int64)
