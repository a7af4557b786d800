"""Go-Stop's compiled rules: deals, legal masks, steps and observations (numba kernels).

Each exported kernel is a loop over the batch calling scalar code for one game, which reads
the ``GoStopState`` arrays (see :mod:`envs.gostop.state`) and writes them in place; card sets
are uint64 bitboards (:mod:`envs.gostop.cards`).  The pattern every game follows is described
in :mod:`envs.core.kernels`; :class:`envs.gostop.rules.GoStop` is the Python API on top.

The kernels take the state as its one buffer (:mod:`envs.core.state`) and read its arrays
through :func:`unpack`; the scalar rules take the unpacked :class:`Arrays` ``s``.

Draws: a dealing attempt takes 49 draws from the game's stream: the top bit of the first is
the first player (ignored when it is kept or fixed), the ranks of the next 48 the shuffle.
The step draws nothing.
"""

from __future__ import annotations

import collections

import numpy as np

from ..core.kernels import (
    block, dims, draw_permutation, draw_u64, jit_disabled, kernel, mask_all, observe_all, step_all, step_rows_all,
)
from ..core.state import HEADER
from . import cards as C
from . import observation as O
from . import scoring as S
from .actions import CHOOSE_START, GO, STOP
from .state import CHONGTONG, GO_STOP, HAND_CHOICE, NAGARI, OVER, PLAY, STOCK_CHOICE, THREE_PPUK
from .state import STOP as STOP_REASON

Arrays = collections.namedtuple("Arrays", "to_move done key counter hands layout captured stock stock_top "
                                "stock_end ppuk_owner go_count go_score ppuk_count score phase played hand_pick "
                                "flipped winner payout reason redeals skipped")
"""The arrays of a Go-Stop state inside a kernel (the ``GoStopState`` fields, in order)."""


@kernel(inline=True)
def unpack(buf):
    """The :class:`Arrays` views of a ``GoStopState`` buffer (its layout: :mod:`envs.core.state`)."""
    B, _ = dims(buf)
    to_move, o = block(buf, HEADER, B, 1, np.int8)
    done, o = block(buf, o, B, 1, np.bool_)
    key, o = block(buf, o, B, 8, np.uint64)
    counter, o = block(buf, o, B, 8, np.uint64)
    hands, o = block(buf, o, 2 * B, 8, np.uint64)
    layout, o = block(buf, o, B, 8, np.uint64)
    captured, o = block(buf, o, 2 * B, 8, np.uint64)
    stock, o = block(buf, o, 48 * B, 1, np.int8)
    stock_top, o = block(buf, o, B, 1, np.int8)
    stock_end, o = block(buf, o, B, 1, np.int8)
    ppuk_owner, o = block(buf, o, 12 * B, 1, np.int8)
    go_count, o = block(buf, o, 2 * B, 2, np.int16)
    go_score, o = block(buf, o, 2 * B, 2, np.int16)
    ppuk_count, o = block(buf, o, 2 * B, 1, np.int8)
    score, o = block(buf, o, 2 * B, 2, np.int16)
    phase, o = block(buf, o, B, 1, np.int8)
    played, o = block(buf, o, B, 1, np.int8)
    hand_pick, o = block(buf, o, B, 1, np.int8)
    flipped, o = block(buf, o, B, 1, np.int8)
    winner, o = block(buf, o, B, 1, np.int8)
    payout, o = block(buf, o, B, 8, np.int64)
    reason, o = block(buf, o, B, 1, np.int8)
    redeals, o = block(buf, o, B, 2, np.int16)
    skipped, o = block(buf, o, 2 * B, 2, np.int16)
    return Arrays(to_move, done, key, counter, hands.reshape((B, 2)), layout, captured.reshape((B, 2)),
                  stock.reshape((B, 48)), stock_top, stock_end, ppuk_owner.reshape((B, 12)), go_count.reshape((B, 2)),
                  go_score.reshape((B, 2)), ppuk_count.reshape((B, 2)), score.reshape((B, 2)), phase, played,
                  hand_pick, flipped, winner, payout, reason, redeals, skipped.reshape((B, 2)))

