"""Dealing (docs/rules/gostop.md §3): orders to states, the redeal / chongtong checks, and the reset loops.

A deal is a permutation ``order`` of the 48 ids and the first player P0 (a seat):
``order[0:10]`` is P0's hand, ``[10:20]`` P1's, ``[20:28]`` the layout and ``[28:48]``
the stock, top first.  Random draws come from each game's counter-based stream
(:mod:`envs.core.rng`) in attempts of 49 draws (a first player, then a shuffle).  The
dealing loops run compiled (:mod:`.kernels`); this module is their Python side.
"""

from __future__ import annotations

import numpy as np

from ..core import rng
from . import kernels as K
from .scoring import CHONGTONG_PAYOUT
from .state import GoStopState, empty_state

PLAYABLE, REDEAL = K.PLAYABLE, K.REDEAL
ATTEMPT_DRAWS = K.ATTEMPT_DRAWS
"""Draws per dealing attempt: one for a first player (ignored when the first player is
kept, after a redeal or when fixed), 48 for the shuffle."""
_FIELD_LAYOUT = [(name, a.dtype, a.shape[1:]) for name, a in empty_state(1)._arrays().items()]
"""(name, dtype, shape without the batch axis) of every ``GoStopState`` field."""
_LOG = 4  # skipped deals logged per game in one pass (more are rare; they take a second pass)


def _buffers():
    return np.empty(48, np.uint64), np.empty(48, np.int64)


def classify(orders: np.ndarray) -> np.ndarray:
    """Setup checks of docs/rules/gostop.md §3.3 for (B, 48) orders: ``REDEAL``, ``PLAYABLE``, or the move-order
    index (0 = P0, 1 = P1) of the player whose hand holds a quad (chongtong)."""
    orders = np.ascontiguousarray(orders, dtype=np.int64)
    out = np.empty(orders.shape[0], np.int64)
    K.classify(orders, out)
    return out


def draw_first(state: GoStopState, rows: np.ndarray) -> np.ndarray:
    """One random first player per game ``rows`` (one draw each)."""
    first = rng.draw_index(state.rng_key[rows], state.rng_counter[rows], 2)
    state.rng_counter[rows] += np.uint64(1)
    return first


def blank(key: np.ndarray, counter: np.ndarray) -> GoStopState:
    """Empty games with the given streams (to be dealt into)."""
    state = empty_state(key.shape[0])
    state.rng_key[:] = key
    state.rng_counter[:] = counter
    return state


def _unwritten(key: np.ndarray, counter: np.ndarray) -> GoStopState:
    """Games with the given streams and every other field left unwritten (``np.empty``), for
    the deal kernels, which write every field of the games they deal."""
    B = key.shape[0]
    arrays = {name: np.empty((B,) + shape, dtype) for name, dtype, shape in _FIELD_LAYOUT}
    arrays["rng_key"][:] = key
    arrays["rng_counter"][:] = counter
    return GoStopState(**arrays)


def _deal_random(state: GoStopState, rows: np.ndarray, first_player: int, log: np.ndarray) -> None:
    K.deal_random(state._buf, rows, first_player, log, *_buffers())


def random_deals(key, counter, first_player: int | None = None):
    """Fresh playable deals for the streams ``(key, counter)``; returns ``(state, skipped)``.

    See :func:`deal_random_into`; ``skipped[i]`` lists the results of the deals game ``i``
    skipped, in order (``{"winner", "payout", "reason"}``).
    """
    state = _unwritten(np.asarray(key, np.uint64), np.asarray(counter, np.uint64))
    B = state.batch_size
    start = state.rng_counter.copy()
    fixed = -1 if first_player is None else int(first_player)
    log = np.empty((B, _LOG), np.int8)
    _deal_random(state, np.arange(B), fixed, log)
    if not np.count_nonzero(state.skipped):
        return state, [[] for _ in range(B)]
    counts = state.skipped.sum(axis=1)
    if counts.max(initial=0) > _LOG:  # replay the games that skipped more, with a longer log
        long = np.flatnonzero(counts > _LOG)
        again = _unwritten(state.rng_key[long], start[long])
        log_long = np.empty((long.size, int(counts.max())), np.int8)
        _deal_random(again, np.arange(long.size), fixed, log_long)
        log = [row for row in log]
        for j, g in enumerate(long):
            log[g] = log_long[j]
    results = [[{"winner": int(seat), "payout": CHONGTONG_PAYOUT, "reason": "chongtong"}
                for seat in log[i][:counts[i]]] for i in range(B)]
    return state, results


def new_games(key, counter) -> GoStopState:
    """Fresh playable deals for the streams ``(key, counter)`` (as :func:`random_deals`)."""
    state = _unwritten(np.asarray(key, np.uint64), np.asarray(counter, np.uint64))
    _deal_random(state, np.arange(state.batch_size), -1, np.empty((state.batch_size, 0), np.int8))
    return state


def deal_random_into(state: GoStopState, rows: np.ndarray, first_player: int | None = None) -> None:
    """Replace the games ``rows`` of ``state`` by fresh playable deals from their own streams.

    Per game, attempt after attempt (49 draws each): a first player (unless kept or fixed by
    ``first_player``) and a shuffle.  A redeal keeps the first player for the next attempt; a
    chongtong deal is settled and skipped, and the next attempt draws a fresh first player.
    ``state.redeals`` and ``state.skipped`` count what happened.
    """
    rows = np.ascontiguousarray(rows, dtype=np.int64)
    fixed = -1 if first_player is None else int(first_player)
    _deal_random(state, rows, fixed, np.empty((rows.size, 0), np.int8))


def given_deals(orders, first, key, counter) -> GoStopState:
    """Deal the (B, 48) permutations ``orders`` with first players ``first`` (seats).

    A deal that needs a redeal is replaced by the game's next attempt (49 draws, the first
    player kept) until one is not; ``state.redeals`` counts them.  A chongtong deal comes
    back finished.
    """
    state = _unwritten(np.asarray(key, np.uint64), np.asarray(counter, np.uint64))
    orders = np.ascontiguousarray(orders, dtype=np.int64)
    first = np.ascontiguousarray(first, dtype=np.int64)
    K.deal_given(state._buf, orders, first, *_buffers())
    return state


def check_order(order) -> np.ndarray:
    """A deal order as an int64 array, or ``ValueError`` unless it is a permutation of 0..47."""
    arr = np.asarray(order)
    if arr.dtype == bool or not np.issubdtype(arr.dtype, np.integer) or arr.shape != (48,):
        raise ValueError(f"deal must be a permutation of the 48 card ids, got {order!r}")
    if sorted(arr.tolist()) != list(range(48)):
        raise ValueError("deal must hold every card id 0..47 exactly once")
    return arr.astype(np.int64)
