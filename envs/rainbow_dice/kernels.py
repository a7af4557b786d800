"""Rainbow Dice's compiled rules: new games, legal masks, steps and observations (numba kernels).

Each kernel is a loop over the batch calling scalar code for one game, which reads the
``RainbowState`` arrays (see :mod:`envs.rainbow_dice.rules`) and writes them in place.
The small tables (satisfied hands of every dice code as a bit mask, card scores, the
observation's gain feature) are module globals, frozen into the compiled code; the
16 MiB reach table of :func:`envs.rainbow_dice.turn_dp.reach_table` is passed in.  The
pattern every game follows is described in :mod:`envs.core.kernels`;
:class:`envs.rainbow_dice.rules.RainbowDice` is the Python API on top.

Dice are one base-6 code per game (Red the lowest digit).  Draws: every step takes one
draw (a throw of six fresh dice, uniform in 0..46655) from the game's stream, a new game
one; a reroll (a free or token reroll, or a new turn's throw) gives each rerolled die the
value of the same die in that throw.
"""

from __future__ import annotations

import numpy as np

from ..core.kernels import draw_int, kernel
from .actions import (
    BUY_START, DECLINE, DOWN_START, SECOND_CARD_PRICE, SECOND_START, STOP, TAKE, TOKEN_REROLL_START, UP_START,
)
from .hands import HAND_BASES, HAND_RANKS, HAND_SCORES, NUM_DICE, NUM_HANDS, NUM_OUTCOMES, PLACE, SATISFIED
from .observation import (
    COUNT_SCALE, GAIN_TABLE, MAX_SEATS, OBS_SLICES, SCORE_SCALE, SEAT_BLOCK, SEAT_CARDS, SEAT_RANKS, SEAT_SCORE,
    SEAT_TOKENS, TOKEN_SCALE,
)
from .position import (
    FINAL, FREE_REROLLS, GAME_OVER, LATE_ROUND, MAX_DIE_ACTIONS, NUM_ROUNDS, ROLLING, SECOND_CARD, pile_bits,
)
from .scoring import DUP_STEP, NUM_RANKS, RANK_STEP, TOKEN_POINTS
from .turn_dp import MAX_BUDGET, REACH_LEVELS

_SAT_BITS = pile_bits(SATISFIED)  # (46656,) uint64: bit h set when the dice satisfy hand h
_ONE = np.uint64(1)
_PLACE = PLACE.astype(np.int64)  # base-6 place value of each die in a dice code
_ZERO = np.uint64(0)
_HAND_RANKS = HAND_RANKS.astype(np.int64)
_HAND_SCORES = HAND_SCORES.astype(np.int64)
_HAND_BASES = HAND_BASES.astype(np.int64)
_DUP_STEP = DUP_STEP.astype(np.int64)
_RANK_STEP = RANK_STEP.astype(np.int64)
_DUP_CAP, _RANK_CAP = DUP_STEP.size - 1, RANK_STEP.size - 1  # the bonuses stop growing at 5 copies, 10 cards
_GAIN_TABLE = GAIN_TABLE  # (66, 30) float32, row copies * 11 + cards of the rank
NUM_ACTIONS = DECLINE + 1
ALL_DICE_MASK = (1 << NUM_DICE) - 1

# Observation offsets and float32 scales (value -> min(value, cap) * (1 / cap), all float32).
_SATISFIED0 = OBS_SLICES["satisfied"].start
_PHASE0 = OBS_SLICES["phase"].start
_FREE0 = OBS_SLICES["free_rerolls"].start
_USED0 = OBS_SLICES["die_actions"].start
_ROUND0 = OBS_SLICES["round"].start
_SUPPLY0 = OBS_SLICES["supply"].start
_SEATS0 = OBS_SLICES["seats"].start
_GAIN0 = OBS_SLICES["gain"].start
_REACH0 = OBS_SLICES["reach"].start
_CARDS0, _RANKS0 = SEAT_CARDS.start, SEAT_RANKS.start
_F32 = np.float32
_FROUND = _F32(1 / 11)
_COUNT_CAP, _TOKEN_CAP, _SCORE_CAP = _F32(COUNT_SCALE), _F32(TOKEN_SCALE), _F32(SCORE_SCALE)
_COUNT_SCALE = _F32(1) / _COUNT_CAP
_TOKEN_SCALE = _F32(1) / _TOKEN_CAP
_SCORE_SCALE = _F32(1) / _SCORE_CAP
_REACH_VALUE = np.multiply(np.arange(REACH_LEVELS + 1, dtype=np.uint8), _F32(1 / REACH_LEVELS),
                           out=np.empty(REACH_LEVELS + 1, np.float32))