PLAYABLE, REDEAL = -1, -2  # setup verdicts besides the chongtong seat (0 = P0, 1 = P1)
ATTEMPT_DRAWS = 49

# Tables and constants (frozen into the compiled code).
_BIT = C.BIT
_MONTH = C.MONTH
_MONTH_MASK_OF = C.MONTH_MASK_OF
_BYTES = S._BYTE_TABLES
_BRIGHT_PTS = S._BRIGHT_PTS
_RIBBON_PTS = S._RIBBON_PTS
_REST_PTS = S._REST_PTS
_REST_ANIMALS = S._REST_ANIMALS
_REST_JUNK_PTS = S._REST_JUNK_PTS
_STATS_SCALE = O._STATS_SCALE
_STOCK_SCALE = np.float32(1 / O.STOCK_SCALE)
_ONE_F = np.float32(1.0)
_ALL = C.ALL_CARDS
_M_SINGLE = C.M_SINGLE_JUNK
_M_DOUBLE = C.M_DOUBLE_JUNK
_M_BRIGHTS = C.M_BRIGHTS
_M_ANIMALS = C.M_ANIMALS_NO_CUP | C.BIT_CUP
_M_RIBBONS = C.M_RIBBONS
_M_TWO_UNITS = C.M_DOUBLE_JUNK | C.BIT_CUP
_BIT_CUP, _BIT_41, _BIT_47 = C.BIT_CUP, C.BIT_41, C.BIT_47
_NIBBLE_LOW = C._NIBBLE_LOW
_Z, _U1, _U2, _U3, _U4 = (np.uint64(v) for v in (0, 1, 2, 3, 4))
_U8, _U15, _U63, _U255 = np.uint64(8), np.uint64(15), np.uint64(63), np.uint64(255)
_M5, _M3 = np.uint64(0x5555555555555555), np.uint64(0x3333333333333333)
_M0F, _H01 = np.uint64(0x0F0F0F0F0F0F0F0F), np.uint64(0x0101010101010101)
_S56 = np.uint64(56)
_PILES = O.OBS_SLICES["piles"].start
_DECISION = O.OBS_SLICES["decision"].start
_STATS = O.OBS_SLICES["stats_self"].start
_STOCK = O.OBS_SLICES["stock"].start
_NUM_STATS = len(O.STAT_NAMES)
_BYTE_BITS = ((np.arange(256)[:, None] >> np.arange(8)[None, :]) & 1).astype(np.float32)
"""(256, 8) float32: the eight bits of each byte, lowest first (card ids 8 j .. 8 j + 7)."""


# ------------------------------------------------------------------ card sets
if jit_disabled():  # numba's intrinsics cannot run as Python (NUMBA_DISABLE_JIT=1, for debugging)
    def trailing_zeros(x):
        """The index of the lowest set bit of ``x`` (not 0): the pure-Python stand-in of
        numba's ``trailing_zeros`` intrinsic."""
        x = int(x)
        return (x & -x).bit_length() - 1
else:
    from numba.cpython.unsafe.numbers import trailing_zeros


@kernel(inline=True)
def popcount(x):
    """Number of cards in the set ``x`` (int64)."""
    x = np.uint64(x)
    x = x - ((x >> _U1) & _M5)
    x = (x & _M3) + ((x >> _U2) & _M3)
    x = (x + (x >> _U4)) & _M0F
    return np.int64((x * _H01) >> _S56)


@kernel(inline=True)
def has_quad(x):
    """True when the set ``x`` holds all four cards of some month."""
    return (x & (x >> _U1) & (x >> _U2) & (x >> _U3) & _NIBBLE_LOW) != _Z


@kernel(inline=True)
def month_count(x, m):
    """How many cards of month index ``m`` (0..11) the set ``x`` holds."""
    return popcount((x >> np.uint64(4 * m)) & _U15)


@kernel(inline=True)
def _packed_counts(x):
    """The packed category counters of the set ``x`` (see :mod:`envs.gostop.scoring`)."""
    p = np.int64(0)
    for j in range(6):
        p += _BYTES[j, np.int64((x >> np.uint64(8 * j)) & _U255)]
    return p


