"""The numpy implementation of Rainbow Dice's batched rules: the oracle of the compiled core.

This is the vectorized core madang shipped before the rules were compiled
(:mod:`envs.rainbow_dice.kernels`): masked array arithmetic over the whole batch, with the
legal mask built as three 64-bit words per game and the observation from table lookups.
:class:`NumpyRainbowDice` keeps every public behaviour of
:class:`envs.rainbow_dice.RainbowDice` (it only replaces new games, masks, steps and
observations), so the differential test steps both with the same seeds and actions and
compares everything.
"""

from __future__ import annotations

import numpy as np

from envs.core import rng
from envs.core.game import Game
from envs.rainbow_dice.actions import (
    ACTION_CODE_DELTA, ACTION_DIE_ACTION, ACTION_FREE_REROLL, ACTION_HAND, ACTION_KEEPS_FREE, ACTION_REROLL_MASK,
    ACTION_SPEND, ALL_DICE_MASK, BUY_START, DECLINE, NUM_ACTIONS, REROLL_BITS, SECOND_CARD_PRICE, SECOND_START,
    STOP, TAKE, TOKEN_REROLL_START,
)
from envs.rainbow_dice.hands import ALL_DICE, HAND_RANKS, NUM_DICE, NUM_HANDS, NUM_OUTCOMES, PLACE, SATISFIED
from envs.rainbow_dice.observation import (
    COUNT_SCALE, GAIN_TABLE, MAX_SEATS, OBS_SIZE, OBS_SLICES, SCORE_SCALE, SEAT_BLOCK, SEAT_CARDS, SEAT_PRESENT,
    SEAT_RANKS, SEAT_SCORE, SEAT_TOKENS, SEAT_TOKENS_AT_LEAST, TOKEN_SCALE,
)
from envs.rainbow_dice.position import (
    ALL_PILES, FINAL, FREE_REROLLS, GAME_OVER, LATE_ROUND, MAX_DIE_ACTIONS, NUM_ROUNDS, ROLLING, SECOND_CARD,
)
from envs.rainbow_dice.position import UNLIMITED_SUPPLY
from envs.rainbow_dice.rules import RainbowDice, RainbowState
from envs.rainbow_dice.scoring import DUP_STEP, NUM_RANKS, RANK_STEP, TOKEN_POINTS, card_gain
from envs.rainbow_dice.turn_dp import MAX_BUDGET, REACH_LEVELS, reach_table


def _bits(flags) -> np.ndarray:
    """Pack bool rows (..., n <= 64) into uint64 bit masks (bit i = column i)."""
    flags = np.asarray(flags, dtype=np.uint64)
    return (flags << np.arange(flags.shape[-1], dtype=np.uint64)).sum(axis=-1, dtype=np.uint64)


# The legal mask as bits of three uint64 words: word k holds actions 64k .. 64k + 63.
_U64 = np.uint64
_ZERO = _U64(0)
_SAT_BITS = _bits(SATISFIED)  # (46656,) satisfied hands
_ADJ_BITS = _bits(np.concatenate([ALL_DICE < 6, ALL_DICE > 1], axis=1))  # +1 / -1 allowed, word 1
_FREE_REROLL_BITS = _U64(0xFFFF_FFFF_FFFF_FFFE)  # ids 1..63
_TOKEN_REROLL_BITS = _U64(0x3F << (TOKEN_REROLL_START - 64))
_STOP_BIT = _U64(1 << (STOP - 64))
_BUY_SHIFT = _U64(BUY_START - 64)
_TAKE_BIT = _U64(1 << (TAKE - 64))
_SECOND_SHIFT = _U64(SECOND_START - 64)
_SECOND_WRAP = _U64(128 - SECOND_START)  # second-card hands from this one on live in word 2
_DECLINE_BIT = _U64(1 << (DECLINE - 128))
_HAND_BIT = np.left_shift(_U64(1), np.arange(NUM_HANDS, dtype=np.uint64))


def _kept_codes() -> np.ndarray:
    """(64 * 46656,) uint16: entry ``m * 46656 + c`` is code ``c`` with the dice of mask ``m`` zeroed."""
    digits = (ALL_DICE.astype(np.int64) - 1) * PLACE  # (46656, 6) place-valued digits
    kept = np.stack([digits[:, ~REROLL_BITS[m]].sum(axis=1) for m in range(64)])
    return kept.reshape(-1).astype(np.uint16)


_KEPT = _kept_codes()

