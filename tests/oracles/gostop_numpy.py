"""The numpy implementation of Go-Stop's batched rules: the oracle of the compiled core.

This is the vectorized core madang shipped before the rules were compiled
(:mod:`envs.gostop.kernels`): masked array arithmetic over index sets of the batch (the turn
procedure of docs/rules/gostop.md §5 as stages over the rows that reach them, the batched dealing loops and
the observation encoder).  :class:`NumpyGoStop` keeps every public behaviour of
:class:`envs.gostop.GoStop` (it only replaces dealing, masks, steps and observations), so the
differential test steps both with the same seeds and actions and compares everything.

The turn stages (each a function over the rows ``r`` that reach it; ``play``,
``hand_choice``, ``flip``, ``resolve`` and ``go`` return the rows that go on)::

    play ──(2 layout cards of the month)──> HAND_CHOICE ── hand_choice ─┐
      └───────────────────────────────────────────────────────────────┴─> flip
    flip ──(2 layout cards of the flipped month)──> STOCK_CHOICE ── (the pick) ──┐
      └─────────────────────────────────────────────────────────────────────────┴─> resolve(pick)
    resolve ──> three-ppuk end | forced Stop | GO_STOP decision | end_turn
    GO_STOP ── go ──> end_turn;  GO_STOP ── stop ──> settlement
"""

from __future__ import annotations

import numpy as np

from envs.core import rng
from envs.gostop import cards as C
from envs.gostop.actions import CHOOSE_START, GO, NUM_ACTIONS, STOP
from envs.gostop.cards import BIT, MONTH, MONTH_MASK_OF, U64, popcount
from envs.gostop.deal import PLAYABLE, REDEAL, blank
from envs.gostop.observation import OBS_SIZE, OBS_SLICES, _STATS_SCALE, STOCK_SCALE
from envs.gostop.rules import GoStop
from envs.gostop.scoring import CHONGTONG_PAYOUT, GO_THRESHOLD, THREE_PPUK_PAYOUT, scores, settle, transfer_cards
from envs.gostop.state import (
    CHONGTONG, GO_STOP, HAND_CHOICE, NAGARI, OVER, PLAY, STOCK_CHOICE, STOP as STOP_REASON, THREE_PPUK,
    GoStopState, flat,
)

_HAND, _LAYOUT, _STOCK = slice(0, 10), slice(20, 28), slice(28, 48)
_ZERO = U64(0)
_CARDS_END = OBS_SLICES["picked"].stop
_STATS = OBS_SLICES["stats_self"].start
_M_ANIMALS = C.M_ANIMALS_NO_CUP | C.BIT_CUP
_M_TWO_UNITS = C.M_DOUBLE_JUNK | C.BIT_CUP
_PHASE_ONE_HOT = np.eye(5, 4, dtype=np.float32)  # phase -> decision one-hot (OVER -> zeros)


# ------------------------------------------------------------------- dealing
def _bits(orders: np.ndarray, part: slice) -> np.ndarray:
    return np.bitwise_or.reduce(C.BIT[orders[:, part]], axis=1)