@kernel(inline=True)
def score_of(x):
    """The combination score of the captured set ``x`` (docs/rules/gostop.md §7, cup rule included)."""
    p = _packed_counts(x)
    return np.int64(_BRIGHT_PTS[p & 15]) + _RIBBON_PTS[(p >> 4) & 1023] + _REST_PTS[p >> 14]


@kernel(inline=True)
def settle_payout(winner_set, loser_set, go_count):
    """The Stop payout of docs/rules/gostop.md §9.1-9.2 (int64, exact for Go counts up to ``GO_BUDGET``)."""
    p = _packed_counts(winner_set)
    bright = np.int64(_BRIGHT_PTS[p & 15])
    rest = p >> 14
    base = bright + _RIBBON_PTS[(p >> 4) & 1023] + _REST_PTS[rest]
    g = np.int64(go_count)
    value = base + g if g <= 2 else base << (g - 2)
    baks = 0
    if bright > 0 and (loser_set & _M_BRIGHTS) == _Z:
        baks += 1  # gwang-bak
    if _REST_ANIMALS[rest] >= 7:
        baks += 1  # meong-bak
    protect = popcount(loser_set & _M_SINGLE) + 2 * popcount(loser_set & _M_DOUBLE)
    if (loser_set & _BIT_CUP) != _Z:
        protect += 2
    if _REST_JUNK_PTS[rest] > 0 and protect < 5:
        baks += 1  # pi-bak
    return value << baks


@kernel(inline=True)
def transfer_cards(payer, debt):
    """The junk the payer hands over for ``debt`` units: singles in id order, then 41, then 47
    (docs/rules/gostop.md §6)."""
    singles = payer & _M_SINGLE
    taken = _Z
    owed = debt
    while owed > 0 and singles != _Z:
        low = singles & (~singles + _U1)
        taken |= low
        singles ^= low
        owed -= 1
    if owed > 0 and (payer & _BIT_41) != _Z:
        taken |= _BIT_41
        owed -= 2
    if owed > 0 and (payer & _BIT_47) != _Z:
        taken |= _BIT_47
        owed -= 2
    return taken


@kernel(inline=True)
def _cards_of(order, start, stop):
    s = _Z
    for j in range(start, stop):
        s |= _BIT[order[j]]
    return s


@kernel(inline=True)
def classify_order(order):
    """Setup checks of docs/rules/gostop.md §3.3 for one order: ``REDEAL``, ``PLAYABLE`` or the chongtong player
    (0 = P0, 1 = P1)."""
    q0 = has_quad(_cards_of(order, 0, 10))
    q1 = has_quad(_cards_of(order, 10, 20))
    if has_quad(_cards_of(order, 20, 28)) or (q0 and q1):
        return REDEAL
    if q0:
        return 0
    if q1:
        return 1
    return PLAYABLE


@kernel
def classify(orders, out):
    """``out[i]``: :func:`classify_order` of each row of the (B, 48) ``orders``."""
    for i in range(orders.shape[0]):
        out[i] = classify_order(orders[i])


# ---------------------------------------------------------------------- deals
@kernel
def _fill(i, order, first, outcome, s):
    """Write the deal ``order`` (first player ``first``) into game ``i``; ``outcome`` is its
    :func:`classify_order` verdict (never ``REDEAL``): a chongtong deal is written finished."""
    (to_move, done, _, _, hands, layout, captured, stock, stock_top, stock_end, ppuk_owner, go_count, go_score,
     ppuk_count, score, phase, played, hand_pick, flipped, winner, payout, reason, _, _) = s
    hands[i, first] = _cards_of(order, 0, 10)
    hands[i, 1 - first] = _cards_of(order, 10, 20)
    layout[i] = _cards_of(order, 20, 28)
    for seat in range(2):
        captured[i, seat] = _Z
        go_count[i, seat] = 0
        go_score[i, seat] = 0
        ppuk_count[i, seat] = 0
        score[i, seat] = 0
    for j in range(20):
        stock[i, j] = order[28 + j]
    for j in range(20, 48):
        stock[i, j] = -1
    stock_top[i] = 0
    stock_end[i] = 20
    for m in range(12):
        ppuk_owner[i, m] = -1
    to_move[i] = first
    played[i] = -1
    hand_pick[i] = -1
    flipped[i] = -1
    if outcome >= 0:  # chongtong
        done[i] = True
        phase[i] = OVER
        winner[i] = first if outcome == 0 else 1 - first
        payout[i] = S.CHONGTONG_PAYOUT
        reason[i] = CHONGTONG
    else:
        done[i] = False
        phase[i] = PLAY
        winner[i] = -1
        payout[i] = 0
        reason[i] = 0


