"""Rainbow Dice position dicts (docs/rules/rainbow_dice.md §12.4): export, validation and import.

A position is JSON-compatible::

    {"round": 1, "to_move": 0, "phase": "rolling", "dice": [1, 2, 3, 4, 5, 6],
     "free_rerolls_left": 2, "die_actions_used": 0, "tokens": [0],
     "cards": [[0] * 30], "supply": [10] * 30}          # supply null when unlimited

Import rejects, with a ``ValueError`` naming the problem, anything that breaks the position
invariants of docs/rules/rainbow_dice.md §12.4: missing keys, non-int values, 6 dice in 1..6, ``"rolling"`` exactly
when ``free_rerolls_left`` is 1 or 2, ``die_actions_used`` in 0..3, non-negative counts and
tokens, one token count and one 30-entry card list per seat of the env, ``supply`` null
exactly when the env's ``copies_per_hand`` is None, held cards plus supply within
``copies_per_hand`` per hand, and a ``"second_card"`` position that would not be offered
(tokens < 3 or no satisfied hand with a copy left).  Unreachable but consistent positions
are accepted.

Implementation limits, tied to the game clock so that play never leaves them (every
position the engine reaches loads again): a seat holds at most :data:`MAX_COUNT` copies
of a hand plus 2 for each turn it has completed (plus 1 for the mover at a second-card
decision, the copy just bought), and at most :data:`MAX_TOKENS` tokens plus 3 for each
completed turn (a turn adds at most 2 taken tokens and the end-of-turn token).  A supply
entry is at most :data:`MAX_COUNT`.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from ..core.validate import require_int, require_list
from .actions import SECOND_CARD_PRICE
from .hands import NUM_DICE, NUM_HANDS, SATISFIED, dice_code
from .scoring import RANK_ONEHOT, totals

PHASES = ("rolling", "final", "second_card", "game_over")
ROLLING, FINAL, SECOND_CARD, GAME_OVER = range(4)
NUM_ROUNDS = 12
LATE_ROUND = 7  # taking tokens pays 2 from this round on (docs/rules/rainbow_dice.md §6)
FREE_REROLLS = 2
MAX_DIE_ACTIONS = 3
MAX_COUNT = 9999
MAX_TOKENS = 10**6
CARDS_PER_TURN = 2  # the turn's card and the optional second card
TOKENS_PER_TURN = 3  # +2 taken (rounds 7-12) and the end-of-turn token
UNLIMITED_SUPPLY = MAX_COUNT
"""The stored supply of every hand when ``copies_per_hand`` is None (never decremented)."""
ALL_PILES = np.uint64((1 << NUM_HANDS) - 1)


def pile_bits(supply) -> np.ndarray:
    """Bit masks of the hands with a copy left (bit h = hand h): supply (..., 30) -> (...) uint64."""
    bits = np.left_shift(np.uint64(1), np.arange(NUM_HANDS, dtype=np.uint64))
    return np.bitwise_or.reduce(np.where(np.asarray(supply) > 0, bits, np.uint64(0)), axis=-1)
_KEYS = ("round", "to_move", "phase", "dice", "free_rerolls_left", "die_actions_used",
         "tokens", "cards", "supply")


def to_position(state, index: int, copies_per_hand: int | None) -> dict:
    """The position dict of game ``index`` of a batched Rainbow Dice state."""
    i = index
    return {
        "round": int(state.round[i]),
        "to_move": int(state.to_move[i]),
        "phase": PHASES[int(state.phase[i])],
        "dice": [int(d) for d in state.dice[i]],
        "free_rerolls_left": int(state.free_rerolls[i]),
        "die_actions_used": int(state.die_actions[i]),
        "tokens": [int(t) for t in state.tokens[i]],
        "cards": [[int(c) for c in seat] for seat in state.cards[i]],
        "supply": None if copies_per_hand is None else [int(s) for s in state.supply[i]],
    }


def _counts(value, name: str, limit: int = MAX_COUNT) -> np.ndarray:
    entries = require_list(value, name, NUM_HANDS, what="one count per hand")
    return np.array([require_int(c, f"{name}[{h}]", 0, limit) for h, c in enumerate(entries)])


def completed_turns(rnd: int, to_move: int, phase: int, num_players: int) -> np.ndarray:
    """(P,) turns each seat has finished at round ``rnd`` with ``to_move`` mid-turn (all 12 once over)."""
    if phase == GAME_OVER:
        return np.full(num_players, NUM_ROUNDS)
    return np.where(np.arange(num_players) < to_move, rnd, rnd - 1)


def from_position(pos, num_players: int, copies_per_hand: int | None, key: np.ndarray, state_cls):
    """Validate ``pos`` and build a one-game state of type ``state_cls`` with stream ``key``."""
    if not isinstance(pos, Mapping):
        raise ValueError(f"position must be a dict, got {type(pos).__name__}")
    missing = [k for k in _KEYS if k not in pos]
    if missing:
        raise ValueError(f"position is missing keys {missing}")
    rnd = require_int(pos["round"], "round", 1, NUM_ROUNDS)
    to_move = require_int(pos["to_move"], "to_move", 0, num_players - 1)
    if pos["phase"] not in PHASES:
        raise ValueError(f"phase must be one of {list(PHASES)}, got {pos['phase']!r}")
    phase = PHASES.index(pos["phase"])
    dice = require_list(pos["dice"], "dice", NUM_DICE)
    dice = [require_int(d, f"dice[{i}]", 1, 6) for i, d in enumerate(dice)]
    free = require_int(pos["free_rerolls_left"], "free_rerolls_left", 0, FREE_REROLLS)
    if (phase == ROLLING) != (free > 0):
        raise ValueError(
            f"free_rerolls_left = {free} contradicts phase {pos['phase']!r} "
            "(rolling exactly when free rerolls are left)"
        )
    used = require_int(pos["die_actions_used"], "die_actions_used", 0, MAX_DIE_ACTIONS)
    done_turns = completed_turns(rnd, to_move, phase, num_players)
    bought_now = (np.arange(num_players) == to_move) & (phase == SECOND_CARD)
    token_limit = MAX_TOKENS + TOKENS_PER_TURN * done_turns
    card_limit = MAX_COUNT + CARDS_PER_TURN * done_turns + bought_now
    tokens = require_list(pos["tokens"], "tokens", num_players, what=f"one per seat ({num_players} players)")
    tokens = np.array([require_int(t, f"tokens[{s}]", 0, int(token_limit[s])) for s, t in enumerate(tokens)])
    cards = require_list(pos["cards"], "cards", num_players, what=f"one per seat ({num_players} players)")
    cards = np.stack([_counts(c, f"cards[{s}]", int(card_limit[s])) for s, c in enumerate(cards)])
    if copies_per_hand is None:
        if pos["supply"] is not None:
            raise ValueError("supply must be null: this env has an unlimited supply (copies_per_hand=None)")
        supply = np.full(NUM_HANDS, UNLIMITED_SUPPLY, np.int64)
    else:
        if pos["supply"] is None:
            raise ValueError(f"supply must list 30 counts: this env has copies_per_hand={copies_per_hand}")
        supply = _counts(pos["supply"], "supply")
        over = np.flatnonzero(cards.sum(axis=0) + supply > copies_per_hand)
        if over.size:
            h = int(over[0])
            raise ValueError(
                f"held cards plus supply of hand {h} exceed copies_per_hand={copies_per_hand}: "
                f"{int(cards[:, h].sum())} held + {int(supply[h])} in supply"
            )
    code = int(dice_code(dice))
    if phase == SECOND_CARD:
        buyable = SATISFIED[code] & (supply > 0)
        if tokens[to_move] < SECOND_CARD_PRICE or not buyable.any():
            raise ValueError(
                "a second_card position needs the mover to hold at least 3 tokens and the dice to "
                "satisfy some hand with a copy left"
            )
    return state_cls(
        to_move=np.array([to_move], np.int8),
        done=np.array([phase == GAME_OVER]),
        rng_key=np.asarray(key, dtype=np.uint64).reshape(1),
        rng_counter=np.zeros(1, np.uint64),
        code=np.array([code], np.int64),
        phase=np.array([phase], np.int8),
        free_rerolls=np.array([free], np.int8),
        die_actions=np.array([used], np.int8),
        round=np.array([rnd], np.int8),
        tokens=tokens[None].astype(np.int32),
        cards=cards[None].astype(np.int16),
        supply=supply[None].astype(np.int16),
        piles=pile_bits(supply)[None],
        rank_cards=(cards @ RANK_ONEHOT)[None].astype(np.int32),
        score=totals(cards, tokens)[None].astype(np.int32),
    )
