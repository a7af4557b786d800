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

from .base import BaseBot, as_batch

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
_SET_POINTS = np.array([5.0, 3.0, 3.0, 3.0])
_JUNK_UNITS = C.JUNK_UNITS.astype(np.float64)
_JUNK_UNITS[C.CUP] = 2.0  # the cup may count as double junk
# Every card belongs to at most one bonus group: the four sets (0..3), the brights (4), the
# junk units (5); group 6 is "none".  A card's bonus is its group's gain times its weight.
_GROUP = np.full(48, 6)
for _j, _s in enumerate(_SETS):
    _GROUP[list(_s)] = _j
_GROUP[list(C.BRIGHTS)] = 4
_GROUP[_JUNK_UNITS > 0] = 5
_WEIGHT = np.where(_GROUP == 5, _JUNK_UNITS, 1.0)

GO_MAX_OPP_SCORE = 3
GO_MIN_HAND = 2


def _set_counts(own: np.ndarray) -> np.ndarray:
    """(B, 4) cards ``own`` holds of each combination set."""
    return C.popcount(own[:, None] & _SET_MASKS).astype(np.int64)


def _progress(own: np.ndarray, other: np.ndarray) -> np.ndarray:
    """(B, 48) bonus for ``own`` capturing each card: combinations it advances and keeps alive."""
    B = own.shape[0]
    gains = np.zeros((B, 7))
    have = _set_counts(own)
    alive = (other[:, None] & _SET_MASKS) == 0
    gains[:, :4] = np.where(have == 2, _SET_POINTS + 1.0, np.where(have == 1, 1.0, 0.3)) * alive
    b = C.popcount(own & C.M_BRIGHTS).astype(np.int64)
    gains[:, 4] = np.where(b >= 2, 3.0, np.where(b == 1, 0.8, 0.0))
    units = C.popcount(own & C.M_SINGLE_JUNK) + 2 * C.popcount(own & C.M_DOUBLE_JUNK)
    gains[:, 5] = np.where(units >= 7, 0.8, 0.0)
    return gains[:, _GROUP] * _WEIGHT


def _threat(own: np.ndarray, other: np.ndarray) -> np.ndarray:
    """(B, 48) blocking bonus: cards ``own`` (the opponent) needs to complete a combination."""
    B = own.shape[0]
    gains = np.zeros((B, 7))
    near = (_set_counts(own) == 2) & ((other[:, None] & _SET_MASKS) == 0)
    gains[:, :4] = np.where(near, _SET_POINTS, 0.0)
    gains[:, 4] = np.where(C.popcount(own & C.M_BRIGHTS) >= 2, 3.0, 0.0)
    return gains[:, _GROUP] * (_GROUP < 5)


def card_values(view: View) -> np.ndarray:
    """(B, 48) value to the bot of capturing each card."""
    mine = _progress(view.captured_self, view.captured_opp)
    deny = _threat(view.captured_opp, view.captured_self)
    return _BASE[None, :] + mine + 0.8 * deny


def opponent_threat(view: View) -> np.ndarray:
    """(B,) the opponent's score plus 3 for each combination it is one card from completing."""
    opp, me = view.captured_opp, view.captured_self
    near = ((_set_counts(opp) == 2) & ((me[:, None] & _SET_MASKS) == 0)).sum(axis=1)
    near = near + (C.popcount(opp & C.M_BRIGHTS) >= 2)
    return view.score[:, 1] + 3.0 * near


class GoStopGreedyBot(BaseBot):
    """The greedy heuristic described in the module docstring (deterministic)."""

    name = "gostop-greedy"
    game = "gostop"
    go_max_opp_score = GO_MAX_OPP_SCORE  # Go only while the opponent's threat is at most this
    go_min_hand = GO_MIN_HAND  # ... and the bot holds at least this many cards

    def act(self, observation, mask, rng):
        obs, m = as_batch(observation, mask, OBS_SIZE, NUM_ACTIONS)
        return np.argmax(self.scores(obs, m), axis=1).astype(np.int64)

    def scores(self, obs: np.ndarray, m: np.ndarray) -> np.ndarray:
        """(B, A) float64 preference of every action (-inf where illegal); ``act`` takes the
        first maximum.  ``obs`` (B, OBS_SIZE) float32 and ``m`` (B, A) bool, already checked."""
        view = View(obs)
        B = obs.shape[0]
        values = card_values(view)
        scores = np.full((B, m.shape[1]), -np.inf)

        # PLAY: value captured by each hand card, per month of the layout (B, 12, 4).
        vals = values.reshape(B, 12, 4)
        n = C.month_counts(view.layout)  # layout cards of each month
        lay_val = np.where(C.unpack(view.layout).reshape(B, 12, 4), vals, 0.0)
        month_sum = lay_val.sum(axis=2)
        steal = np.where(view.piles[:, 1], 2.0, 1.0) * 1.5  # own ppuk stacks pay 2 junk
        extra = np.select([n == 1, n == 2, n == 3],
                          [month_sum, lay_val.max(axis=2), month_sum + steal], 0.0)
        exposed = C.month_counts(view.unseen) > 0
        placed = -np.where(exposed[:, :, None], 0.6 * vals, 0.0) - 0.01 * vals
        play_score = np.where((n == 0)[:, :, None], placed, vals + extra[:, :, None]).reshape(B, 48)
        scores[:, :48] = np.where(m[:, :48], play_score, -np.inf)

        # HAND_CHOICE / STOCK_CHOICE: the more valuable candidate.
        scores[:, CHOOSE_START:GO] = np.where(m[:, CHOOSE_START:GO], values, -np.inf)

        # GO_STOP.
        hand_left = C.popcount(view.hand).astype(np.int64)
        safe = (opponent_threat(view) <= self.go_max_opp_score) & (hand_left >= self.go_min_hand)
        scores[:, GO] = np.where(m[:, GO] & safe, 1.0, -np.inf)
        scores[:, STOP] = np.where(m[:, STOP], 0.0, -np.inf)
        return scores