@kernel
def deal_random(buf, rows, first_player, log, scratch, order):
    """Deal fresh playable games into the games ``rows`` from their own streams (docs/rules/gostop.md §3).

    Per game, attempt after attempt (49 draws each): a first player (unless kept, or fixed by
    ``first_player`` >= 0) and a shuffle.  A redeal keeps the first player for the next
    attempt; a chongtong deal is counted in ``skipped`` and dealt again with a fresh first
    player.  ``log[j, k]`` gets the winner of the ``k``-th deal that ``rows[j]`` skipped (while
    ``k < log.shape[1]``).  ``scratch`` (48,) uint64 and ``order`` (48,) int64 are work buffers.
    """
    s = unpack(buf)
    key, counter, redeals, skipped = s.key, s.counter, s.redeals, s.skipped
    for j in range(rows.shape[0]):
        i = rows[j]
        redeals[i] = 0
        skipped[i, 0] = 0
        skipped[i, 1] = 0
        kept = False
        first = 0
        n_skipped = 0
        while True:
            c = counter[i]
            drawn = np.int64(draw_u64(key[i], c) >> _U63)
            draw_permutation(key[i], c + _U1, scratch, order)
            outcome = classify_order(order)
            if not kept:
                first = drawn if first_player < 0 else first_player
            counter[i] = c + np.uint64(ATTEMPT_DRAWS)
            kept = outcome == REDEAL
            if kept:
                redeals[i] += 1
            elif outcome >= 0:
                seat = first if outcome == 0 else 1 - first
                skipped[i, seat] += 1
                if n_skipped < log.shape[1]:
                    log[j, n_skipped] = seat
                n_skipped += 1
            else:
                _fill(i, order, first, PLAYABLE, s)
                break


@kernel
def deal_given(buf, orders, first, scratch, order):
    """Deal the (B, 48) ``orders`` with first players ``first`` into the games ``0..B-1``.

    A deal that needs a redeal is replaced by the game's next attempt (49 draws, the first
    player kept) until one is not; ``redeals`` counts them (``skipped`` is zeroed).  A
    chongtong deal is written finished.
    """
    s = unpack(buf)
    key, counter, redeals, skipped = s.key, s.counter, s.redeals, s.skipped
    for i in range(orders.shape[0]):
        redeals[i] = 0
        skipped[i, 0] = 0
        skipped[i, 1] = 0
        for j in range(48):
            order[j] = orders[i, j]
        while True:
            outcome = classify_order(order)
            if outcome != REDEAL:
                _fill(i, order, first[i], outcome, s)
                break
            redeals[i] += 1
            draw_permutation(key[i], counter[i] + _U1, scratch, order)
            counter[i] += np.uint64(ATTEMPT_DRAWS)


# ---------------------------------------------------------------------- masks
@kernel(inline=True)
def legal_cards(ph, hand, layout, played, flipped):
    """The legal card actions of one game as ``(cards, base)``: action ``base + c`` for each card
    ``c`` of the set ``cards`` (the mover's ``hand`` at PLAY; the layout cards of the played or
    flipped card's month at HAND_CHOICE / STOCK_CHOICE; none at GO_STOP and once over)."""
    if ph == PLAY:
        return hand, 0
    if ph == HAND_CHOICE:
        return layout & _MONTH_MASK_OF[played], CHOOSE_START
    if ph == STOCK_CHOICE:
        return layout & _MONTH_MASK_OF[flipped], CHOOSE_START
    return _Z, 0


