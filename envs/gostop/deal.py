"""Dealing (§3): orders to states, the redeal / chongtong checks, and the reset loops.

A deal is a permutation ``order`` of the 48 ids and the first player P0 (a seat):
``order[0:10]`` is P0's hand, ``[10:20]`` P1's, ``[20:28]`` the layout and ``[28:48]``
the stock, top first.  Random draws come from each game's counter-based stream
(:mod:`envs.core.rng`) in attempts of 49 draws (a first player, then a shuffle); the
batched reset computes two attempts per game at once, so a redeal or a skipped chongtong
deal rarely costs a second round.
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


ATTEMPT_DRAWS = 49
"""Draws per dealing attempt: one for a first player (ignored when the first player is
kept, after a redeal or when fixed), 48 for the shuffle."""
_SPECULATE = 2  # attempts computed per round; more rounds only when both fail (~0.1 %)


def _attempts(state: GoStopState, rows: np.ndarray, k: int):
    """The next ``k`` attempts of each game ``rows``: ``(first (n, k), orders (n, k, 48))``.

    Attempt ``j`` uses draws ``counter + 49 j ..``; the counters are not advanced here.
    """
    raw = rng.draw_u64(state.rng_key[rows], state.rng_counter[rows], k * ATTEMPT_DRAWS)
    raw = raw.reshape(rows.size, k, ATTEMPT_DRAWS)
    first = (raw[:, :, 0] >> np.uint64(63)).astype(np.int64)  # a uniform bit
    # Ranking 48 random 64-bit values gives a uniform permutation (as rng.draw_permutations;
    # the default sort is faster than a stable one and differs only on exact ties).
    return first, np.argsort(raw[:, :, 1:], axis=2)


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


def random_deals(key, counter, first_player: int | None = None):
    """Fresh playable deals for the streams ``(key, counter)``; returns ``(state, skipped)``.

    See :func:`deal_random_into`; ``skipped[i]`` lists the skipped deals of game ``i``.
    """
    state = blank(np.asarray(key, np.uint64), np.asarray(counter, np.uint64))
    log = deal_random_into(state, np.arange(state.batch_size), first_player)
    return state, [log.get(i, []) for i in range(state.batch_size)]


def deal_random_into(state: GoStopState, rows: np.ndarray, first_player: int | None = None) -> dict:
    """Replace the games ``rows`` of ``state`` by fresh playable deals from their own streams.

    Per game, attempt after attempt (49 draws each): a first player (unless kept or fixed by
    ``first_player``) and a shuffle.  A redeal keeps the first player for the next attempt; a
    chongtong deal is settled and skipped, and the next attempt draws a fresh first player.
    ``state.redeals`` and ``state.skipped`` count what happened; returns ``{row: [results of
    the skipped deals in order]}`` (``{"winner", "payout", "reason"}``) for rows that skipped.
    """
    rows = np.asarray(rows, dtype=np.int64)
    state.redeals[rows] = 0
    state.skipped[rows] = 0
    skipped: dict[int, list[dict]] = {}
    kept = np.zeros(rows.size, dtype=bool)  # the previous attempt was a redeal: keep its first player
    first = np.zeros(rows.size, dtype=np.int64)
    todo = np.arange(rows.size)  # positions in ``rows``
    while todo.size:
        drawn, orders = _attempts(state, rows[todo], _SPECULATE)
        verdicts = classify(orders.reshape(-1, 48)).reshape(todo.size, _SPECULATE)
        chosen = np.full(todo.size, -1)  # the playable attempt of each game, if any
        for j in range(_SPECULATE):
            live = np.flatnonzero(chosen < 0)
            at, outcome = todo[live], verdicts[live, j]
            g = rows[at]
            pick = drawn[live, j] if first_player is None else np.full(at.size, first_player)
            first[at] = np.where(kept[at], first[at], pick)
            state.rng_counter[g] += np.uint64(ATTEMPT_DRAWS)
            redeal = outcome == REDEAL
            state.redeals[g[redeal]] += 1
            kept[at] = redeal
            chong = np.flatnonzero(outcome >= 0)
            for a, who in zip(at[chong], outcome[chong]):
                seat = int(first[a]) if who == 0 else 1 - int(first[a])
                state.skipped[rows[a], seat] += 1
                skipped.setdefault(int(rows[a]), []).append(
                    {"winner": seat, "payout": CHONGTONG_PAYOUT, "reason": "chongtong"})
            chosen[live[outcome == PLAYABLE]] = j
        done = np.flatnonzero(chosen >= 0)
        at = todo[done]
        fill_deals(state, rows[at], orders[done, chosen[done]], first[at], np.full(at.size, PLAYABLE))
        todo = todo[chosen < 0]
    return skipped


def given_deals(orders, first, key, counter) -> GoStopState:
    """Deal the (B, 48) permutations ``orders`` with first players ``first`` (seats).

    A deal that needs a redeal is replaced by the game's next attempt (49 draws, the first
    player kept) until one is not; ``state.redeals`` counts them.  A chongtong deal comes
    back finished.
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
        orders[todo] = _attempts(state, todo, 1)[1][:, 0]
        state.rng_counter[todo] += np.uint64(ATTEMPT_DRAWS)


def check_order(order) -> np.ndarray:
    """A deal order as an int64 array, or ``ValueError`` unless it is a permutation of 0..47."""
    arr = np.asarray(order)
    if arr.dtype == bool or not np.issubdtype(arr.dtype, np.integer) or arr.shape != (48,):
        raise ValueError(f"deal must be a permutation of the 48 card ids, got {order!r}")
    if sorted(arr.tolist()) != list(range(48)):
        raise ValueError("deal must hold every card id 0..47 exactly once")
    return arr.astype(np.int64)
