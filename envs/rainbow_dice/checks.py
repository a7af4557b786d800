"""The compiled check of Rainbow Dice states (see :mod:`envs.core.state_check`).

The rules are the invariants of :mod:`.position` (which every loaded position obeys, and
play never leaves) plus the caches a state keeps: ``piles`` (the hands with a copy left),
``rank_cards`` (cards per rank) and ``score`` (the final scores, docs/rules/rainbow_dice.md §7).
Together they keep every
kernel's table reads and writes in bounds, every count far from its dtype's limit, every
observation in [0, 1] and a legal move in every live game.
"""

from __future__ import annotations

import numpy as np
from numba import types

from ..core.kernels import kernel, step_checked_all
from ..core.state_check import StateChecker
from .kernels import mask_one, mask_rows, observe_rows, step_one, touch_one, unpack
from .actions import SECOND_CARD_PRICE
from .hands import HAND_RANKS, HAND_SCORES, NUM_HANDS, NUM_OUTCOMES, SATISFIED
from .position import (
    ALL_PILES, CARDS_PER_TURN, FREE_REROLLS, GAME_OVER, MAX_COUNT, MAX_DIE_ACTIONS, MAX_TOKENS, NUM_ROUNDS,
    ROLLING, SECOND_CARD, TOKENS_PER_TURN, UNLIMITED_SUPPLY, pile_bits,
)
from .scoring import DUPLICATE_BONUS, NUM_RANKS, RANK_BASES, RANK_BONUS, TOKEN_POINTS

FIELDS = (
    ("to_move", np.int8, ()), ("done", np.bool_, ()), ("rng_key", np.uint64, ()),
    ("rng_counter", np.uint64, ()), ("code", np.int64, ()), ("phase", np.int8, ()),
    ("free_rerolls", np.int8, ()), ("die_actions", np.int8, ()), ("round", np.int8, ()),
    ("tokens", np.int32, ("P",)), ("cards", np.int16, ("P", NUM_HANDS)), ("supply", np.int16, (NUM_HANDS,)),
    ("piles", np.uint64, ()), ("rank_cards", np.int32, ("P", NUM_RANKS)), ("score", np.int32, ("P",)),
)
RULES = (
    (("to_move",), "to_move must be a seat in 0..{P_1}"),
    (("code",), f"code must be a dice code in 0..{NUM_OUTCOMES - 1}"),
    (("phase",), "phase must be in 0..3 (rolling, final, second card, game over)"),
    (("done", "phase"), "done exactly when phase is 3 (game over)"),
    (("free_rerolls",), f"free_rerolls must be in 0..{FREE_REROLLS}"),
    (("phase", "free_rerolls"), "phase is 0 (rolling) exactly when free rerolls are left"),
    (("die_actions",), f"die_actions must be in 0..{MAX_DIE_ACTIONS}"),
    (("round",), f"round must be in 1..{NUM_ROUNDS}"),
    (("tokens", "round", "to_move"), f"tokens must be in 0..{MAX_TOKENS} plus {TOKENS_PER_TURN} per turn the seat "
                                     "has completed"),
    (("cards", "round", "to_move"), f"card counts must be in 0..{MAX_COUNT} plus {CARDS_PER_TURN} per turn the "
                                    "seat has completed (plus the copy the mover just bought)"),
    (("supply",), f"supply entries must be in 0..{MAX_COUNT} (all {UNLIMITED_SUPPLY} for an unlimited supply)"),
    (("supply", "cards"), "held cards plus supply must not exceed copies_per_hand for any hand"),
    (("piles", "supply"), "piles must have bit h set exactly when hand h has a copy in supply"),
    (("rank_cards", "cards"), "rank_cards must count each seat's cards of each rank"),
    (("score", "cards", "tokens"), "score must be each seat's final score of its cards and tokens"),
    (("phase", "tokens", "code", "piles"), f"a second-card decision needs the mover to hold {SECOND_CARD_PRICE} "
                                           "tokens and a satisfied hand with a copy left"),
)

_SAT_BITS = pile_bits(SATISFIED)
_RANK_START = np.searchsorted(HAND_RANKS, np.arange(NUM_RANKS + 1))  # hands of rank r: _RANK_START[r] .. r + 1
_SCORES = HAND_SCORES.astype(np.int64)
_DUP = DUPLICATE_BONUS.astype(np.int64)
_RANK_BONUS = RANK_BONUS.astype(np.int64)
_RANK_BASES = RANK_BASES.astype(np.int64)
_DUP_CAP, _RANK_CAP = _DUP.size - 1, _RANK_BONUS.size - 1


