"""Rainbow Dice batched rules (spec ``rainbow_dice.md``): 6 coloured dice, 30 hand cards,
a shared market and tokens; 1..4 players, 12 rounds.

The action layout (``Discrete(145)``) is drawn in :mod:`.actions`; the observation layout
in :mod:`.observation`; positions in :mod:`.position`.

A turn: the dice are rolled (2 free rerolls, no die actions used).  In the rolling phase
the mover may adjust a die by +-1 (1 token), free-reroll any non-empty set of dice, stop
rolling, or end the dice phase at once by buying a satisfied card or taking tokens.  Once
no free reroll is left (used or forfeited) the final phase allows adjustments, single-die
token rerolls and the buy/take choice.  At most 3 die actions (adjustments plus token
rerolls) per turn.  After a buy, a second card for 3 tokens is offered when the mover
holds at least 3 tokens and some satisfied hand still has a copy; then the turn ends with
+1 token and the next seat rolls.

Dice are stored as one base-6 code per game (``code``; Red is the lowest digit), so the
satisfied hands and the observation head are table lookups.  Every step draws one
46656-outcome throw from the game's own counter-based stream; rerolled dice (all six for a
new turn) take their values from it, so a game depends only on its seed and its actions.
``score`` caches each seat's §7 total, which the rewards are differences of.

Rewards: ``reward="score"`` (default) gives the mover the change of its §7 total after
each action (tokens count 3 each, so spending one costs 3 and the end-of-turn token pays
3); a seat's rewards sum to its final score (less 3 per starting token when
``start_tokens`` > 0: those points are in the total before the first action).  ``reward="win"`` (2+ players) gives 0 until
the end, then +1 shared by the winners and -1 shared by the losers (0 for all on a full tie).
"""

from __future__ import annotations

import dataclasses

import numpy as np

from ..core import rng
from ..core.game import Game
from ..core.state import BatchState
from ..core.validate import require_int
from . import observation, position, view
from .actions import (
    ACTION_CODE_DELTA, ACTION_DIE_ACTION, ACTION_FREE_REROLL, ACTION_HAND, ACTION_KEEPS_FREE,
    ACTION_REROLL_MASK, ACTION_SLICES, ACTION_SPEND,
    ALL_DICE_MASK, BUY_START, DECLINE, NUM_ACTIONS, REROLL_BITS, SECOND_CARD_PRICE,
    SECOND_START, STOP, TAKE, TOKEN_REROLL_START, describe_action,
)
from .hands import ALL_DICE, HAND_RANKS, NUM_HANDS, NUM_OUTCOMES, PLACE, SATISFIED
from .position import (
    ALL_PILES, FINAL, FREE_REROLLS, GAME_OVER, LATE_ROUND, MAX_DIE_ACTIONS, NUM_ROUNDS, ROLLING,
    SECOND_CARD, UNLIMITED_SUPPLY,
)
from .scoring import NUM_RANKS, TOKEN_POINTS, card_gain


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


@dataclasses.dataclass
class RainbowState(BatchState):
    """Batched Rainbow Dice state (B games, P seats); see :class:`envs.core.state.BatchState`.

    ``code`` (B,) int64 dice code (:func:`envs.rainbow_dice.hands.dice_code`); ``phase`` (B,)
    int8 0 rolling, 1 final, 2 second card, 3 game over; ``free_rerolls`` (B,) int8 0..2;
    ``die_actions`` (B,) int8 0..3; ``round`` (B,) int8 1..12; ``tokens`` (B, P) int32;
    ``cards`` (B, P, 30) int16; ``supply`` (B, 30) int16 copies left (an unlimited supply is
    stored as :data:`~envs.rainbow_dice.position.UNLIMITED_SUPPLY` and never decremented);
    ``piles`` (B,) uint64 (bit h set while hand h has a copy left), ``rank_cards`` (B, P, 6)
    int32 and ``score`` (B, P) int32 cache the non-empty piles, the cards held per rank and
    the §7 totals.
    """

    to_move: np.ndarray
    done: np.ndarray
    rng_key: np.ndarray
    rng_counter: np.ndarray
    code: np.ndarray
    phase: np.ndarray
    free_rerolls: np.ndarray
    die_actions: np.ndarray
    round: np.ndarray
    tokens: np.ndarray
    cards: np.ndarray
    supply: np.ndarray
    piles: np.ndarray
    rank_cards: np.ndarray
    score: np.ndarray

    @property
    def dice(self) -> np.ndarray:
        """(B, 6) int8 dice in rainbow order (decoded from ``code``)."""
        return ALL_DICE.take(self.code, axis=0)


class RainbowDice(Game):
    """Batched Rainbow Dice rules.

    ``RainbowDice(num_players=1..4, copies_per_hand=10 (int >= 1, or None for unlimited),
    start_tokens=0, reward="score"|"win")``.
    """

    name = "rainbow_dice"
    env_id = "madang/RainbowDice-v0"
    num_actions = NUM_ACTIONS
    obs_size = observation.OBS_SIZE
    obs_slices = observation.OBS_SLICES
    action_slices = ACTION_SLICES
    min_players, max_players = 1, 4
    zero_sum = False
    reward_modes = ("score", "win")
    view_module = view

    def __init__(self, num_players: int = 1, copies_per_hand: int | None = 10, start_tokens: int = 0,
                 reward: str | None = None):
        super().__init__(num_players, reward)
        if copies_per_hand is not None:
            copies_per_hand = require_int(copies_per_hand, "copies_per_hand", 1, position.MAX_COUNT)
        self.copies_per_hand = copies_per_hand
        self.start_tokens = require_int(start_tokens, "start_tokens", 0, position.MAX_TOKENS)
        self._limited = copies_per_hand is not None

    # ------------------------------------------------------------ new games
    def new_games(self, key, counter):
        B, P = key.shape[0], self.num_players
        key, counter = key.astype(np.uint64), counter.astype(np.uint64).copy()
        code = rng.draw_index(key, counter, NUM_OUTCOMES)
        counter += np.uint64(1)
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

    # ---------------------------------------------------------------- masks
    def legal_mask(self, state):
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
    def observe(self, state, seats=None):
        return observation.encode(
            state.code, state.phase, state.free_rerolls, state.die_actions, state.round,
            state.supply, state.tokens, state.score, state.cards, state.rank_cards,
            self.observer_seats(state, seats),
        )

    def observation_position(self, obs_row):
        """The position an observation of the seat to move shows (:func:`.observation.position_of`)."""
        return observation.position_of(obs_row, self.num_players, self.copies_per_hand)

    # -------------------------------------------------------------- results
    def result(self, state, index=0):
        return {"scores": [int(x) for x in state.score[index]]}

    def to_position(self, state, index=0):
        return position.to_position(state, index, self.copies_per_hand)

    def from_position(self, position_dict, seed=None):
        key = rng.keys_from_seeds([rng.resolve_seed(seed)])
        return position.from_position(position_dict, self.num_players, self.copies_per_hand, key, RainbowState)

    def describe_action(self, action):
        return describe_action(action)

    def __repr__(self):
        return (f"RainbowDice(num_players={self.num_players}, copies_per_hand={self.copies_per_hand}, "
                f"start_tokens={self.start_tokens}, reward={self.reward!r})")
