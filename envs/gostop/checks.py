"""The compiled check of Go-Stop states (see :mod:`envs.core.state_check`).

The rules are what every dealt game keeps and every loaded position obeys (:mod:`.position`):
the 48 cards each in exactly one place, a pending decision that fits the cards in play, the
numbers of :mod:`.position`'s bounds, the cached scores and the result fields.  Together
they keep every kernel's table reads and writes in bounds, every observation in [0, 1], every
payout exact and a legal move in every live game.
"""

from __future__ import annotations

import numpy as np

from ..core.kernels import kernel, mask_all, no_touch, observe_all, step_checked_all
from ..core.state_check import StateChecker
from . import cards as C
from .kernels import has_quad, mask_one, month_count, observe_one, popcount, score_of, step_one, unpack
from .position import MAX_GO_SCORE
from .scoring import GO_BUDGET
from .state import FIELDS, GO_STOP, HAND_CHOICE, NAGARI, OVER, PLAY, REASONS, STOCK_CHOICE

RULES = (
    (("to_move",), "to_move must be a seat (0 or 1)"),
    (("phase",), "phase must be in 0..4 (play, hand choice, stock choice, go/stop, over)"),
    (("done", "phase"), "done exactly when phase is 4 (over)"),
    (("hands", "layout", "captured"), "card sets hold only card ids 0..47 (bits 48..63 clear)"),
    (("stock_top", "stock_end"), "0 <= stock_top <= stock_end <= 48"),
    (("stock", "stock_top", "stock_end"), "stock[stock_top:stock_end] must hold card ids 0..47"),
    (("played", "hand_pick", "flipped"), "played, hand_pick and flipped must be card ids 0..47 or -1"),
    (("hands", "layout", "captured", "stock", "played", "flipped", "phase"),
     "every card must be in exactly one place: a hand, the layout, a captured pile, the stock or "
     "(at a hand or stock choice) this turn's played and flipped cards"),
    (("layout",), "the layout holds at most 3 cards of a month"),
    (("ppuk_owner", "layout"), "ppuk_owner entries are -1, 0 or 1; an owned month has exactly 3 layout cards"),
    (("go_count", "hands", "phase", "to_move"),
     f"go_count must be >= 0 with go_count plus hand size at most {GO_BUDGET} ({GO_BUDGET - 1} for the mover once "
     "its card is played: a Go may follow)"),
    (("go_count", "go_score"), f"go_score must be in 0..{MAX_GO_SCORE}, and 0 when go_count is 0"),
    (("ppuk_count", "done"), "ppuk_count must be in 0..2 (0..3 once the deal is over)"),
    (("score", "captured"), "score must be the combination score of each seat's captured cards"),
    (("phase", "played", "hand_pick", "flipped", "hands", "to_move"),
     "at a play decision no card is in play and the mover holds a card"),
    (("phase", "played", "hand_pick", "flipped", "layout"),
     "at a hand choice the played card has 2 layout cards of its month to choose from, and nothing is "
     "picked or flipped yet"),
    (("phase", "played", "hand_pick", "flipped", "layout"),
     "at a stock choice the flipped card (of another month than the played one) has 2 layout cards of its "
     "month, and hand_pick is one of the 2 of the played card's month when it had 2, else -1"),
    (("phase", "played"), "at a go/stop decision the turn's played card is set"),
    (("phase", "played", "hand_pick", "flipped"), "once the deal is over no card is in play"),
    (("done", "winner", "payout", "reason"),
     f"result fields: a live deal has winner -1, payout 0, reason 0; a finished one a reason in 1..{len(REASONS) - 1} "
     "(a nagari with winner -1 and payout 0, the others a winner 0 or 1 and a payout >= 0)"),
    (("redeals", "skipped"), "redeals and skipped must be >= 0"),
)
_ALL = C.ALL_CARDS
_MONTH_MASK_OF = C.MONTH_MASK_OF
_BIT = C.BIT
_MONTH = C.MONTH
_Z, _U1 = np.uint64(0), np.uint64(1)


