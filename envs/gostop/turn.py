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

Per-seat fields are addressed through ``flat(field)[2 g + seat]`` (:func:`.state.flat`).
The played and flipped cards stay off the layout until ``resolve``, which applies the
whole turn at once from the layout as it was before the turn (every case of §5.2-5.5).
Every function mutates ``state`` in place; those that can end a deal write the terminal
rewards into ``rewards`` ((B, 2) float32).
"""

from __future__ import annotations

import numpy as np

from .cards import BIT, MONTH, MONTH_MASK_OF, U64, popcount
from .scoring import THREE_PPUK_PAYOUT, GO_THRESHOLD, settle, scores, transfer_cards
from .state import GO_STOP, HAND_CHOICE, NAGARI, OVER, PLAY, STOCK_CHOICE, STOP, THREE_PPUK, flat

_ZERO = U64(0)



def play(state, r: np.ndarray, card: np.ndarray) -> np.ndarray:
    """PLAY: the mover plays ``card`` from its hand; returns the rows that go on to flip."""
    flat(state.hands)[2 * r + state.to_move[r]] &= ~BIT[card]
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
    s = np.where(has, flat(state.stock)[48 * r + np.minimum(top, 47)], -1)
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
    me = 2 * r + p  # flat per-seat index of the mover; the opponent's is me ^ 1
    h = state.played[r].astype(np.int64)
    s = state.flipped[r].astype(np.int64)
    L = state.layout[r]
    bh, bs = BIT[h], BIT[s]
    Lh = L & MONTH_MASK_OF[h]
    Ls = L & MONTH_MASK_OF[s]  # empty when nothing was flipped
    n = popcount(Lh)
    k = popcount(Ls)
    same = MONTH[s] == MONTH[h]

    # Case B (flip of another month, or no flip): each card matches on its own.  With
    # 2 candidates the chosen card is taken (a pick is -1, i.e. no card, otherwise);
    # with 1 or 3 the whole month; with 0 the card is placed.
    take_h = np.where(n == 2, BIT[state.hand_pick[r]], Lh)
    add_h = np.where(n == 0, bh, _ZERO)
    take_s = np.where(k == 2, BIT[stock_pick], Ls)
    add_s = np.where(k == 0, bs, _ZERO)
    take = take_h | take_s
    add = add_h | add_s
    gain = take | ((bh ^ add_h) | (bs ^ add_s))
    # Case A (flip of the played card's month): chok (n=0), ppuk (n=1), ttadak (n=2).
    chok = same & (n == 0)
    ppuk = same & (n == 1)
    ttadak = same & (n == 2)
    both = bh | bs
    gain = np.where(same, np.where(ppuk, _ZERO, both | Lh), gain)
    take = np.where(same, np.where(ppuk, _ZERO, Lh), take)
    add = np.where(same, np.where(ppuk, both, _ZERO), add)

    hand_triple = ~same & (n == 3)
    stock_triple = ~same & (k == 3)
    owners = flat(state.ppuk_owner)
    ph, ps = 12 * r + MONTH[h], 12 * r + np.minimum(MONTH[s], 11)
    debt = hand_triple * (1 + (owners[ph] == p)) + stock_triple * (1 + (owners[ps] == p))
    owners[ph[hand_triple]] = -1
    owners[ps[stock_triple]] = -1
    owners[ph[ppuk]] = p[ppuk]

    new_layout = (L & ~take) | add
    state.layout[r] = new_layout
    captured, score = flat(state.captured), flat(state.score)
    captured[me] |= gain
    last = flat(state.hands)[me] == 0  # the mover held one card at the start of the turn
    sweep = (gain != 0) & (new_layout == 0)
    debt = debt + ~last * (chok.astype(np.int64) + ttadak + sweep)

    owes = np.flatnonzero(debt > 0)
    if owes.size:
        payee = me[owes]
        paid = transfer_cards(captured[payee ^ 1], debt[owes])
        captured[payee ^ 1] ^= paid
        captured[payee] |= paid
        score[payee ^ 1] = scores(captured[payee ^ 1])
    gained = me[(gain != 0) | (debt > 0)]
    score[gained] = scores(captured[gained])

    ppuk_count = flat(state.ppuk_count)
    ppuk_count[me] += ppuk
    three = ppuk & (ppuk_count[me] >= 3)
    if three.any():
        _finish(state, r[three], p[three], np.full(int(three.sum()), THREE_PPUK_PAYOUT, np.int64),
                THREE_PPUK, rewards)
    live = ~three
    r, me, last = r[live], me[live], last[live]
    sc = score[me]
    eligible = np.where(flat(state.go_count)[me] == 0, sc >= GO_THRESHOLD, sc > flat(state.go_score)[me])
    state.phase[r[eligible & ~last]] = GO_STOP
    return r[eligible & last], r[~eligible]


def go(state, r: np.ndarray) -> np.ndarray:
    """GO: record the Go and the current score (§8.2); returns ``r`` (their turns end)."""
    me = 2 * r + state.to_move[r]
    flat(state.go_count)[me] += 1
    flat(state.go_score)[me] = flat(state.score)[me]
    return r


def stop(state, r: np.ndarray, rewards: np.ndarray) -> None:
    """STOP (chosen or forced): the mover wins and is paid per §9."""
    if not r.size:
        return
    p = state.to_move[r].astype(np.int64)
    me = 2 * r + p
    captured = flat(state.captured)
    s = settle(captured[me], captured[me ^ 1], flat(state.go_count)[me])
    _finish(state, r, p, s.payout, STOP, rewards)


def end_turn(state, r: np.ndarray, rewards: np.ndarray) -> None:
    """§5.8: nagari when both hands are empty, else pass the turn (to a seat holding cards)."""
    if not r.size:
        return
    state.played[r] = state.hand_pick[r] = state.flipped[r] = -1
    p = state.to_move[r]
    hands = flat(state.hands)
    other_has = hands[(2 * r + p) ^ 1] != 0
    both_empty = ~other_has & (hands[2 * r + p] == 0)
    state.to_move[r] = np.where(other_has, 1 - p, p)
    state.phase[r] = PLAY
    ended = r[both_empty]
    if ended.size:
        _finish(state, ended, np.full(ended.size, -1), np.zeros(ended.size, np.int64), NAGARI, rewards)


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