# ------------------------------------------------------------ observation tables
_SEATS0 = OBS_SLICES["seats"].start
_DICE_TABLE = np.concatenate(
    [np.eye(6, dtype=bool)[ALL_DICE.astype(np.int64) - 1].reshape(-1, 6 * NUM_DICE), SATISFIED], axis=1,
)
"""(46656, 66) bool dice one-hot and satisfied hands of every dice code (bool: a smaller table)."""


def _turn_table() -> np.ndarray:
    """(4 * 3 * 4, 10) phase, free-rerolls and die-actions one-hots; row (phase * 3 + F) * 4 + U."""
    rows = []
    for phase in range(4):  # 3 = game over: no phase bit
        for f in range(3):
            for u in range(4):
                row = np.zeros(10, np.float32)
                if phase < 3:
                    row[phase] = 1
                row[3 + f] = 1
                row[6 + u] = 1
                rows.append(row)
    return np.array(rows)


_TURN_TABLE = _turn_table()
_DUP_CAP, _RANK_CAP = DUP_STEP.size - 1, RANK_STEP.size - 1  # the bonuses stop growing at 5 copies, 10 cards
_FROUND = np.float32(1 / 11)
_HANDS = np.arange(NUM_HANDS)
_REACH_SCALE = np.float32(1 / REACH_LEVELS)
_SUPPLY0 = OBS_SLICES["supply"].start
_GAIN, _REACH = OBS_SLICES["gain"], OBS_SLICES["reach"]
# Supply and seat-block columns: value -> min(value, cap) / cap.
_BLOCK_CAP = np.full(SEAT_BLOCK, COUNT_SCALE, np.float32)
_BLOCK_CAP[[SEAT_PRESENT, 2, 3, 4]] = 1
_BLOCK_CAP[SEAT_TOKENS], _BLOCK_CAP[SEAT_SCORE] = TOKEN_SCALE, SCORE_SCALE
_CAPS = [np.concatenate([np.full(NUM_HANDS, COUNT_SCALE, np.float32), np.tile(_BLOCK_CAP, p)])
         for p in range(MAX_SEATS + 1)]
_SCALES = [(1 / c).astype(np.float32) for c in _CAPS]
_TOKEN_TABLE = np.concatenate(
    [np.arange(TOKEN_SCALE + 1)[:, None], np.arange(TOKEN_SCALE + 1)[:, None] >= np.arange(1, 4)], axis=1
).astype(np.float32)
"""(41, 4) raw token columns of a seat block: min(tokens, 40) and tokens >= 1, 2, 3."""
def encode(code, phase, free_rerolls, die_actions, round_, supply, tokens, scores, cards, rank_cards,
           seats) -> np.ndarray:
    """Encode B games from ``seats``' points of view; a fresh (B, OBS_SIZE) float32 array.

    ``code`` (B,) dice codes; ``phase`` (B,) 0 rolling, 1 final, 2 second card, 3 over;
    ``free_rerolls``, ``die_actions``, ``round_`` (B,); ``supply`` (B, 30) copies left (an
    unlimited supply is stored as a large constant); ``tokens``, ``scores`` (B, P);
    ``cards`` (B, P, 30); ``rank_cards`` (B, P, 6) cards held per rank; ``seats`` (B,)
    observing seat.
    """
    B, P = tokens.shape
    obs = np.zeros((B, OBS_SIZE), dtype=np.float32)  # zeroed pages beat a strided fill of absent seats
    obs[:, :66] = _DICE_TABLE.take(code, axis=0)
    turn = (phase.astype(np.int64) * 3 + free_rerolls) * 4 + die_actions
    obs[:, 66:76] = _TURN_TABLE.take(turn, axis=0)
    obs[:, 76] = (round_ - 1) * _FROUND
    if P == 1:
        tok, sc, cd, rk = tokens, scores, cards, rank_cards
    else:
        # Row gathers over (B * P) flattened seats (take_along_axis is far slower here).
        rel = (np.arange(B)[:, None] * P + (seats.astype(np.int64)[:, None] + np.arange(P)) % P).ravel()
        tok = tokens.reshape(B * P).take(rel).reshape(B, P)
        sc = scores.reshape(B * P).take(rel).reshape(B, P)
        cd = cards.reshape(B * P, NUM_HANDS).take(rel, axis=0).reshape(B, P, NUM_HANDS)
        rk = rank_cards.reshape(B * P, NUM_RANKS).take(rel, axis=0).reshape(B, P, NUM_RANKS)
    # Raw supply and seat values in one contiguous buffer, then one clip-and-scale pass into obs.
    raw = np.empty((B, NUM_HANDS + P * SEAT_BLOCK), dtype=np.float32)
    raw[:, :NUM_HANDS] = supply
    blocks = raw[:, NUM_HANDS:].reshape(B, P, SEAT_BLOCK)
    blocks[:, :, SEAT_PRESENT] = 1.0
    blocks[:, :, SEAT_TOKENS : SEAT_TOKENS_AT_LEAST.stop] = _TOKEN_TABLE.take(np.minimum(tok, TOKEN_SCALE), axis=0)
    blocks[:, :, SEAT_SCORE] = sc
    blocks[:, :, SEAT_CARDS] = cd
    blocks[:, :, SEAT_RANKS] = rk
    np.minimum(raw, _CAPS[P], out=raw)
    np.multiply(raw, _SCALES[P], out=obs[:, _SUPPLY0 : _SEATS0 + P * SEAT_BLOCK])
    # The observing seat's marginal gains and the reach of every hand.
    copies = np.minimum(cd[:, 0], _DUP_CAP).astype(np.int64)
    in_rank = np.minimum(rk[:, 0], _RANK_CAP).astype(np.int64)[:, HAND_RANKS]
    gain = GAIN_TABLE.reshape(-1).take((copies * (_RANK_CAP + 1) + in_rank) * NUM_HANDS + _HANDS)
    obs[:, _GAIN] = np.where(supply > 0, gain, np.float32(0))
    budget = np.minimum(np.minimum(tok[:, 0], MAX_BUDGET), MAX_BUDGET - die_actions.astype(np.int64))
    dice_phase = phase < 2  # later phases: the dice are final, reach = satisfied (F = L = 0)
    level = np.where(dice_phase, free_rerolls.astype(np.int64) * (MAX_BUDGET + 1) + budget, 0)
    np.multiply(reach_table().take(level * NUM_OUTCOMES + code, axis=0), _REACH_SCALE, out=obs[:, _REACH])
    return obs


