"""Rainbow Dice action layout (docs/rules/rainbow_dice.md §12.1): one flat ``Discrete(145)``::

    0 ....... 63 | 64 .. 69 | 70 .. 75 | 76 .. 81 | 82   | 83 ..... 112 | 113  | 114 .... 143 | 144
    free reroll  | die +1   | die -1   | token    | stop | buy hand     | take | second card  | decline
    of the dice  | (1 tok)  | (1 tok)  | reroll   |      | id - 83      | toks | id - 114     | second
    whose bit is | die      | die      | die      |      | (ends the    |      | (3 tokens)   |
    set (0 never)| id - 64  | id - 70  | id - 76  |      |  dice phase) |      |              |

Offsets are named once here; per-action lookup tables (indexed by action id) let the
batched rules treat every kind of action with the same few vector operations.
"""

from __future__ import annotations

import numpy as np

from .hands import HAND_NAMES, NUM_DICE, NUM_HANDS, PLACE

REROLL_START, NUM_REROLL = 0, 64
UP_START = REROLL_START + NUM_REROLL  # 64
DOWN_START = UP_START + NUM_DICE  # 70
TOKEN_REROLL_START = DOWN_START + NUM_DICE  # 76
STOP = TOKEN_REROLL_START + NUM_DICE  # 82
BUY_START = STOP + 1  # 83
TAKE = BUY_START + NUM_HANDS  # 113
SECOND_START = TAKE + 1  # 114
DECLINE = SECOND_START + NUM_HANDS  # 144
NUM_ACTIONS = DECLINE + 1  # 145
ACTION_SLICES = {
    "free_reroll": slice(REROLL_START, UP_START),
    "adjust_up": slice(UP_START, DOWN_START),
    "adjust_down": slice(DOWN_START, TOKEN_REROLL_START),
    "token_reroll": slice(TOKEN_REROLL_START, STOP),
    "stop": slice(STOP, STOP + 1),
    "buy": slice(BUY_START, TAKE),
    "take_tokens": slice(TAKE, TAKE + 1),
    "second_card": slice(SECOND_START, DECLINE),
    "decline": slice(DECLINE, NUM_ACTIONS),
}
"""The action layout as named slices of the flat action ids (tile 0..NUM_ACTIONS exactly)."""

SECOND_CARD_PRICE = 3
ALL_DICE_MASK = (1 << NUM_DICE) - 1

REROLL_BITS = ((np.arange(NUM_REROLL)[:, None] >> np.arange(NUM_DICE)[None, :]) & 1).astype(bool)
"""(64, 6) bool: ``REROLL_BITS[m, i]`` is True when reroll mask ``m`` rerolls die ``i``."""


def _tables():
    ids = np.arange(NUM_ACTIONS)
    reroll_mask = np.zeros(NUM_ACTIONS, np.int64)  # dice rerolled by the action itself
    reroll_mask[REROLL_START:UP_START] = ids[REROLL_START:UP_START]
    reroll_mask[TOKEN_REROLL_START:STOP] = 1 << np.arange(NUM_DICE)
    code_delta = np.zeros(NUM_ACTIONS, np.int64)  # change of the dice code by an adjustment
    code_delta[UP_START:DOWN_START] = PLACE
    code_delta[DOWN_START:TOKEN_REROLL_START] = -PLACE
    die_action = np.zeros(NUM_ACTIONS, np.int64)  # counts toward the 3-per-turn cap
    die_action[UP_START:STOP] = 1
    spend = die_action.copy()  # tokens paid
    spend[SECOND_START:DECLINE] = SECOND_CARD_PRICE
    hand = np.full(NUM_ACTIONS, -1, np.int64)  # card taken
    hand[BUY_START:TAKE] = np.arange(NUM_HANDS)
    hand[SECOND_START:DECLINE] = np.arange(NUM_HANDS)
    free_reroll = (ids < UP_START).astype(np.int8)  # uses a free reroll
    keeps_free = (ids < STOP).astype(np.int8)  # leaves the remaining free rerolls in place
    return reroll_mask, code_delta, die_action, spend, hand, free_reroll, keeps_free


(ACTION_REROLL_MASK, ACTION_CODE_DELTA, ACTION_DIE_ACTION, ACTION_SPEND, ACTION_HAND, ACTION_FREE_REROLL,
 ACTION_KEEPS_FREE) = _tables()


def describe_action(action: int) -> str:
    """A short human-readable name of a flat action id."""
    a = int(action)
    colours = ("R", "O", "Y", "G", "B", "P")
    if REROLL_START <= a < UP_START:
        return "free reroll " + ("".join(colours[i] for i in range(NUM_DICE) if a >> i & 1) or "nothing")
    if UP_START <= a < DOWN_START:
        return f"adjust {colours[a - UP_START]} +1"
    if DOWN_START <= a < TOKEN_REROLL_START:
        return f"adjust {colours[a - DOWN_START]} -1"
    if TOKEN_REROLL_START <= a < STOP:
        return f"token reroll {colours[a - TOKEN_REROLL_START]}"
    if a == STOP:
        return "stop rolling"
    if BUY_START <= a < TAKE:
        return f"buy {HAND_NAMES[a - BUY_START]}"
    if a == TAKE:
        return "take tokens"
    if SECOND_START <= a < DECLINE:
        return f"buy second {HAND_NAMES[a - SECOND_START]}"
    if a == DECLINE:
        return "decline second card"
    return f"out-of-range action {a}"