def classify(orders: np.ndarray) -> np.ndarray:
    """Setup checks of docs/rules/gostop.md §3.3 for (B, 48) orders: ``REDEAL``, ``PLAYABLE``, or the move-order
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



# ---------------------------------------------------------------- turn stages
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
    """Flip the top stock card (none when the stock is empty) and match it (docs/rules/gostop.md §5.3).

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
    """Apply the turn's captures, ppuk, bonuses and transfer (docs/rules/gostop.md §5.2-5.6), then check Go/Stop.

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
    """GO: record the Go and the current score (docs/rules/gostop.md §8.2); returns ``r`` (their turns end)."""
    me = 2 * r + state.to_move[r]
    flat(state.go_count)[me] += 1
    flat(state.go_score)[me] = flat(state.score)[me]
    return r


def stop(state, r: np.ndarray, rewards: np.ndarray) -> None:
    """STOP (chosen or forced): the mover wins and is paid per docs/rules/gostop.md §9."""
    if not r.size:
        return
    p = state.to_move[r].astype(np.int64)
    me = 2 * r + p
    captured = flat(state.captured)
    s = settle(captured[me], captured[me ^ 1], flat(state.go_count)[me])
    _finish(state, r, p, s.payout, STOP_REASON, rewards)


def end_turn(state, r: np.ndarray, rewards: np.ndarray) -> None:
    """docs/rules/gostop.md §5.8: nagari when both hands are empty, else pass the turn (to a seat holding cards)."""
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


# ---------------------------------------------------------------- observation
def encode(state, seats: np.ndarray) -> np.ndarray:
    """(B, OBS_SIZE) float32 observations of ``state`` from ``seats`` ((B,) ints)."""
    B = state.batch_size
    ar = np.arange(B)
    me = np.asarray(seats, dtype=np.int64)
    mine = 2 * ar + me  # flat per-seat indices (see state.flat); the opponent's is mine ^ 1
    hands, captured = flat(state.hands), flat(state.captured)
    hand = hands[mine]
    cap_me, cap_op = captured[mine], captured[mine ^ 1]
    played, flipped, picked = C.BIT[state.played], C.BIT[state.flipped], C.BIT[state.hand_pick]
    visible = hand | state.layout | cap_me | cap_op | played | flipped
    boards = np.empty((B, 8), dtype="<u8")
    boards[:, 0] = hand
    boards[:, 1] = state.layout
    boards[:, 2] = cap_me
    boards[:, 3] = cap_op
    boards[:, 4] = ~visible & C.ALL_CARDS
    boards[:, 5] = played
    boards[:, 6] = flipped
    boards[:, 7] = picked
    bits = np.unpackbits(boards.view(np.uint8), bitorder="little").reshape(B, 8, 64)
    obs = np.empty((B, OBS_SIZE), dtype=np.float32)
    obs_cards = obs[:, :_CARDS_END].reshape(B, 8, 48)  # a view: splits one contiguous axis
    obs_cards[...] = bits[:, :, :48]

    piles = OBS_SLICES["piles"]
    obs[:, piles] = 0.0
    rows = np.flatnonzero(C.has_triple(state.layout))  # every pile is a 3-card month
    if rows.size:
        owner, m = state.ppuk_owner[rows], me[rows, None]
        obs[rows, piles] = np.concatenate(
            [(C.month_counts(state.layout[rows]) == 3) & (owner < 0), owner == m, owner == 1 - m],
            axis=1,
        )

    done = state.done
    dec = obs[:, OBS_SLICES["decision"]]
    dec[:, :4] = _PHASE_ONE_HOT[state.phase]
    dec[:, 4] = (state.to_move == me) & ~done
    left = popcount(hands[2 * ar + state.to_move])
    dec[:, 5] = ~done & (left == (state.phase == 0))

    # Per-seat numbers in seat order, gathered into (self, opp) order, scaled and clipped.
    cap = state.captured
    per_seat = np.stack(
        [popcount(state.hands), state.go_count, state.go_score, state.ppuk_count, state.score,
         popcount(cap & C.M_BRIGHTS), popcount(cap & _M_ANIMALS), popcount(cap & C.M_RIBBONS),
         popcount(cap & C.M_SINGLE_JUNK) + 2 * popcount(cap & _M_TWO_UNITS)],
        axis=2,
    ).astype(np.float32).reshape(2 * B, 9)
    rel = np.take(per_seat, np.stack([mine, mine ^ 1], axis=1).reshape(-1), axis=0).reshape(B, 18)
    np.minimum(rel * _STATS_SCALE, np.float32(1.0), out=obs[:, _STATS:_STATS + 18])
    stock_left = (state.stock_end - state.stock_top).astype(np.float32)
    obs[:, OBS_SLICES["stock"].start] = np.minimum(stock_left * np.float32(1 / STOCK_SCALE), np.float32(1.0))
    return obs


class NumpyGoStop(GoStop):
    """Go-Stop with the numpy core (the oracle); same API, configuration and results."""

    def new_games(self, key, counter):
        return random_deals(key, counter)[0]

    def _reset_rows(self, state, rows):
        deal_random_into(state, rows)

    def _given_deals(self, orders, first, key, counter):
        return given_deals(orders, first, key, counter)

    def _random_deals(self, key, counter, first_player=None):
        return random_deals(key, counter, first_player=first_player)

    def _legal_mask(self, state):
        B = state.batch_size
        ph = state.phase
        mover_hand = flat(state.hands)[2 * np.arange(B) + state.to_move]
        choose_from = state.layout & C.MONTH_MASK_OF[np.where(ph == HAND_CHOICE, state.played, state.flipped)]
        is_play = ph == PLAY
        is_choice = (ph == HAND_CHOICE) | (ph == STOCK_CHOICE)
        bits = C.unpack(np.where(is_play, mover_hand, np.where(is_choice, choose_from, C.U64(0))))
        mask = np.empty((B, NUM_ACTIONS), dtype=bool)
        np.logical_and(bits, is_play[:, None], out=mask[:, :CHOOSE_START])
        np.logical_and(bits, is_choice[:, None], out=mask[:, CHOOSE_START:GO])
        mask[:, GO] = mask[:, STOP] = ph == GO_STOP
        return mask

    # ----------------------------------------------------------------- step
    def _apply(self, state, actions):
        return self._apply_rows(state, np.arange(state.batch_size), actions)

    def _apply_rows(self, state, rows, actions):
        # The turn stages work on row sets, so a subset of games is stepped in place.
        rewards = np.zeros((state.batch_size, 2), dtype=np.float32)
        ph = state.phase[rows]
        r_play, r_hand, r_stock, r_gs = (
            rows[ph == k] for k in (PLAY, HAND_CHOICE, STOCK_CHOICE, GO_STOP)
        )
        a_play, a_hand, a_stock, a_gs = (
            actions[ph == k] for k in (PLAY, HAND_CHOICE, STOCK_CHOICE, GO_STOP)
        )
        to_flip = play(state, r_play, a_play)
        if r_hand.size:
            to_flip = np.concatenate([to_flip, hand_choice(state, r_hand, a_hand - CHOOSE_START)])
        to_resolve = flip(state, to_flip)
        picks = np.full(to_resolve.size, -1, np.int64)
        if r_stock.size:
            to_resolve = np.concatenate([to_resolve, r_stock])
            picks = np.concatenate([picks, a_stock - CHOOSE_START])
        to_stop, to_end = resolve(state, to_resolve, picks, rewards)
        if r_gs.size:
            going = a_gs == GO
            to_end = np.concatenate([to_end, go(state, r_gs[going])])
            to_stop = np.concatenate([to_stop, r_gs[~going]])
        stop(state, to_stop, rewards)
        end_turn(state, to_end, rewards)
        return rewards[rows]

    def _observe(self, state, seats):
        return encode(state, self.observer_seats(state, seats))


ORACLE = NumpyGoStop
"""The oracle class (what ``madang bench`` and the differential test look up)."""