class NumpyRainbowDice(RainbowDice):
    """Rainbow Dice with the numpy core (the oracle); same API, configuration and results."""

    # ------------------------------------------------------------ new games
    def new_games(self, key, counter):
        key, counter = key.astype(np.uint64), counter.astype(np.uint64).copy()
        code = rng.draw_index(key, counter, NUM_OUTCOMES)
        counter += np.uint64(1)
        B, P = key.shape[0], self.num_players
        supply = self.copies_per_hand if self._limited else UNLIMITED_SUPPLY
        return RainbowState(
            to_move=np.zeros(B, np.int8),
            done=np.zeros(B, bool),
            rng_key=key.copy(),
            rng_counter=counter,
            code=code,
            phase=np.full(B, ROLLING, np.int8),
            free_rerolls=np.full(B, FREE_REROLLS, np.int8),
            die_actions=np.zeros(B, np.int8),
            round=np.ones(B, np.int8),
            tokens=np.full((B, P), self.start_tokens, np.int32),
            cards=np.zeros((B, P, NUM_HANDS), np.int16),
            supply=np.full((B, NUM_HANDS), supply, np.int16),
            piles=np.full(B, ALL_PILES),
            rank_cards=np.zeros((B, P, NUM_RANKS), np.int32),
            score=np.full((B, P), TOKEN_POINTS * self.start_tokens, np.int32),
        )

    _reset_rows = Game._reset_rows  # the generic new_games / put

    # ---------------------------------------------------------------- masks
    def _legal_mask(self, state):
        # Built as three 64-bit words per game (bit a = action a), then unpacked once.
        B = state.batch_size
        phase = state.phase
        rolling = phase == ROLLING
        dice_phase = phase < SECOND_CARD
        second = phase == SECOND_CARD
        tokens = state.tokens.reshape(-1).take(np.arange(B) * self.num_players + state.to_move)
        can_act = dice_phase & (tokens >= 1) & (state.die_actions < MAX_DIE_ACTIONS)
        buyable = _SAT_BITS.take(state.code) & state.piles
        w0 = np.where(rolling, _FREE_REROLL_BITS, _ZERO)
        w1 = np.where(can_act, _ADJ_BITS.take(state.code), _ZERO)
        w1 |= np.where(can_act & (phase == FINAL), _TOKEN_REROLL_BITS, _ZERO)
        w1 |= np.where(rolling, _STOP_BIT, _ZERO)
        w1 |= np.where(dice_phase, (buyable << _BUY_SHIFT) | _TAKE_BIT, _ZERO)
        w1 |= np.where(second, buyable << _SECOND_SHIFT, _ZERO)  # bits above 63 drop out
        w2 = np.where(second, (buyable >> _SECOND_WRAP) | _DECLINE_BIT, _ZERO)
        words = np.stack([w0, w1, w2], axis=1)
        bits = np.unpackbits(words.view(np.uint8), axis=1, count=NUM_ACTIONS, bitorder="little")
        return bits.view(bool)  # phase GAME_OVER leaves every entry False

    # ----------------------------------------------------------------- step
    def _apply(self, state, actions):
        B, P = state.batch_size, self.num_players
        a = actions
        seat = state.to_move.astype(np.int64)
        mover = np.arange(B) * P + seat  # flat index of the mover in (B, P) arrays
        fresh = rng.draw_index(state.rng_key, state.rng_counter, NUM_OUTCOMES)
        state.rng_counter += np.uint64(1)

        spend = ACTION_SPEND.take(a)
        tokens = state.tokens.reshape(-1).take(mover).astype(np.int64) - spend
        gain = -TOKEN_POINTS * spend
        code = state.code + ACTION_CODE_DELTA.take(a)
        reroll = ACTION_REROLL_MASK.take(a)
        used = state.die_actions + ACTION_DIE_ACTION.take(a).astype(np.int8)
        # A free reroll uses one; stop, buy and take forfeit the rest.
        free = ((state.free_rerolls - ACTION_FREE_REROLL.take(a)) * ACTION_KEEPS_FREE.take(a)).astype(np.int8)
        phase = np.where((free == 0) & (state.phase == ROLLING), FINAL, state.phase).astype(np.int8)

        hand = ACTION_HAND.take(a)
        buyers = np.flatnonzero(hand >= 0)
        if buyers.size:
            h, s = hand[buyers], seat[buyers]
            r = HAND_RANKS[h]
            gain[buyers] += card_gain(state.cards[buyers, s, h], state.rank_cards[buyers, s, r], h)
            state.cards[buyers, s, h] += 1
            state.rank_cards[buyers, s, r] += 1
            if self._limited:
                left = state.supply[buyers, h] - 1
                state.supply[buyers, h] = left
                state.piles[buyers] &= np.where(left > 0, ALL_PILES, ~_HAND_BIT[h])

        take = a == TAKE
        if take.any():
            amount = np.where(state.round >= LATE_ROUND, 2, 1)
            tokens += np.where(take, amount, 0)
            gain += np.where(take, TOKEN_POINTS * amount, 0)

        first = (a >= BUY_START) & (a < TAKE)
        ends = a >= TAKE
        if first.any():
            f = np.flatnonzero(first)
            buyable = _SAT_BITS.take(code[f]) & state.piles[f]
            offer = (tokens[f] >= SECOND_CARD_PRICE) & (buyable != 0)
            phase[f[offer]] = SECOND_CARD
            ends[f[~offer]] = True

        over = np.zeros(B, dtype=bool)
        if ends.any():
            e = np.flatnonzero(ends)
            tokens[e] += 1  # end-of-turn token
            gain[e] += TOKEN_POINTS
            nxt = seat[e] + 1
            wrap = nxt >= P
            rnd = state.round[e] + wrap
            fin = rnd > NUM_ROUNDS
            over[e] = fin
            state.to_move[e] = np.where(wrap | fin, np.where(fin, seat[e], 0), nxt)
            state.round[e] = np.minimum(rnd, NUM_ROUNDS)
            phase[e] = np.where(fin, GAME_OVER, ROLLING)
            free[e] = np.where(fin, 0, FREE_REROLLS)
            used[e] = 0
            reroll[e] = np.where(fin, 0, ALL_DICE_MASK)

        # Rerolled dice (a free or token reroll, or a new turn's throw) take the fresh values.
        base = reroll * NUM_OUTCOMES
        code = _KEPT.take(base + code) + fresh - _KEPT.take(base + fresh)

        state.code = code
        state.phase = phase
        state.free_rerolls = free
        state.die_actions = used
        state.tokens.reshape(-1)[mover] = tokens
        state.score.reshape(-1)[mover] += gain.astype(np.int32)
        state.done |= over

        rewards = np.zeros((B, P), dtype=np.float32)
        if self.reward == "score":
            rewards.reshape(-1)[mover] = gain
        elif over.any():
            rewards[over] = self.win_rewards(state.score[over])
        return rewards

    # ---------------------------------------------------------- observation
    def _observe(self, state, seats):
        return encode(
            state.code, state.phase, state.free_rerolls, state.die_actions, state.round,
            state.supply, state.tokens, state.score, state.cards, state.rank_cards,
            self.observer_seats(state, seats),
        )

    _apply_rows = Game._apply_rows  # the generic take / step / put


ORACLE = NumpyRainbowDice
"""The oracle class (what ``madang bench`` and the differential test look up)."""