@kernel(inline=True)
def mask_one(i, s, row):
    """Fill ``row`` (98,) with the legal actions of game ``i``'s pending decision (all False
    once over): the per-game body of :func:`legal_mask` (``s``: :func:`unpack`)."""
    phase, to_move, hands, layout, played, flipped = s.phase, s.to_move, s.hands, s.layout, s.played, s.flipped
    row[:] = False
    ph = phase[i]
    if ph == GO_STOP:
        row[GO] = True
        row[STOP] = True
        return
    x, base = legal_cards(ph, hands[i, to_move[i]], layout[i], played[i], flipped[i])
    while x != _Z:
        row[base + trailing_zeros(x)] = True
        x &= x - _U1


@kernel
def legal_mask(buf, out):
    """Fill ``out`` (B, 98) with the legal actions of the pending decision (all False once over)."""
    mask_all(mask_one, unpack(buf), out)


# ----------------------------------------------------------------------- step
# What a resolved turn leads to (:func:`_resolve`).
_END_TURN, _STOP_NOW, _DECIDE, _THREE_PPUK = range(4)


@kernel(inline=True)
def _resolve(i, stock_pick, st):
    """Apply the turn's captures, ppuk, bonuses and transfer (docs/rules/gostop.md §5.2-5.6) to game ``i``; returns
    what follows (docs/rules/gostop.md §8): ``_THREE_PPUK``, ``_STOP_NOW`` (eligible on the last turn), ``_DECIDE``
    (the Go/Stop decision) or ``_END_TURN`` (not eligible).

    The played card and the flipped one (none when the stock was empty) are off the layout;
    ``stock_pick`` is the layout card chosen for the flipped card (-1 when none was chosen);
    ``st``: :func:`unpack`.
    """
    to_move, hands, layout, captured, ppuk_owner = st.to_move, st.hands, st.layout, st.captured, st.ppuk_owner
    go_count, go_score, ppuk_count, score = st.go_count, st.go_score, st.ppuk_count, st.score
    played, hand_pick, flipped = st.played, st.hand_pick, st.flipped
    p = to_move[i]
    q = 1 - p
    h, s = played[i], flipped[i]
    L = layout[i]
    bh, bs = _BIT[h], _BIT[s]
    Lh, Ls = L & _MONTH_MASK_OF[h], L & _MONTH_MASK_OF[s]
    n, k = popcount(Lh), popcount(Ls)
    mh, ms = _MONTH[h], _MONTH[s]
    debt = 0
    ppuk = bonus = False
    if ms == mh:  # the flip is of the played card's month: chok (n=0), ppuk (n=1), ttadak (n=2)
        if n == 1:
            ppuk = True
            gain, take, add = _Z, _Z, bh | bs
        else:
            bonus = True
            gain, take, add = bh | bs | Lh, Lh, _Z
    else:  # each card matches on its own: 2 candidates -> the chosen one, 1 or 3 -> all, 0 -> placed
        take_h = _BIT[hand_pick[i]] if n == 2 else Lh
        add_h = bh if n == 0 else _Z
        take_s = _BIT[stock_pick] if k == 2 else Ls
        add_s = bs if k == 0 else _Z
        take, add = take_h | take_s, add_h | add_s
        gain = take | (bh ^ add_h) | (bs ^ add_s)
        if n == 3:  # a triple: 1 junk, 2 for one's own ppuk stack
            debt += 2 if ppuk_owner[i, mh] == p else 1
        if k == 3:
            debt += 2 if ppuk_owner[i, ms] == p else 1
        if n == 3:
            ppuk_owner[i, mh] = -1
        if k == 3:
            ppuk_owner[i, ms] = -1
    if ppuk:
        ppuk_owner[i, mh] = p
    new_layout = (L & ~take) | add
    layout[i] = new_layout
    captured[i, p] |= gain
    last = hands[i, p] == _Z  # the mover held one card at the start of the turn
    if not last:  # chok, ttadak and sweep bonuses
        if bonus:
            debt += 1
        if gain != _Z and new_layout == _Z:
            debt += 1
    if debt > 0:
        paid = transfer_cards(captured[i, q], debt)
        captured[i, q] ^= paid
        captured[i, p] |= paid
        score[i, q] = score_of(captured[i, q])
    if gain != _Z or debt > 0:
        score[i, p] = score_of(captured[i, p])
    if ppuk:
        ppuk_count[i, p] += 1
        if ppuk_count[i, p] >= 3:
            return _THREE_PPUK
    sc = score[i, p]
    eligible = sc >= S.GO_THRESHOLD if go_count[i, p] == 0 else sc > go_score[i, p]
    if not eligible:
        return _END_TURN
    return _STOP_NOW if last else _DECIDE


