"""What a Rainbow Dice turn is worth to the greedy bot: marginal card gains and end-of-turn values.

For one player's holdings (card counts, supply) this computes, per game of a batch:

* ``gain1[h]``: the final score (docs/rules/rainbow_dice.md §7) gained by buying one card of hand ``h``
  now (-inf if its
  pile is empty);
* the best single and the best pair purchase for every distinct satisfied-hands pattern
  (only 765 of them occur among the 46656 dice codes), where a pair is the turn's card
  plus the optional second card: the same hand twice (2 copies left) or two hands, with
  their duplicate and same-rank bonuses interacting exactly.

From these, :func:`end_values` gives the value of ending the dice phase on every dice code
with a given number of tokens: the best of taking tokens, buying one card, or buying two
for 3 tokens, plus ``token_value`` per token kept.  Pure numpy.
"""

from __future__ import annotations

import numpy as np

from envs.rainbow_dice.hands import HAND_RANKS, HAND_SCORES, NUM_HANDS, SATISFIED
from envs.rainbow_dice.scoring import DUP_STEP, NUM_RANKS, RANK_BASES, RANK_ONEHOT, RANK_STEP

SECOND_CARD_PRICE = 3
_PATTERN_KEYS = SATISFIED.astype(np.int64) @ (1 << np.arange(NUM_HANDS, dtype=np.int64))
_keys, PATTERN_OF = np.unique(_PATTERN_KEYS, return_inverse=True)
PATTERNS = ((_keys[:, None] >> np.arange(NUM_HANDS)) & 1).astype(bool)
"""(n, 30) the distinct satisfied-hands vectors; ``PATTERN_OF[code]`` indexes them."""
PATTERN_OF = PATTERN_OF.reshape(-1).astype(np.int64)
del _keys, _PATTERN_KEYS

# Hands grouped by rank, padded to 7 slots (-1 = no hand) for per-rank top-two searches.
_SLOTS = max(np.bincount(HAND_RANKS))
RANK_SLOTS = np.full((NUM_RANKS, _SLOTS), -1, dtype=np.int64)
for _r in range(NUM_RANKS):
    _members = np.flatnonzero(HAND_RANKS == _r)
    RANK_SLOTS[_r, : _members.size] = _members
_SLOT_HAND = np.where(RANK_SLOTS >= 0, RANK_SLOTS, 0)
PATTERN_SLOTS = PATTERNS[:, _SLOT_HAND] & (RANK_SLOTS >= 0)  # (n, 6, 7)
NEG = np.float32(-np.inf)


class Holdings:
    """Marginal gains of one player per game: ``cards`` (G, 30) held, ``supply`` (G, 30) left.

    Counts need only be exact up to 10 (the bonuses stop growing there).  Attributes
    (float32, -inf where a pile cannot provide the card): ``gain1`` (G, 30) one card;
    ``gain_same`` (G, 30) two copies of one hand; ``dup1`` (G, 30) the duplicate part of
    ``gain1``; ``rank1``/``rank2`` (G, 6) the same-rank bonus of one / two more cards.
    """

    def __init__(self, cards, supply):
        cards = np.asarray(cards, dtype=np.int64)
        supply = np.asarray(supply, dtype=np.int64)
        m = np.minimum(cards @ RANK_ONEHOT, 10)  # cards held per rank (the bonus stops at 10)
        n = np.minimum(cards, 5)  # copies held (the duplicate bonus stops at 5)
        self.rank1 = (RANK_STEP[m] * RANK_BASES).astype(np.float32)
        self.rank2 = ((RANK_STEP[m] + RANK_STEP[np.minimum(m + 1, 10)]) * RANK_BASES).astype(np.float32)
        dup1 = (DUP_STEP[n] * HAND_SCORES).astype(np.float32)
        dup2 = ((DUP_STEP[n] + DUP_STEP[np.minimum(n + 1, 5)]) * HAND_SCORES).astype(np.float32)
        self.dup1 = np.where(supply >= 1, dup1, NEG)
        self.gain1 = self.dup1 + self.rank1[:, HAND_RANKS]
        self.gain_same = np.where(supply >= 2, dup2 + self.rank2[:, HAND_RANKS], NEG)

    def take(self, rows) -> "Holdings":
        """The holdings of games ``rows`` only."""
        sub = Holdings.__new__(Holdings)
        for name in ("gain1", "gain_same", "dup1", "rank1", "rank2"):
            setattr(sub, name, getattr(self, name)[rows])
        return sub

    def pattern_values(self) -> tuple[np.ndarray, np.ndarray]:
        """Best single-card and best two-card gain per satisfied-hands pattern, each (G, n)."""
        best1 = np.where(PATTERNS[None], self.gain1[:, None, :], NEG).max(axis=2)
        same = np.where(PATTERNS[None], self.gain_same[:, None, :], NEG).max(axis=2)
        # Per rank, the two best duplicate gains among the pattern's hands of that rank.
        slot_dup = np.where(RANK_SLOTS >= 0, self.dup1[:, _SLOT_HAND], NEG)  # (G, 6, 7)
        v = np.where(PATTERN_SLOTS[None], slot_dup[:, None], NEG)  # (G, n, 6, 7)
        top = -np.partition(-v, 1, axis=3)[..., :2]  # (G, n, 6, 2): best, second best
        two_in_rank = (top[..., 0] + top[..., 1] + self.rank2[:, None, :]).max(axis=2)
        per_rank = top[..., 0] + self.rank1[:, None, :]  # (G, n, 6) best card of each rank
        pr = -np.partition(-per_rank, 1, axis=2)[..., :2]
        across = pr[..., 0] + pr[..., 1]
        best2 = np.maximum(np.maximum(same, two_in_rank), across)
        return best1, best2

    def buy_values(self, satisfied, tokens, token_value) -> np.ndarray:
        """(G, 30) value of buying each hand now (-inf unless satisfied with a copy left),
        including the best optional second card for 3 tokens when ``tokens`` (G,) >= 3."""
        sat = np.asarray(satisfied, dtype=bool)
        first = np.where(sat, self.gain1, NEG)
        # Second card h2 after first h: its gain given h was bought.
        after = np.where(sat[:, None, :], self.gain1[:, None, :], NEG)  # (G, h, h2)
        same_rank = HAND_RANKS[:, None] == HAND_RANKS[None, :]
        extra = np.where(same_rank[None], (self.rank2 - 2 * self.rank1)[:, HAND_RANKS][:, :, None], 0)
        after = after + extra
        idx = np.arange(NUM_HANDS)
        # gain_same is finite only where gain1 is (2 copies left), so no inf - inf arises.
        after[:, idx, idx] = np.where(sat, self.gain_same - np.where(np.isfinite(self.gain1), self.gain1, 0), NEG)
        second = np.maximum(after.max(axis=2) - SECOND_CARD_PRICE * token_value[:, None], 0)
        second = np.where((np.asarray(tokens) >= SECOND_CARD_PRICE)[:, None], second, 0)
        return np.where(np.isfinite(first), first + second, NEG)


def end_values(best1, best2, tokens_left, token_value, take_value) -> np.ndarray:
    """(G, n) value of ending the dice phase on each pattern with ``tokens_left`` (G,) tokens.

    Relative to keeping every token: ``max(take, best single card, best pair - 3 tokens
    if tokens_left >= 3)``; the caller adds ``token_value * tokens_left``.
    """
    v = np.maximum(best1, take_value[:, None])
    pair = best2 - SECOND_CARD_PRICE * token_value[:, None]
    return np.where((tokens_left >= SECOND_CARD_PRICE)[:, None], np.maximum(v, pair), v).astype(np.float32)