def _check(lo, hi, skip, st, P, limited, copies):
    (to_move, done, rng_key, rng_counter, code, phase, free_rerolls, die_actions, round_, tokens, cards,
     supply, piles, rank_cards, score) = st
    B = done.shape[0]
    for k, n in enumerate((to_move.shape[0], B, rng_key.shape[0], rng_counter.shape[0], code.shape[0],
                           phase.shape[0], free_rerolls.shape[0], die_actions.shape[0], round_.shape[0])):
        if n != B:
            return -1 - k, -1
    if tokens.shape[0] != B or tokens.shape[1] != P:
        return -10, -1
    if cards.shape[0] != B or cards.shape[1] != P or cards.shape[2] != NUM_HANDS:
        return -11, -1
    if supply.shape[0] != B or supply.shape[1] != NUM_HANDS:
        return -12, -1
    if piles.shape[0] != B:
        return -13, -1
    if rank_cards.shape[0] != B or rank_cards.shape[1] != P or rank_cards.shape[2] != NUM_RANKS:
        return -14, -1
    if score.shape[0] != B or score.shape[1] != P:
        return -15, -1
    if hi < 0:
        hi = B
    for i in range(lo, hi):
        if skip.shape[0] and skip[i]:
            continue
        mover = np.int64(to_move[i])
        if mover < 0 or mover >= P:
            return 1, i
        c = code[i]
        if c < 0 or c >= NUM_OUTCOMES:
            return 2, i
        ph = np.int64(phase[i])
        if ph < 0 or ph > GAME_OVER:
            return 3, i
        if done[i] != (ph == GAME_OVER):
            return 4, i
        free = np.int64(free_rerolls[i])
        if free < 0 or free > FREE_REROLLS:
            return 5, i
        if (ph == ROLLING) != (free > 0):
            return 6, i
        if die_actions[i] < 0 or die_actions[i] > MAX_DIE_ACTIONS:
            return 7, i
        rnd = np.int64(round_[i])
        if rnd < 1 or rnd > NUM_ROUNDS:
            return 8, i
        for s in range(P):
            turns = NUM_ROUNDS if ph == GAME_OVER else (rnd if s < mover else rnd - 1)
            t = np.int64(tokens[i, s])
            if t < 0 or t > MAX_TOKENS + TOKENS_PER_TURN * turns:
                return 9, i
            card_limit = MAX_COUNT + CARDS_PER_TURN * turns + (1 if (s == mover and ph == SECOND_CARD) else 0)
            held = cards[i, s]
            bad = False
            for h in range(NUM_HANDS):  # no early exit: the loop vectorizes
                bad |= (held[h] < 0) | (held[h] > card_limit)
            if bad:
                return 10, i
        left = supply[i]
        if limited:
            bad = over = False
            bits = np.uint64(0)
            for h in range(NUM_HANDS):
                n = np.int64(left[h])
                copies_seen = n
                for s in range(P):
                    copies_seen += cards[i, s, h]
                bad |= (n < 0) | (n > MAX_COUNT)
                over |= copies_seen > copies
                bits |= np.uint64(n > 0) << np.uint64(h)
            if bad:
                return 11, i
            if over:
                return 12, i
        else:
            bad = False
            for h in range(NUM_HANDS):
                bad |= left[h] != UNLIMITED_SUPPLY
            if bad:
                return 11, i
            bits = ALL_PILES
        if piles[i] != bits:
            return 13, i
        for s in range(P):
            held = cards[i, s]
            total = TOKEN_POINTS * np.int64(tokens[i, s])
            bad = False
            for r in range(NUM_RANKS):
                in_rank = 0
                for h in range(_RANK_START[r], _RANK_START[r + 1]):
                    n = np.int64(held[h])
                    in_rank += n
                    total += (n + _DUP[min(n, _DUP_CAP)]) * _SCORES[h]
                bad |= rank_cards[i, s, r] != in_rank
                total += _RANK_BONUS[min(in_rank, _RANK_CAP)] * _RANK_BASES[r]
            if bad:
                return 14, i
            if score[i, s] != total:
                return 15, i
        if ph == SECOND_CARD and (tokens[i, mover] < SECOND_CARD_PRICE or (_SAT_BITS[c] & bits) == 0):
            return 16, i
    return 0, -1


check_rules = kernel(inline=True)(_check)
"""The rules of :func:`_check` for compiled callers, over the :func:`~.kernels.unpack` ``Arrays``
(``check_rules(lo, hi, skip, s, P, limited, copies)``): the checked step's first pass."""


def _check_buffer(lo, hi, skip, buf, P, limited, copies):
    return check_rules(lo, hi, skip, unpack(buf), P, limited, copies)


@kernel
def step_checked(buf, actions, rewards, row, cfg, P, limited, copies):
    """``Game.step`` with ``check=True`` in one dispatch: the state check (``(rule, 0, game)``
    when a rule is broken), then the action check (``(0, kind, game)``, ``kind`` as
    :func:`~envs.core.kernels.first_bad_action`), then the step (``(0, 0, -1)``), each followed
    by :func:`~envs.core.kernels.step_checked_all`'s ``touched``; nothing is written unless every
    check passes.  ``actions`` (B,) int64, ``rewards`` (B, P) zeroed,
    ``row`` (A,) bool scratch; ``cfg`` is the step kernels' (``(score_rewards, limited)``)."""
    s = unpack(buf)
    rule, i = check_rules(0, -1, row[:0], s, P, limited, copies)
    if rule != 0:
        return rule, 0, i, np.uint64(0)
    if actions.shape[0] != s.done.shape[0]:
        return 0, 4, -1, np.uint64(0)
    kind, i, touched = step_checked_all(step_one, mask_one, touch_one, s, actions, rewards, row, cfg)
    return 0, kind, i, touched


@kernel
def legal_mask_checked(buf, out, skip, P, limited, copies):
    """``Game.legal_mask`` with ``check=True`` in one dispatch: the state check's ``(rule, game)``
    (``skip`` as the check's), and ``out`` (B, A) filled only when every game passes."""
    s = unpack(buf)
    rule, i = check_rules(0, -1, skip, s, P, limited, copies)
    if rule == 0:
        mask_rows(s, out)
    return rule, i


@kernel
def observe_checked(buf, seats, out, skip, reach, P, limited, copies):
    """``Game.observe`` with ``check=True`` in one dispatch, as :func:`legal_mask_checked`
    (``reach`` is ``turn_dp.reach_table()``; ``seats`` (B,) checked seats)."""
    s = unpack(buf)
    rule, i = check_rules(0, -1, skip, s, P, limited, copies)
    if rule == 0:
        observe_rows(s, seats, reach, out)
    return rule, i


CHECKER = StateChecker(FIELDS, _check_buffer, (types.int64, types.boolean, types.int64), RULES, buffer=True)