def _check(lo, hi, skip, st):
    (to_move, done, rng_key, rng_counter, hands, layout, captured, stock, stock_top, stock_end,
     ppuk_owner, go_count, go_score, ppuk_count, score, phase, played, hand_pick, flipped, winner,
     payout, reason, redeals, skipped) = st
    B = done.shape[0]
    rows = (to_move.shape[0], B, rng_key.shape[0], rng_counter.shape[0], hands.shape[0], layout.shape[0],
            captured.shape[0], stock.shape[0], stock_top.shape[0], stock_end.shape[0], ppuk_owner.shape[0],
            go_count.shape[0], go_score.shape[0], ppuk_count.shape[0], score.shape[0], phase.shape[0],
            played.shape[0], hand_pick.shape[0], flipped.shape[0], winner.shape[0], payout.shape[0],
            reason.shape[0], redeals.shape[0], skipped.shape[0])
    for k in range(len(rows)):
        if rows[k] != B:
            return -1 - k, -1
    if hands.shape[1] != 2:
        return -5, -1
    if captured.shape[1] != 2:
        return -7, -1
    if stock.shape[1] != 48:
        return -8, -1
    if ppuk_owner.shape[1] != 12:
        return -11, -1
    for k, a in ((12, go_count.shape), (13, go_score.shape), (14, ppuk_count.shape), (15, score.shape),
                 (24, skipped.shape)):
        if a[1] != 2:
            return -k, -1
    if hi < 0:
        hi = B
    for i in range(lo, hi):
        if skip.shape[0] and skip[i]:
            continue
        p = np.int64(to_move[i])
        if p < 0 or p > 1:
            return 1, i
        ph = np.int64(phase[i])
        if ph < PLAY or ph > OVER:
            return 2, i
        if done[i] != (ph == OVER):
            return 3, i
        L = layout[i]
        sets = hands[i, 0] | hands[i, 1] | L | captured[i, 0] | captured[i, 1]
        if sets & ~_ALL != _Z:
            return 4, i
        top, end = np.int64(stock_top[i]), np.int64(stock_end[i])
        if top < 0 or top > end or end > 48:
            return 5, i
        in_stock = _Z
        bad = False
        for j in range(top, end):  # no early exit: the loop stays tight
            c = np.int64(stock[i, j])
            bad |= (c < 0) | (c > 47)
            in_stock |= _U1 << np.uint64(c & 63)
        if bad:
            return 6, i
        h, pick, f = np.int64(played[i]), np.int64(hand_pick[i]), np.int64(flipped[i])
        if h < -1 or h > 47 or pick < -1 or pick > 47 or f < -1 or f > 47:
            return 7, i
        extra = _Z
        n_extra = 0
        if ph == HAND_CHOICE or ph == STOCK_CHOICE:
            extra = _BIT[h]
            n_extra = 1 if h >= 0 else 0
            if ph == STOCK_CHOICE:
                extra |= _BIT[f]
                n_extra += 1 if f >= 0 else 0
        count = (popcount(hands[i, 0]) + popcount(hands[i, 1]) + popcount(L) + popcount(captured[i, 0])
                 + popcount(captured[i, 1]) + (end - top) + n_extra)
        if count != 48 or (sets | in_stock | extra) != _ALL:
            return 8, i
        if has_quad(L):
            return 9, i
        for m in range(12):
            owner = ppuk_owner[i, m]
            if owner < -1 or owner > 1 or (owner >= 0 and month_count(L, m) != 3):
                return 10, i
        for s in range(2):
            g = np.int64(go_count[i, s])
            played_now = s == p and (ph == HAND_CHOICE or ph == STOCK_CHOICE or ph == GO_STOP)
            if g < 0 or g + popcount(hands[i, s]) > GO_BUDGET - (1 if played_now else 0):
                return 11, i
            gs = np.int64(go_score[i, s])
            if gs < 0 or gs > MAX_GO_SCORE or (g == 0 and gs != 0):
                return 12, i
            if ppuk_count[i, s] < 0 or ppuk_count[i, s] > (3 if ph == OVER else 2):
                return 13, i
            if score[i, s] != score_of(captured[i, s]):
                return 14, i
        if ph == PLAY:
            if h != -1 or pick != -1 or f != -1 or hands[i, p] == _Z:
                return 15, i
        elif ph == HAND_CHOICE:
            if h < 0 or pick != -1 or f != -1 or popcount(L & _MONTH_MASK_OF[h]) != 2:
                return 16, i
        elif ph == STOCK_CHOICE:
            if h < 0 or f < 0 or _MONTH[f] == _MONTH[h] or popcount(L & _MONTH_MASK_OF[f]) != 2:
                return 17, i
            if popcount(L & _MONTH_MASK_OF[h]) == 2:
                if pick < 0 or (L & _MONTH_MASK_OF[h] & _BIT[pick]) == _Z:
                    return 17, i
            elif pick != -1:
                return 17, i
        elif ph == GO_STOP:
            if h < 0:
                return 18, i
        elif h != -1 or pick != -1 or f != -1:
            return 19, i
        w, why = np.int64(winner[i]), np.int64(reason[i])
        if ph != OVER:
            if w != -1 or payout[i] != 0 or why != 0:
                return 20, i
        elif why < 1 or why > len(REASONS) - 1:
            return 20, i
        elif why == NAGARI:
            if w != -1 or payout[i] != 0:
                return 20, i
        elif w < 0 or w > 1 or payout[i] < 0:
            return 20, i
        if redeals[i] < 0 or skipped[i, 0] < 0 or skipped[i, 1] < 0:
            return 21, i
    return 0, -1