@kernel(inline=True)
def step_one(i, a, r, st, rewards, cfg):
    """Apply the legal action ``a`` to game ``i`` (``st``: :func:`unpack`); its rewards go to row
    ``r`` of ``rewards`` (written only when the deal ends; a finished game is left untouched):
    the per-game body of :func:`step` and :func:`step_rows`, for compiled callers (a play-out)
    too.  ``cfg`` is unused (Go-Stop has one reward mode).

    PLAY (or a HAND_CHOICE) is followed by the flip of the top stock card, unless a choice is
    pending; the turn resolves once both cards are matched; then the mover decides Go/Stop,
    stops, or the turn ends (docs/rules/gostop.md §5.10).
    """
    (to_move, done, _, _, hands, layout, captured, stock, stock_top, stock_end, ppuk_owner, go_count, go_score,
     ppuk_count, score, phase, played, hand_pick, flipped, winner, payout, reason, _, _) = st
    ph = phase[i]
    p = to_move[i]
    if ph == GO_STOP:
        if a == GO:  # record the Go and the current score (docs/rules/gostop.md §8.2)
            go_count[i, p] += 1
            go_score[i, p] = score[i, p]
            nxt = _END_TURN
        else:
            nxt = _STOP_NOW
    else:
        pick = -1
        if ph == STOCK_CHOICE:
            pick = a - CHOOSE_START
        else:
            if ph == PLAY:
                hands[i, p] &= ~_BIT[a]
                played[i] = a
                if popcount(layout[i] & _MONTH_MASK_OF[a]) == 2:
                    phase[i] = HAND_CHOICE
                    return
            elif ph == HAND_CHOICE:
                hand_pick[i] = a - CHOOSE_START
            else:  # over: a finished game is left as it is (as the numpy core did with check=False)
                return
            # Flip the top stock card (none when the stock is empty) and match it (docs/rules/gostop.md §5.3).
            top = stock_top[i]
            s = -1
            if top < stock_end[i]:
                s = stock[i, top]
                stock_top[i] = top + 1
            flipped[i] = s
            if _MONTH[s] != _MONTH[played[i]] and popcount(layout[i] & _MONTH_MASK_OF[s]) == 2:
                phase[i] = STOCK_CHOICE
                return
        nxt = _resolve(i, pick, st)
        if nxt == _DECIDE:
            phase[i] = GO_STOP
            return

    who, pay, why = -1, np.int64(0), NAGARI
    if nxt == _END_TURN:  # docs/rules/gostop.md §5.8: nagari when both hands are empty, else the turn passes
        played[i] = -1
        hand_pick[i] = -1
        flipped[i] = -1
        other_has = hands[i, 1 - p] != _Z
        if other_has:
            to_move[i] = 1 - p
        phase[i] = PLAY
        if other_has or hands[i, p] != _Z:
            return
    elif nxt == _STOP_NOW:  # STOP (chosen or forced): the mover wins and is paid per docs/rules/gostop.md §9
        who, pay, why = p, settle_payout(captured[i, p], captured[i, 1 - p], go_count[i, p]), STOP_REASON
    else:
        who, pay, why = p, np.int64(S.THREE_PPUK_PAYOUT), THREE_PPUK
    done[i] = True  # the deal is over
    phase[i] = OVER
    played[i] = -1
    hand_pick[i] = -1
    flipped[i] = -1
    winner[i] = who
    payout[i] = pay
    reason[i] = why
    if who >= 0:
        rewards[r, who] = np.float32(pay)
        rewards[r, 1 - who] = np.float32(-pay)


@kernel
def step(buf, actions, rewards):
    """Apply validated ``actions`` to every game; fill ``rewards`` (B, 2), zeroed."""
    step_all(step_one, unpack(buf), actions, rewards, 0)


