"""The turn procedure of spec §5 (pseudocode §5.10) over index sets of a batched state.

A turn runs in stages, each a function over the rows ``r`` (int array) that reach it
(``play``, ``hand_choice``, ``flip``, ``resolve`` and ``go`` return the rows that go on to
the next stage, so the caller runs each stage once per step over all the rows reaching it):

    play ──(2 layout cards of the month)──> HAND_CHOICE ── hand_choice ─┐
      └───────────────────────────────────────────────────────────────┴─> flip
    flip ──(2 layout cards of the flipped month)──> STOCK_CHOICE ── (the pick) ──┐
      └─────────────────────────────────────────────────────────────────────────┴─> resolve(pick)
    resolve ──> three-ppuk end | forced Stop | GO_STOP decision | end_turn
    GO_STOP ── go ──> end_turn;  GO_STOP ── stop ──> settlement

The played and flipped cards stay off the layout until ``resolve``, which applies the
whole turn at once from the layout as it was before the turn (every case of §5.2-5.5).
Every function mutates ``state`` in place; those that can end a deal write the terminal
rewards into ``rewards`` ((B, 2) float32).
"""

from __future__ import annotations

import numpy as np

from .cards import BIT, MONTH, MONTH_MASK_OF, U64, popcount
from .scoring import THREE_PPUK_PAYOUT, GO_THRESHOLD, settle, scores, transfer_cards
from .state import GO_STOP, HAND_CHOICE, NAGARI, OVER, PLAY, STOCK_CHOICE, STOP, THREE_PPUK

_ZERO = U64(0)


def play(state, r: np.ndarray, card: np.ndarray) -> np.ndarray:
    """PLAY: the mover plays ``card`` from its hand; returns the rows that go on to flip."""
    p = state.to_move[r]
    state.hands[r, p] &= ~BIT[card]
    state.played[r] = card
    two = popcount(state.layout[r] & MONTH_MASK_OF[card]) == 2
    state.phase[r[two]] = HAND_CHOICE
    return r[~two]


def hand_choice(state, r: np.ndarray, card: np.ndarray) -> np.ndarray:
    """HAND_CHOICE: the layout card ``card`` pairs with the played card; returns ``r`` (to flip)."""
    state.hand_pick[r] = card
    return r


def flip(state, r: np.ndarray) -> np.ndarray:
    """Flip the top stock card (none when the stock is empty) and match it (§5.3).

    Returns the rows that resolve now (no STOCK_CHOICE needed).
    """
    top = state.stock_top[r].astype(np.int64)
    has = top < state.stock_end[r]
    s = np.where(has, state.stock[r, np.minimum(top, 47)], -1)
    state.stock_top[r] = top + has
    state.flipped[r] = s
    choose = (
        (MONTH[s] != MONTH[state.played[r]])
        & (popcount(state.layout[r] & MONTH_MASK_OF[s]) == 2)
    )
    state.phase[r[choose]] = STOCK_CHOICE
    return r[~choose]


