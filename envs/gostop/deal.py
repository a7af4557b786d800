"""Dealing (§3): orders to states, the redeal / chongtong checks, and the reset loops.

A deal is a permutation ``order`` of the 48 ids and the first player P0 (a seat):
``order[0:10]`` is P0's hand, ``[10:20]`` P1's, ``[20:28]`` the layout and ``[28:48]``
the stock, top first.  Random draws come from each game's counter-based stream
(:mod:`envs.core.rng`): one draw for a first player, 48 for a shuffle.
"""

from __future__ import annotations

import numpy as np

from ..core import rng
from . import cards as C
from .scoring import CHONGTONG_PAYOUT
from .state import CHONGTONG, OVER, GoStopState, empty_state

PLAYABLE, REDEAL = -1, -2
_HAND, _LAYOUT, _STOCK = slice(0, 10), slice(20, 28), slice(28, 48)


def _bits(orders: np.ndarray, part: slice) -> np.ndarray:
    return np.bitwise_or.reduce(C.BIT[orders[:, part]], axis=1)


def classify(orders: np.ndarray) -> np.ndarray:
    """Setup checks of §3.3 for (B, 48) orders: ``REDEAL``, ``PLAYABLE``, or the move-order
    index (0 = P0, 1 = P1) of the player whose hand holds a quad (chongtong)."""
    orders = np.asarray(orders, dtype=np.int64)
    layout_quad = C.has_quad(_bits(orders, _LAYOUT))
    q0 = C.has_quad(_bits(orders, _HAND))
    q1 = C.has_quad(_bits(orders, slice(10, 20)))
    return np.where(layout_quad | (q0 & q1), REDEAL, np.where(q0, 0, np.where(q1, 1, PLAYABLE)))


def fill_deals(state: GoStopState, rows: np.ndarray, orders: np.ndarray, first: np.ndarray,
               outcome: np.ndarray) -> None:
    """Write the deals ``orders`` (first players ``first``) into ``state[rows]``.

    ``outcome`` is :func:`classify`'s verdict (never ``REDEAL`` here): chongtong deals are
    written as finished (winner, payout 5, reason chongtong, ``to_move`` = P0).
    """
    orders = np.asarray(orders, dtype=np.int64)
    first = np.asarray(first, dtype=np.int64)
    n = rows.size
    h_first, h_second = _bits(orders, _HAND), _bits(orders, slice(10, 20))
    hands = np.empty((n, 2), np.uint64)
    hands[np.arange(n), first] = h_first
    hands[np.arange(n), 1 - first] = h_second
    state.hands[rows] = hands
    state.layout[rows] = _bits(orders, _LAYOUT)
    state.captured[rows] = 0
    stock = np.full((n, 48), -1, np.int8)
    stock[:, :20] = orders[:, _STOCK]
    state.stock[rows] = stock
    state.stock_top[rows] = 0
    state.stock_end[rows] = 20
    state.ppuk_owner[rows] = -1
    state.go_count[rows] = 0
    state.go_score[rows] = 0
    state.ppuk_count[rows] = 0
    state.score[rows] = 0
    state.to_move[rows] = first
    state.played[rows] = state.hand_pick[rows] = state.flipped[rows] = -1
    ct = outcome >= 0
    state.done[rows] = ct
    state.phase[rows] = np.where(ct, OVER, 0)
    state.winner[rows] = np.where(ct, np.where(outcome == 0, first, 1 - first), -1)
    state.payout[rows] = np.where(ct, CHONGTONG_PAYOUT, 0)
    state.reason[rows] = np.where(ct, CHONGTONG, 0)


def _shuffle(state: GoStopState, rows: np.ndarray) -> np.ndarray:
    perm = rng.draw_permutations(state.rng_key[rows], state.rng_counter[rows], 48)
    state.rng_counter[rows] += np.uint64(48)
    return perm


def draw_first(state: GoStopState, rows: np.ndarray) -> np.ndarray:
    first = rng.draw_index(state.rng_key[rows], state.rng_counter[rows], 2)
    state.rng_counter[rows] += np.uint64(1)
    return first


def blank(key: np.ndarray, counter: np.ndarray) -> GoStopState:
    state = empty_state(key.shape[0])
    state.rng_key[:] = key
    state.rng_counter[:] = counter
    return state


def random_deals(key, counter, first_player: int | None = None):
    """Fresh playable deals for the streams ``(key, counter)``; returns ``(state, skipped)``.

    Per game: draw a first player (unless ``first_player`` fixes it), shuffle; a redeal
    reshuffles with the same first player; a chongtong deal is settled and skipped, and
    the game deals again with a fresh first player.  ``state.redeals`` and
    ``state.skipped`` count what happened; ``skipped`` lists, per game, the results of
    the skipped deals in order (``{"winner", "payout", "reason"}``).
    """
    state = blank(np.asarray(key, np.uint64), np.asarray(counter, np.uint64))
    B = state.batch_size
    skipped: list[list[dict]] = [[] for _ in range(B)]
    todo = np.arange(B)
    need_first = np.ones(B, dtype=bool)
    first = np.zeros(B, dtype=np.int64)
    while todo.size:
        nf = todo[need_first[todo]]
        if nf.size:
            first[nf] = first_player if first_player is not None else draw_first(state, nf)
            need_first[nf] = False
        orders = _shuffle(state, todo)
        outcome = classify(orders)
        redeal = outcome == REDEAL
        state.redeals[todo[redeal]] += 1
        chong = outcome >= 0
        for i, who in zip(todo[chong], outcome[chong]):
            seat = int(first[i]) if who == 0 else 1 - int(first[i])
            state.skipped[i, seat] += 1
            skipped[i].append({"winner": seat, "payout": CHONGTONG_PAYOUT, "reason": "chongtong"})
        need_first[todo[chong]] = True
        ok = outcome == -1
        fill_deals(state, todo[ok], orders[ok], first[todo[ok]], outcome[ok])
        todo = todo[~ok]
    return state, skipped


def given_deals(orders, first, key, counter) -> GoStopState:
    """Deal the (B, 48) permutations ``orders`` with first players ``first`` (seats).

    A deal that needs a redeal reshuffles from the game's stream (same first player) until
    it does not; ``state.redeals`` counts them.  A chongtong deal comes back finished.
    """
    state = blank(np.asarray(key, np.uint64), np.asarray(counter, np.uint64))
    orders = np.asarray(orders, dtype=np.int64).copy()
    first = np.asarray(first, dtype=np.int64)
    todo = np.arange(state.batch_size)
    while True:
        outcome = classify(orders[todo])
        redeal = outcome == REDEAL
        done = todo[~redeal]
        fill_deals(state, done, orders[done], first[done], outcome[~redeal])
        todo = todo[redeal]
        if not todo.size:
            return state
        state.redeals[todo] += 1
        orders[todo] = _shuffle(state, todo)


def check_order(order) -> np.ndarray:
    """A deal order as an int64 array, or ``ValueError`` unless it is a permutation of 0..47."""
    arr = np.asarray(order)
    if arr.dtype == bool or not np.issubdtype(arr.dtype, np.integer) or arr.shape != (48,):
        raise ValueError(f"deal must be a permutation of the 48 card ids, got {order!r}")
    if sorted(arr.tolist()) != list(range(48)):
        raise ValueError("deal must hold every card id 0..47 exactly once")
    return arr.astype(np.int64)
