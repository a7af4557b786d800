"""Full Go-Stop states consistent with one seat's observation (determinization).

An observation (:mod:`.observation`) shows everything about a state except which of the
``unseen`` cards are in the opponent's hand and the order of the stock; it gives both
sizes.  :func:`sample_states` rebuilds the known part exactly and deals the unseen cards
uniformly at random: the opponent's hand gets ``hand_size_opp`` of them and the stock the
rest, in random order.  Each sample draws its shuffle from its own counter-based stream
(48 draws), which it keeps for everything it draws later.

The observer sits at seat 0 of every sample and the opponent at seat 1 (the rules treat
the seats alike, so the real seat numbers do not matter); who moves comes from the
observation's "observer is the mover" flag.
"""

from __future__ import annotations

import numpy as np

from ..core import rng
from . import cards as C
from .observation import View
from .scoring import scores
from .state import HAND_CHOICE, STOCK_CHOICE, empty_state

_SHUFFLE_DRAWS = 48
_LAST = np.iinfo(np.uint64).max


def _check(view: View) -> None:
    """``ValueError`` unless the card sets of ``view`` partition the deck and the sizes add up."""
    # The played and flipped cards are off the layout until the turn resolves; at a GO_STOP
    # decision they are already captured or placed.
    pending = (view.decision == HAND_CHOICE) | (view.decision == STOCK_CHOICE)
    in_turn = np.where(pending, C.BIT[view.played] | C.BIT[view.flipped], C.U64(0))
    parts = [view.hand, view.layout, view.captured_self, view.captured_opp, view.unseen, in_turn]
    total = sum(C.popcount(p).astype(np.int64) for p in parts)
    union = np.bitwise_or.reduce(np.stack(parts), axis=0)
    bad = (total != 48) | (union != C.ALL_CARDS)
    bad |= C.popcount(view.unseen) != view.hand_size_opp + view.stock_size
    bad |= (view.hand_size_opp < 0) | (view.stock_size < 0)
    bad |= (view.decision == STOCK_CHOICE) & (view.picked >= 0) & ((view.layout & C.BIT[view.picked]) == 0)
    bad |= view.decision < 0
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        why = ("it is of a finished deal" if view.decision[i] < 0 else
               "its cards do not partition the deck or its hand and stock sizes do not add up")
        raise ValueError(f"observation {i} cannot be turned into states: {why}")


def sample_states(observations: np.ndarray, key: np.ndarray, counter: np.ndarray):
    """``len(key) = B k`` states from (B, OBS_SIZE) ``observations``; returns ``(state, seats)``.

    Sample ``j`` of observation ``i`` is game ``i k + j``, with the stream ``(key, counter)``
    of that row; ``seats`` is all 0 (the observer's seat in every sample).  Raises
    ``ValueError`` for an observation of a finished deal or one whose cards and sizes are
    inconsistent.
    """
    obs = np.asarray(observations, dtype=np.float32)
    B, n = obs.shape[0], key.shape[0]
    if B == 0 or n % B:
        raise ValueError(f"need a whole number of samples per observation, got {n} for {B}")
    view = View(obs)
    _check(view)
    rows = np.repeat(np.arange(B), n // B)

    # A random order of each sample's unseen cards: rank 48 random keys, seen cards last.
    unseen = view.unseen[rows]
    raw = rng.draw_u64(key, counter, _SHUFFLE_DRAWS)
    raw[~C.unpack(unseen)] = _LAST
    order = np.argsort(raw, axis=1, kind="stable")
    n_opp, n_stock = view.hand_size_opp[rows], view.stock_size[rows]
    slot = np.arange(48)[None, :]
    in_opp = slot < n_opp[:, None]
    opp_hand = np.bitwise_or.reduce(np.where(in_opp, C.BIT[order], C.U64(0)), axis=1)
    # The stock is the next n_stock cards of the order, top first.
    stock_slot = np.where(in_opp, 48, slot - n_opp[:, None])  # 48: not in the stock

    s = empty_state(n)
    s.rng_key[:] = key
    s.rng_counter[:] = counter + np.uint64(_SHUFFLE_DRAWS)
    s.hands[:, 0] = view.hand[rows]
    s.hands[:, 1] = opp_hand
    s.layout[:] = view.layout[rows]
    s.captured[:, 0] = view.captured_self[rows]
    s.captured[:, 1] = view.captured_opp[rows]
    stock = np.full((n, 49), -1, np.int8)
    stock[np.arange(n)[:, None], np.where(stock_slot < n_stock[:, None], stock_slot, 48)] = order
    s.stock[:] = stock[:, :48]
    s.stock_end[:] = n_stock
    piles = view.piles[rows]
    s.ppuk_owner[:] = np.where(piles[:, 1], 0, np.where(piles[:, 2], 1, -1))
    s.go_count[:] = view.go_count[rows]
    s.go_score[:] = view.go_score[rows]
    s.ppuk_count[:] = view.ppuk_count[rows]
    s.score[:] = scores(s.captured)
    s.phase[:] = view.decision[rows]
    s.to_move[:] = np.where(view.observer_moves[rows], 0, 1)
    s.played[:] = view.played[rows]
    s.flipped[:] = view.flipped[rows]
    s.hand_pick[:] = view.picked[rows]
    return s, np.zeros(n, dtype=np.int64)
