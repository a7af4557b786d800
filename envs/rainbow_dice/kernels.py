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

import collections

import numpy as np

from ..core.kernels import block, dims, draw_int, kernel, step_all, step_rows_all
from ..core.state import HEADER
from .actions import (
    BUY_START, DECLINE, DOWN_START, SECOND_CARD_PRICE, SECOND_START, STOP, TAKE, TOKEN_REROLL_START, UP_START,
)
from .hands import HAND_BASES, HAND_RANKS, HAND_SCORES, NUM_DICE, NUM_HANDS, NUM_OUTCOMES, PLACE, SATISFIED
from .observation import (
    COUNT_SCALE, GAIN_TABLE, OBS_SLICES, SCORE_SCALE, SEAT_BLOCK, SEAT_CARDS, SEAT_RANKS, SEAT_SCORE,
    SEAT_TOKENS, TOKEN_SCALE,
)
from .position import (
    ALL_PILES, FINAL, FREE_REROLLS, GAME_OVER, LATE_ROUND, MAX_DIE_ACTIONS, NUM_ROUNDS, ROLLING, SECOND_CARD, pile_bits,
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
_RANK_START = np.searchsorted(HAND_RANKS, np.arange(NUM_RANKS + 1))  # hands of rank r: _RANK_START[r] .. r + 1
_GAIN_TABLE = GAIN_TABLE  # (66, 30) float32, row copies * 11 + cards of the rank
NUM_ACTIONS = DECLINE + 1
ALL_DICE_MASK = (1 << NUM_DICE) - 1

# Observation offsets, and the float32 values of clipped counts as tables: an int -> float32
# conversion per entry (vcvtsi2ss) carries a false register dependency that serializes them.
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


def _scaled(cap: int) -> np.ndarray:
    """(cap + 1,) float32: entry v is v * (1 / cap) in float32, the value of a count min(v, cap)."""
    return np.arange(cap + 1, dtype=np.float32) * (np.float32(1) / np.float32(cap))


_COUNT_VALUE, _TOKEN_VALUE, _SCORE_VALUE = _scaled(COUNT_SCALE), _scaled(TOKEN_SCALE), _scaled(SCORE_SCALE)
_REACH_VALUE = np.arange(REACH_LEVELS + 1, dtype=np.uint8) * _F32(1 / REACH_LEVELS)
"""(256,) float32: the reach entry of a stored level (level * float32(1/255))."""
_BYTE_BOOLS = ((np.arange(256)[:, None] >> np.arange(8)) & 1).astype(bool)
"""(256, 8): the bits of a byte (column k = bit k)."""
_BYTE_FLAGS = _BYTE_BOOLS.astype(np.float32)
"""(256, 8) float32: the bits of a byte as 0.0 / 1.0."""
_BLOCK = 64
"""Games per block of ``legal_mask`` and ``observe``: their table entries are read together first."""

Arrays = collections.namedtuple("Arrays", "to_move done key counter code phase free_rerolls die_actions round_ "
                                "tokens cards supply piles rank_cards score")
"""The arrays of a Rainbow Dice state inside a kernel (the ``RainbowState`` fields, in order)."""


@kernel(inline=True)
def unpack(buf):
    """The :class:`Arrays` views of a ``RainbowState`` buffer (its layout: :mod:`envs.core.state`)."""
    B, P = dims(buf)
    to_move, o = block(buf, HEADER, B, 1, np.int8)
    done, o = block(buf, o, B, 1, np.bool_)
    key, o = block(buf, o, B, 8, np.uint64)
    counter, o = block(buf, o, B, 8, np.uint64)
    code, o = block(buf, o, B, 8, np.int64)
    phase, o = block(buf, o, B, 1, np.int8)
    free_rerolls, o = block(buf, o, B, 1, np.int8)
    die_actions, o = block(buf, o, B, 1, np.int8)
    round_, o = block(buf, o, B, 1, np.int8)
    tokens, o = block(buf, o, B * P, 4, np.int32)
    cards, o = block(buf, o, B * P * NUM_HANDS, 2, np.int16)
    supply, o = block(buf, o, B * NUM_HANDS, 2, np.int16)
    piles, o = block(buf, o, B, 8, np.uint64)
    rank_cards, o = block(buf, o, B * P * NUM_RANKS, 4, np.int32)
    score, o = block(buf, o, B * P, 4, np.int32)
    return Arrays(to_move, done, key, counter, code, phase, free_rerolls, die_actions, round_,
                  tokens.reshape((B, P)), cards.reshape((B, P, NUM_HANDS)), supply.reshape((B, NUM_HANDS)), piles,
                  rank_cards.reshape((B, P, NUM_RANKS)), score.reshape((B, P)))


# ------------------------------------------------------------------ new games
@kernel
def new_games(buf, rows, start_tokens, supply):
    """Start a fresh game in every row ``rows[j]`` of a ``RainbowState`` buffer, continuing the row's
    stream (``rng_key``, ``rng_counter``): one draw, its first throw; every seat holds
    ``start_tokens`` tokens and no card, every pile ``supply`` copies (``UNLIMITED_SUPPLY`` for an
    unlimited one); every other field of the row is written."""
    s = unpack(buf)
    P = s.tokens.shape[1]
    for j in range(rows.shape[0]):
        i = rows[j]
        s.code[i] = draw_int(s.key[i], s.counter[i], NUM_OUTCOMES)
        s.counter[i] += np.uint64(1)
        s.to_move[i] = 0
        s.done[i] = False
        s.phase[i] = ROLLING
        s.free_rerolls[i] = FREE_REROLLS
        s.die_actions[i] = 0
        s.round_[i] = 1
        for p in range(P):
            s.tokens[i, p] = start_tokens
            s.score[i, p] = TOKEN_POINTS * start_tokens
            for h in range(NUM_HANDS):
                s.cards[i, p, h] = 0
            for r in range(NUM_RANKS):
                s.rank_cards[i, p, r] = 0
        for h in range(NUM_HANDS):
            s.supply[i, h] = supply
        s.piles[i] = ALL_PILES


# ---------------------------------------------------------------------- masks
@kernel(inline=True)
def _hand_bits(row, start, bits, table):
    """``row[start + h]`` = bit h of ``bits`` for the 30 hands, 8 at a time from ``table`` (256, 8)
    (``_BYTE_FLAGS`` or ``_BYTE_BOOLS``)."""
    for byte in range(4):
        flags = table[(bits >> np.uint64(8 * byte)) & np.uint64(255)]
        for k in range(min(8, NUM_HANDS - 8 * byte)):
            row[start + 8 * byte + k] = flags[k]


@kernel
def legal_mask(buf, out):
    """Fill ``out`` (B, 145) with the legal actions of the seat to move (all False once over).

    Games go in blocks whose satisfied-hands entries (random reads in a 373 KiB table) are
    read first, in a loop of their own, so that their cache misses overlap (hence a loop of
    its own, not :func:`envs.core.kernels.mask_all`).  Returns a value of those reads
    (nothing to use; it keeps them).
    """
    return mask_rows(unpack(buf), out)


@kernel(inline=True)
def mask_rows(s, out):
    """The body of :func:`legal_mask` over the unpacked ``s`` (also the checked mask's)."""
    B = out.shape[0]
    touched = _ZERO
    for start in range(0, B, _BLOCK):
        stop = min(B, start + _BLOCK)
        for i in range(start, stop):
            touched ^= touch_one(i, s)
        for i in range(start, stop):
            mask_one(i, s, out[i])
    return touched


@kernel(inline=True)
def touch_one(i, s):
    """Game ``i``'s entry of the satisfied-hands table (random reads in 373 KiB), which its mask
    reads: what the block loops read ahead (:func:`mask_rows`, the checked step's action check)."""
    return _SAT_BITS[s.code[i]]


@kernel(inline=True)
def mask_one(i, s, row):
    """Write game ``i``'s legal actions into ``row`` (145,): the per-game body of :func:`legal_mask`
    (``s``: :func:`unpack`)."""
    to_move, phase, die_actions, tokens, code, piles = s.to_move, s.phase, s.die_actions, s.tokens, s.code, s.piles
    for a in range(NUM_ACTIONS):
        row[a] = False
    ph = phase[i]
    if ph == GAME_OVER:
        return
    c = code[i]
    buyable = _SAT_BITS[c] & piles[i]
    if ph == SECOND_CARD:
        _hand_bits(row, SECOND_START, buyable, _BYTE_BOOLS)
        row[DECLINE] = True
        return
    if ph == ROLLING:
        for a in range(1, UP_START):  # free rerolls of a non-empty set of dice (docs/rules/rainbow_dice.md §6)
            row[a] = True
        row[STOP] = True
    if tokens[i, to_move[i]] >= 1 and die_actions[i] < MAX_DIE_ACTIONS:
        for d in range(NUM_DICE):
            v = c % 6  # die value - 1
            c //= 6
            row[UP_START + d] = v < 5
            row[DOWN_START + d] = v > 0
            row[TOKEN_REROLL_START + d] = ph == FINAL
    _hand_bits(row, BUY_START, buyable, _BYTE_BOOLS)
    row[TAKE] = True


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
def _buy(i, seat, h, s, limited):
    """Seat ``seat`` of game ``i`` takes a card of hand ``h`` (from a finite supply when
    ``limited``); returns the points it gains (docs/rules/rainbow_dice.md §7)."""
    r = _HAND_RANKS[h]
    held, in_rank = s.cards[i, seat, h], s.rank_cards[i, seat, r]
    gain = (_DUP_STEP[min(held, _DUP_CAP)] * _HAND_SCORES[h]
            + _RANK_STEP[min(in_rank, _RANK_CAP)] * _HAND_BASES[h])
    s.cards[i, seat, h] = held + 1
    s.rank_cards[i, seat, r] = in_rank + 1
    if limited:
        left = s.supply[i, h] - 1
        s.supply[i, h] = left
        if left <= 0:
            s.piles[i] &= ~(_ONE << np.uint64(h))
    return gain


@kernel(inline=True)
def step_one(i, a, r, s, rewards, cfg):
    """Apply action ``a`` to game ``i`` (not over, ``a`` legal; ``s``: :func:`unpack`); its
    rewards go to row ``r`` of ``rewards``: the per-game body of :func:`step` and
    :func:`step_rows`, for compiled callers too.  ``cfg`` is ``(score_rewards, limited)``."""
    score_rewards, limited = cfg
    (to_move, done, key, counter, code, phase, free_rerolls, die_actions, round_, tokens, _, _, piles, _,
     score) = s
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
        gain += _buy(i, seat, a - BUY_START, s, limited)
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
            gain += _buy(i, seat, a - SECOND_START, s, limited)
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
def step(buf, actions, rewards, cfg):
    """Apply validated ``actions`` to every game (none over); fill ``rewards`` (B, P), zeroed.

    ``cfg`` is ``(score_rewards, limited)``.  ``score_rewards``: the mover is paid the change
    of its final score (docs/rules/rainbow_dice.md §7; ``reward="score"``); otherwise a
    finished game pays the win/loss rewards.  ``limited``: the supply is finite
    (``copies_per_hand`` not None) and is decremented by every card taken.
    """
    step_all(step_one, unpack(buf), actions, rewards, cfg)


@kernel
def step_rows(buf, rows, actions, rewards, cfg):
    """Apply validated ``actions[j]`` to game ``rows[j]``; its rewards go to ``rewards[j]`` (n, P)."""
    step_rows_all(step_one, unpack(buf), rows, actions, rewards, cfg)


# ---------------------------------------------------------------- observation
@kernel(inline=True)
def _seat_block(row, base, i, seat, s):
    """The block of ``seat`` of game ``i`` at ``row[base:]`` (zeroed): its tokens, score, cards (30)
    and cards per rank (6) (all counts non-negative)."""
    t, score, cards, rank_cards = s.tokens[i, seat], s.score[i, seat], s.cards[i, seat], s.rank_cards[i, seat]
    row[base] = 1.0
    row[base + SEAT_TOKENS] = _TOKEN_VALUE[min(t, TOKEN_SCALE)]
    for k in range(min(t, 3)):  # tokens >= 1, 2, 3
        row[base + SEAT_TOKENS + 1 + k] = 1.0
    row[base + SEAT_SCORE] = _SCORE_VALUE[min(score, SCORE_SCALE)]
    for h in range(NUM_HANDS):
        row[base + _CARDS0 + h] = _COUNT_VALUE[min(cards[h], COUNT_SCALE)]
    for k in range(NUM_RANKS):
        row[base + _RANKS0 + k] = _COUNT_VALUE[min(rank_cards[k], COUNT_SCALE)]


@kernel(inline=True)
def _reach_row(i, s, seats):
    """Game ``i``'s row of the reach table: its dice and, in the dice phase, its free rerolls and
    the die actions the observer ``seats[i]`` could afford (``min(tokens, 3 - used)``); later
    phases read level 0 (the satisfied hands)."""
    level = 0
    if s.phase[i] < SECOND_CARD:
        budget = min(min(np.int64(s.tokens[i, seats[i]]), MAX_BUDGET), MAX_BUDGET - np.int64(s.die_actions[i]))
        level = np.int64(s.free_rerolls[i]) * (MAX_BUDGET + 1) + budget
    return level * NUM_OUTCOMES + s.code[i]


@kernel(inline=True)
def observe_one(i, s, seats, reach, row):
    """Write game ``i``'s observation from ``seats[i]``'s point of view into ``row`` (335,): the
    per-game body of :func:`observe` (``s``: :func:`unpack`; ``reach`` is ``turn_dp.reach_table()``).

    The row is zeroed, then its non-zero entries are written (a select of 0 or 1 per entry
    is several times slower).
    """
    code, phase, free_rerolls, die_actions, round_ = s.code, s.phase, s.free_rerolls, s.die_actions, s.round_
    supply, cards, rank_cards = s.supply, s.cards, s.rank_cards
    P = s.tokens.shape[1]
    for k in range(row.shape[0]):
        row[k] = 0.0
    c = code[i]
    x = c
    for d in range(NUM_DICE):  # dice one-hots
        row[6 * d + x % 6] = 1.0
        x //= 6
    _hand_bits(row, _SATISFIED0, _SAT_BITS[c], _BYTE_FLAGS)
    ph = phase[i]
    if ph < GAME_OVER:  # no phase bit once over
        row[_PHASE0 + ph] = 1.0
    row[_FREE0 + free_rerolls[i]] = 1.0
    row[_USED0 + die_actions[i]] = 1.0
    row[_ROUND0] = _F32(round_[i] - 1) * _FROUND
    sup = supply[i]
    for h in range(NUM_HANDS):
        row[_SUPPLY0 + h] = _COUNT_VALUE[min(sup[h], COUNT_SCALE)]
    me = seats[i]
    for j in range(P):  # the observer first, then the next seats in turn order
        _seat_block(row, _SEATS0 + j * SEAT_BLOCK, i, (me + j) % P, s)
    mine, mine_ranks = cards[i, me], rank_cards[i, me]
    for r in range(NUM_RANKS):  # the observer's marginal gain per hand (0 for an empty pile)
        in_rank = min(mine_ranks[r], _RANK_CAP)
        for h in range(_RANK_START[r], _RANK_START[r + 1]):
            if sup[h] > 0:
                row[_GAIN0 + h] = _GAIN_TABLE[min(mine[h], _DUP_CAP) * (_RANK_CAP + 1) + in_rank, h]
    levels = reach[_reach_row(i, s, seats)]
    for h in range(NUM_HANDS):
        row[_REACH0 + h] = _REACH_VALUE[levels[h]]



@kernel
def observe(buf, seats, reach, out):
    """Fill ``out`` (B, 335) with every game's observation from ``seats[i]``'s point of view
    (layout in :mod:`envs.rainbow_dice.observation`); ``reach`` is ``turn_dp.reach_table()``.

    Games go in blocks: the block's reach rows (random reads in a 16 MiB table) are read once
    in a loop of their own, so that their cache misses overlap, then its rows are written
    (hence a loop of its own, not :func:`envs.core.kernels.observe_all`).  Returns a byte of
    the reach rows read (nothing to use; it keeps the first reads).
    """
    return observe_rows(unpack(buf), seats, reach, out)


@kernel(inline=True)
def observe_rows(s, seats, reach, out):
    """The body of :func:`observe` over the unpacked ``s`` (also the checked observation's)."""
    B = out.shape[0]
    touched = np.uint8(0)
    for start in range(0, B, _BLOCK):
        stop = min(B, start + _BLOCK)
        for i in range(start, stop):
            touched ^= reach[_reach_row(i, s, seats), 0]
        for i in range(start, stop):
            observe_one(i, s, seats, reach, out[i])
    return touched