"""(256,) float32: the reach entry of a stored level (level * float32(1/255), as the numpy core)."""


# ------------------------------------------------------------------ new games
@kernel
def new_games(key, counter, code):
    """Throw the first dice of fresh games: one draw each; advances ``counter`` in place."""
    for i in range(key.shape[0]):
        code[i] = draw_int(key[i], counter[i], NUM_OUTCOMES)
        counter[i] += np.uint64(1)


# ---------------------------------------------------------------------- masks
@kernel
def legal_mask(to_move, phase, die_actions, tokens, code, piles, out):
    """Fill ``out`` (B, 145) with the legal actions of the seat to move (all False once over)."""
    for i in range(out.shape[0]):
        for a in range(NUM_ACTIONS):
            out[i, a] = False
        ph = phase[i]
        if ph == GAME_OVER:
            continue
        c = code[i]
        buyable = _SAT_BITS[c] & piles[i]
        if ph == SECOND_CARD:
            for h in range(NUM_HANDS):
                out[i, SECOND_START + h] = (buyable >> np.uint64(h)) & _ONE != _ZERO
            out[i, DECLINE] = True
            continue
        if ph == ROLLING:
            for a in range(1, UP_START):  # free rerolls of a non-empty set of dice (spec D11)
                out[i, a] = True
            out[i, STOP] = True
        if tokens[i, to_move[i]] >= 1 and die_actions[i] < MAX_DIE_ACTIONS:
            for d in range(NUM_DICE):
                v = c % 6  # die value - 1
                c //= 6
                out[i, UP_START + d] = v < 5
                out[i, DOWN_START + d] = v > 0
                out[i, TOKEN_REROLL_START + d] = ph == FINAL
        for h in range(NUM_HANDS):
            out[i, BUY_START + h] = (buyable >> np.uint64(h)) & _ONE != _ZERO
        out[i, TAKE] = True