@kernel
def step_rows(buf, rows, actions, rewards):
    """Apply validated ``actions[j]`` to game ``rows[j]``; its rewards go to ``rewards[j]`` (n, 2),
    zeroed."""
    step_rows_all(step_one, unpack(buf), rows, actions, rewards, 0)


# ---------------------------------------------------------------- observation
@kernel(inline=True)
def _put_cards(row, start, x):
    for j in range(6):  # eight cards a byte, from the table of byte -> (8,) floats
        b = np.int64((x >> np.uint64(8 * j)) & _U255)
        for t in range(8):
            row[start + 8 * j + t] = _BYTE_BITS[b, t]


@kernel(inline=True)
def _put_stat(row, at, t, value):
    v = np.float32(value) * _STATS_SCALE[t]
    row[at] = _ONE_F if v > _ONE_F else v


@kernel(inline=True)
def observe_one(i, seat, st, row, cfg):
    """Fill ``row`` (445,) with game ``i``'s observation from ``seat``'s point of view: the
    per-game body of :func:`observe` (``st``: :func:`unpack`; ``cfg`` is unused)."""
    (to_move, done, _, _, hands, layout, captured, _, stock_top, stock_end, ppuk_owner, go_count, go_score,
     ppuk_count, score, phase, played, hand_pick, flipped, _, _, _, _, _) = st
    me = seat
    op = 1 - me
    L = layout[i]
    hand, cap_me, cap_op = hands[i, me], captured[i, me], captured[i, op]
    bp, bf = _BIT[played[i]], _BIT[flipped[i]]
    _put_cards(row, 0, hand)
    _put_cards(row, 48, L)
    _put_cards(row, 96, cap_me)
    _put_cards(row, 144, cap_op)
    _put_cards(row, 192, ~(hand | L | cap_me | cap_op | bp | bf) & _ALL)
    _put_cards(row, 240, bp)
    _put_cards(row, 288, bf)
    _put_cards(row, 336, _BIT[hand_pick[i]])

    for k in range(_PILES, _PILES + 36):
        row[k] = 0.0
    piles = False  # every pile is a 3-card month
    for m in range(12):
        if month_count(L, m) == 3:
            piles = True
    if piles:
        for m in range(12):
            owner = ppuk_owner[i, m]
            if owner < 0:
                if month_count(L, m) == 3:
                    row[_PILES + m] = 1.0
            elif owner == me:
                row[_PILES + 12 + m] = 1.0
            elif owner == op:
                row[_PILES + 24 + m] = 1.0

    ph, over = phase[i], done[i]
    for k in range(4):
        row[_DECISION + k] = 1.0 if ph == k else 0.0
    row[_DECISION + 4] = 1.0 if to_move[i] == me and not over else 0.0
    left = popcount(hands[i, to_move[i]])
    row[_DECISION + 5] = 1.0 if not over and left == (1 if ph == PLAY else 0) else 0.0

    for j in range(2):
        s = me if j == 0 else op
        at = _STATS + _NUM_STATS * j
        cap = captured[i, s]
        _put_stat(row, at, 0, popcount(hands[i, s]))
        _put_stat(row, at + 1, 1, go_count[i, s])
        _put_stat(row, at + 2, 2, go_score[i, s])
        _put_stat(row, at + 3, 3, ppuk_count[i, s])
        _put_stat(row, at + 4, 4, score[i, s])
        _put_stat(row, at + 5, 5, popcount(cap & _M_BRIGHTS))
        _put_stat(row, at + 6, 6, popcount(cap & _M_ANIMALS))
        _put_stat(row, at + 7, 7, popcount(cap & _M_RIBBONS))
        _put_stat(row, at + 8, 8, popcount(cap & _M_SINGLE) + 2 * popcount(cap & _M_TWO_UNITS))
    v = np.float32(stock_end[i] - stock_top[i]) * _STOCK_SCALE
    row[_STOCK] = _ONE_F if v > _ONE_F else v


@kernel
def observe(buf, seats, out):
    """Fill ``out`` (B, 445) with every game's observation from ``seats[i]``'s point of view
    (layout in :mod:`envs.gostop.observation`)."""
    observe_all(observe_one, unpack(buf), seats, out)