def resolve(state, r: np.ndarray, stock_pick: np.ndarray, rewards: np.ndarray):
    """Apply the turn's captures, ppuk, bonuses and transfer (§5.2-5.6), then check Go/Stop.

    ``stock_pick`` is the layout card chosen for the flipped card (-1 where no choice was
    made).  Eligible movers get the GO_STOP decision; returns the rows that Stop at once
    (eligible on their last turn) and the rows whose turn ends (not eligible).
    """
    p = state.to_move[r].astype(np.int64)
    h = state.played[r].astype(np.int64)
    hp = state.hand_pick[r].astype(np.int64)
    s = state.flipped[r].astype(np.int64)
    sp = np.asarray(stock_pick, dtype=np.int64)
    L = state.layout[r]
    bh, bs = BIT[h], BIT[s]
    Lh = L & MONTH_MASK_OF[h]
    Ls = L & MONTH_MASK_OF[s]  # empty when nothing was flipped
    n = popcount(Lh)
    k = popcount(Ls)
    same = MONTH[s] == MONTH[h]

    # Case B (flip of another month, or no flip): each card matches on its own.
    cap_h = np.where(n == 0, _ZERO, np.where(n == 2, bh | BIT[hp], bh | Lh))
    take_h = np.where(n == 2, BIT[hp], Lh)
    add_h = np.where(n == 0, bh, _ZERO)
    cap_s = np.where(k == 0, _ZERO, np.where(k == 2, bs | BIT[sp], bs | Ls))
    take_s = np.where(k == 2, BIT[sp], Ls)
    add_s = np.where(k == 0, bs, _ZERO)
    gain = cap_h | cap_s
    take = take_h | take_s
    add = add_h | add_s
    # Case A (flip of the played card's month): chok (n=0), ppuk (n=1), ttadak (n=2).
    chok = same & (n == 0)
    ppuk = same & (n == 1)
    ttadak = same & (n == 2)
    gain = np.where(same, np.where(ppuk, _ZERO, bh | bs | Lh), gain)
    take = np.where(same, np.where(ppuk, _ZERO, Lh), take)
    add = np.where(same, np.where(ppuk, bh | bs, _ZERO), add)

    hand_triple = ~same & (n == 3)
    stock_triple = ~same & (k == 3)
    mh, ms = MONTH[h], np.minimum(MONTH[s], 11)
    owner_h = state.ppuk_owner[r, mh]
    owner_s = state.ppuk_owner[r, ms]
    debt = hand_triple * (1 + (owner_h == p)) + stock_triple * (1 + (owner_s == p))
    state.ppuk_owner[r[hand_triple], mh[hand_triple]] = -1
    state.ppuk_owner[r[stock_triple], ms[stock_triple]] = -1
    state.ppuk_owner[r[ppuk], mh[ppuk]] = p[ppuk]

    new_layout = (L & ~take) | add
    state.layout[r] = new_layout
    state.captured[r, p] |= gain
    last = state.hands[r, p] == 0  # the mover held one card at the start of the turn
    sweep = (gain != 0) & (new_layout == 0)
    debt = debt + ~last * (chok.astype(np.int64) + ttadak + sweep)

    owes = np.flatnonzero(debt > 0)
    if owes.size:
        rows, payee = r[owes], p[owes]
        paid = transfer_cards(state.captured[rows, 1 - payee], debt[owes])
        state.captured[rows, 1 - payee] ^= paid
        state.captured[rows, payee] |= paid
        state.score[rows, 1 - payee] = scores(state.captured[rows, 1 - payee])
    gained = (gain != 0) | (debt > 0)
    rows, payee = r[gained], p[gained]
    state.score[rows, payee] = scores(state.captured[rows, payee])

    state.ppuk_count[r, p] += ppuk
    three = ppuk & (state.ppuk_count[r, p] >= 3)
    if three.any():
        _finish(state, r[three], p[three], np.full(int(three.sum()), THREE_PPUK_PAYOUT, np.float64),
                THREE_PPUK, rewards)
    live = ~three
    r, p, last = r[live], p[live], last[live]
    score = state.score[r, p]
    gc = state.go_count[r, p]
    eligible = np.where(gc == 0, score >= GO_THRESHOLD, score > state.go_score[r, p])
    state.phase[r[eligible & ~last]] = GO_STOP
    return r[eligible & last], r[~eligible]


def go(state, r: np.ndarray) -> np.ndarray:
    """GO: record the Go and the current score (§8.2); returns ``r`` (their turns end)."""
    p = state.to_move[r].astype(np.int64)
    state.go_count[r, p] += 1
    state.go_score[r, p] = state.score[r, p]
    return r


def stop(state, r: np.ndarray, rewards: np.ndarray) -> None:
    """STOP (chosen or forced): the mover wins and is paid per §9."""
    if not r.size:
        return
    p = state.to_move[r].astype(np.int64)
    s = settle(state.captured[r, p], state.captured[r, 1 - p], state.go_count[r, p])
    _finish(state, r, p, s.payout, STOP, rewards)


def end_turn(state, r: np.ndarray, rewards: np.ndarray) -> None:
    """§5.8: nagari when both hands are empty, else pass the turn (to a seat holding cards)."""
    if not r.size:
        return
    state.played[r] = state.hand_pick[r] = state.flipped[r] = -1
    hands = state.hands[r]
    p = state.to_move[r]
    both_empty = (hands[:, 0] == 0) & (hands[:, 1] == 0)
    other_has = hands[np.arange(r.size), 1 - p] != 0
    state.to_move[r] = np.where(other_has, 1 - p, p)
    state.phase[r] = PLAY
    ended = r[both_empty]
    if ended.size:
        _finish(state, ended, np.full(ended.size, -1), np.zeros(ended.size), NAGARI, rewards)


def _finish(state, r, winner, payout, reason: int, rewards: np.ndarray) -> None:
    state.done[r] = True
    state.phase[r] = OVER
    state.played[r] = state.hand_pick[r] = state.flipped[r] = -1
    state.winner[r] = winner
    state.payout[r] = payout
    state.reason[r] = reason
    won = winner >= 0
    rw, w, pay = r[won], winner[won], payout[won]
    rewards[rw, w] = pay
    rewards[rw, 1 - w] = -pay