# ----------------------------------------------------------------------- step
@kernel(inline=True)
def _rerolled(code, fresh, mask):
    """Dice ``code`` with the dice of reroll ``mask`` taking their values from throw ``fresh``."""
    if mask == ALL_DICE_MASK:
        return fresh
    out = 0
    place = 1
    for d in range(NUM_DICE):
        src = fresh if (mask >> d) & 1 else code
        out += ((src // place) % 6) * place
        place *= 6
    return out


@kernel
def _win_rewards(score, i, rewards, r):
    """Row ``r`` of ``rewards``: +1 shared by the winners and -1 by the losers of finished game
    ``i`` (0 for all when every seat ties)."""
    P = score.shape[1]
    best = score[i, 0]
    for s in range(1, P):
        best = max(best, score[i, s])
    k = 0
    for s in range(P):
        if score[i, s] == best:
            k += 1
    losers = P - k
    for s in range(P):
        if losers == 0:
            rewards[r, s] = 0.0
        elif score[i, s] == best:
            rewards[r, s] = 1.0 / k
        else:
            rewards[r, s] = -1.0 / losers


@kernel(inline=True)
def _buy(i, seat, h, cards, rank_cards, supply, piles, limited):
    """Seat ``seat`` of game ``i`` takes a card of hand ``h``; returns the §7 points it gains."""
    r = _HAND_RANKS[h]
    held, in_rank = cards[i, seat, h], rank_cards[i, seat, r]
    gain = (_DUP_STEP[min(held, _DUP_CAP)] * _HAND_SCORES[h]
            + _RANK_STEP[min(in_rank, _RANK_CAP)] * _HAND_BASES[h])
    cards[i, seat, h] = held + 1
    rank_cards[i, seat, r] = in_rank + 1
    if limited:
        left = supply[i, h] - 1
        supply[i, h] = left
        if left <= 0:
            piles[i] &= ~(_ONE << np.uint64(h))
    return gain


@kernel(inline=True)
def _step_one(i, a, r, to_move, done, key, counter, code, phase, free_rerolls, die_actions, round_, tokens,
              cards, supply, piles, rank_cards, score, rewards, score_rewards, limited):
    """Apply action ``a`` to game ``i`` (not over, ``a`` legal); its rewards go to row ``r``."""
    P = tokens.shape[1]
    seat = np.int64(to_move[i])
    fresh = draw_int(key[i], counter[i], NUM_OUTCOMES)  # every step draws one throw
    counter[i] += np.uint64(1)
    c = code[i]
    tok = np.int64(tokens[i, seat])
    gain = 0
    free = np.int64(free_rerolls[i])
    used = np.int64(die_actions[i])
    ph = np.int64(phase[i])
    reroll = 0  # dice the action rerolls
    ends = False  # the turn ends
    if a < UP_START:  # free reroll
        reroll = a
        free -= 1
    elif a < STOP:  # a die action: adjust +1 / -1 or token reroll (1 token each)
        tok -= 1
        gain -= TOKEN_POINTS
        used += 1
        if a < DOWN_START:
            c += _PLACE[a - UP_START]
        elif a < TOKEN_REROLL_START:
            c -= _PLACE[a - DOWN_START]
        else:
            reroll = 1 << (a - TOKEN_REROLL_START)
    elif a == STOP:
        free = 0
    elif a < TAKE:  # the turn's card; a second one is offered if affordable and available
        free = 0
        gain += _buy(i, seat, a - BUY_START, cards, rank_cards, supply, piles, limited)
        if tok >= SECOND_CARD_PRICE and _SAT_BITS[c] & piles[i] != _ZERO:
            ph = SECOND_CARD
        else:
            ends = True
    elif a == TAKE:
        free = 0
        amount = 2 if round_[i] >= LATE_ROUND else 1
        tok += amount
        gain += TOKEN_POINTS * amount
        ends = True
    else:  # the second card (3 tokens) or declining it
        if a < DECLINE:
            tok -= SECOND_CARD_PRICE
            gain -= TOKEN_POINTS * SECOND_CARD_PRICE
            gain += _buy(i, seat, a - SECOND_START, cards, rank_cards, supply, piles, limited)
        ends = True
    if free == 0 and ph == ROLLING:
        ph = FINAL
    over = False
    if ends:
        tok += 1  # end-of-turn token
        gain += TOKEN_POINTS
        used = 0
        if seat + 1 < P:
            to_move[i] = seat + 1
            ph, free, reroll = ROLLING, FREE_REROLLS, ALL_DICE_MASK
        elif round_[i] < NUM_ROUNDS:
            to_move[i] = 0
            round_[i] += 1
            ph, free, reroll = ROLLING, FREE_REROLLS, ALL_DICE_MASK
        else:  # the last seat finished round 12: the last dice stay on the table
            over = True
            ph, free = GAME_OVER, 0
    if reroll:
        c = _rerolled(c, fresh, reroll)
    code[i] = c
    phase[i] = ph
    free_rerolls[i] = free
    die_actions[i] = used
    tokens[i, seat] = tok
    score[i, seat] += gain
    if over:
        done[i] = True
    if score_rewards:
        rewards[r, seat] = gain
    elif over:
        _win_rewards(score, i, rewards, r)


@kernel
def step(actions, to_move, done, key, counter, code, phase, free_rerolls, die_actions, round_, tokens, cards,
         supply, piles, rank_cards, score, rewards, score_rewards, limited):
    """Apply validated ``actions`` to every game (none over); fill ``rewards`` (B, P), zeroed.

    ``score_rewards``: the mover is paid the change of its §7 total (``reward="score"``);
    otherwise a finished game pays the win/loss rewards.  ``limited``: the supply is
    finite (``copies_per_hand`` not None) and is decremented by every card taken.
    """
    for i in range(actions.shape[0]):
        _step_one(i, actions[i], i, to_move, done, key, counter, code, phase, free_rerolls, die_actions, round_,
                  tokens, cards, supply, piles, rank_cards, score, rewards, score_rewards, limited)


@kernel
def step_rows(rows, actions, to_move, done, key, counter, code, phase, free_rerolls, die_actions, round_, tokens,
              cards, supply, piles, rank_cards, score, rewards, score_rewards, limited):
    """Apply validated ``actions[j]`` to game ``rows[j]``; its rewards go to ``rewards[j]`` (n, P)."""
    for j in range(rows.shape[0]):
        _step_one(rows[j], actions[j], j, to_move, done, key, counter, code, phase, free_rerolls, die_actions,
                  round_, tokens, cards, supply, piles, rank_cards, score, rewards, score_rewards, limited)


# ---------------------------------------------------------------- observation
@kernel(inline=True)
def _clipped(value, cap, scale):
    """``min(value, cap) * scale`` in float32 (the observation's clipped counts)."""
    return min(_F32(value), cap) * scale


@kernel
def observe(code, phase, free_rerolls, die_actions, round_, supply, tokens, score, cards, rank_cards, seats,
            reach, out):
    """Fill ``out`` (B, 335) with every game's observation from ``seats[i]``'s point of view
    (layout in :mod:`envs.rainbow_dice.observation`); ``reach`` is ``turn_dp.reach_table()``."""
    P = tokens.shape[1]
    for i in range(out.shape[0]):
        for k in range(out.shape[1]):
            out[i, k] = 0.0
        c = code[i]
        x = c
        for d in range(NUM_DICE):  # dice one-hots
            out[i, 6 * d + x % 6] = 1.0
            x //= 6
        sat = _SAT_BITS[c]
        for h in range(NUM_HANDS):
            if (sat >> np.uint64(h)) & _ONE:
                out[i, _SATISFIED0 + h] = 1.0
        ph, free, used = phase[i], free_rerolls[i], die_actions[i]
        if ph < GAME_OVER:
            out[i, _PHASE0 + ph] = 1.0
        out[i, _FREE0 + free] = 1.0
        out[i, _USED0 + used] = 1.0
        out[i, _ROUND0] = _F32(round_[i] - 1) * _FROUND
        for h in range(NUM_HANDS):
            out[i, _SUPPLY0 + h] = _clipped(supply[i, h], _COUNT_CAP, _COUNT_SCALE)
        for j in range(P):  # the observer first, then the next seats in turn order
            s = (seats[i] + j) % P
            base = _SEATS0 + j * SEAT_BLOCK
            t = tokens[i, s]
            out[i, base] = 1.0
            out[i, base + SEAT_TOKENS] = _clipped(t, _TOKEN_CAP, _TOKEN_SCALE)
            for k in range(3):  # tokens >= 1, 2, 3
                if t > k:
                    out[i, base + SEAT_TOKENS + 1 + k] = 1.0
            out[i, base + SEAT_SCORE] = _clipped(score[i, s], _SCORE_CAP, _SCORE_SCALE)
            for h in range(NUM_HANDS):
                out[i, base + _CARDS0 + h] = _clipped(cards[i, s, h], _COUNT_CAP, _COUNT_SCALE)
            for k in range(NUM_RANKS):
                out[i, base + _RANKS0 + k] = _clipped(rank_cards[i, s, k], _COUNT_CAP, _COUNT_SCALE)
        me = seats[i]
        for h in range(NUM_HANDS):  # the observer's marginal gain per hand (0 for an empty pile)
            if supply[i, h] > 0:
                row = (min(cards[i, me, h], _DUP_CAP) * (_RANK_CAP + 1)
                       + min(rank_cards[i, me, _HAND_RANKS[h]], _RANK_CAP))
                out[i, _GAIN0 + h] = _GAIN_TABLE[row, h]
        # Reach: the dice phase's free rerolls and affordable die actions (the observer's tokens);
        # later phases read the final-dice level 0 (the satisfied hands).
        level = 0
        if ph < SECOND_CARD:
            budget = min(min(np.int64(tokens[i, me]), MAX_BUDGET), MAX_BUDGET - np.int64(used))
            level = np.int64(free) * (MAX_BUDGET + 1) + budget
        row = level * NUM_OUTCOMES + c
        for h in range(NUM_HANDS):
            out[i, _REACH0 + h] = _REACH_VALUE[reach[row, h]]