check_rules = kernel(inline=True)(_check)
"""The rules of :func:`_check` for compiled callers, over the :func:`~.kernels.unpack` ``Arrays``
(``check_rules(lo, hi, skip, s)``): the checked step's first pass."""


def _check_buffer(lo, hi, skip, buf):
    return check_rules(lo, hi, skip, unpack(buf))


@kernel
def step_checked(buf, actions, rewards, row, cfg):
    """``Game.step`` with ``check=True`` in one dispatch: the state check (``(rule, 0, game)``
    when a rule is broken), then the action check (``(0, kind, game)``, ``kind`` as
    :func:`~envs.core.kernels.first_bad_action`), then the step (``(0, 0, -1)``), each followed
    by :func:`~envs.core.kernels.step_checked_all`'s ``touched``; nothing is written unless every
    check passes.  ``actions`` (B,) int64, ``rewards`` (B, P) zeroed,
    ``row`` (A,) bool scratch; ``cfg`` is the step kernels' (unused)."""
    s = unpack(buf)
    rule, i = check_rules(0, -1, row[:0], s)
    if rule != 0:
        return rule, 0, i, np.uint64(0)
    if actions.shape[0] != s.done.shape[0]:
        return 0, 4, -1, np.uint64(0)
    kind, i, touched = step_checked_all(step_one, mask_one, no_touch, s, actions, rewards, row, cfg)
    return 0, kind, i, touched


@kernel
def legal_mask_checked(buf, out, skip):
    """``Game.legal_mask`` with ``check=True`` in one dispatch: the state check's ``(rule, game)``
    (``skip`` as the check's), and ``out`` (B, A) filled only when every game passes."""
    s = unpack(buf)
    rule, i = check_rules(0, -1, skip, s)
    if rule == 0:
        mask_all(mask_one, s, out)
    return rule, i


@kernel
def observe_checked(buf, seats, out, skip):
    """``Game.observe`` with ``check=True`` in one dispatch, as :func:`legal_mask_checked`
    (``seats`` (B,) checked seats)."""
    s = unpack(buf)
    rule, i = check_rules(0, -1, skip, s)
    if rule == 0:
        observe_all(observe_one, s, seats, out)
    return rule, i


CHECKER = StateChecker(FIELDS, _check_buffer, (), RULES, buffer=True)
