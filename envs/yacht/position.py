"""Yacht position dicts (docs/rules/yacht.md §5.4): export, validation and import.

A position is JSON-compatible::

    {"round": 1, "to_move": 0, "dice": [1, 2, 2, 4, 6], "rolls_left": 2,
     "sheets": [[null, 4, ...], ...]}          # plus "game_over": true at the end

Import rejects, with a ``ValueError`` naming the problem: missing keys, non-int
values, 5 dice outside 1..6, ``rolls_left`` outside 0..2, ``round`` outside
1..12, a number of sheets other than the env's ``num_players``, sheets that are
not 12 entries of null or a score that ``category_scores`` can produce for that
category, and a ``to_move`` seat without an open category (unless every sheet
is full and ``"game_over"`` is true).  Unreachable but consistent positions
(uneven sheets) are accepted.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from ..core.validate import require_int, require_list
from .scoring import ACHIEVABLE, CATEGORY_NAMES, MULTISET_INDEX, MULTISETS, NUM_CATEGORIES, NUM_DICE, dice_code

_KEYS = ("round", "to_move", "dice", "rolls_left", "sheets")


def to_position(state, index: int) -> dict:
    """The position dict of game ``index`` of a batched Yacht state."""
    sheets = [
        [None if v < 0 else int(v) for v in seat_sheet] for seat_sheet in state.sheets[index]
    ]
    pos = {
        "round": int(state.round[index]),
        "to_move": int(state.to_move[index]),
        "dice": [int(d) for d in MULTISETS[state.dice[index]]],
        "rolls_left": int(state.rolls_left[index]),
        "sheets": sheets,
    }
    if state.done[index]:
        pos["game_over"] = True
    return pos


def from_position(pos, num_players: int, key: np.ndarray, state_cls):
    """Validate ``pos`` and build a one-game state of type ``state_cls`` with stream ``key``."""
    if not isinstance(pos, Mapping):
        raise ValueError(f"position must be a dict, got {type(pos).__name__}")
    missing = [k for k in _KEYS if k not in pos]
    if missing:
        raise ValueError(f"position is missing keys {missing}")
    rnd = require_int(pos["round"], "round", 1, 12)
    rolls_left = require_int(pos["rolls_left"], "rolls_left", 0, 2)
    dice = require_list(pos["dice"], "dice", NUM_DICE)
    dice = [require_int(d, f"dice[{i}]", 1, 6) for i, d in enumerate(dice)]
    sheets = require_list(pos["sheets"], "sheets", num_players, what=f"one per seat ({num_players} players)")
    table = np.full((num_players, NUM_CATEGORIES), -1, dtype=np.int16)
    for s, sheet in enumerate(sheets):
        sheet = require_list(sheet, f"sheets[{s}]", NUM_CATEGORIES)
        for c, v in enumerate(sheet):
            if v is None:
                continue
            v = require_int(v, f"sheets[{s}][{c}]", 0, None)
            if v not in ACHIEVABLE[c]:
                raise ValueError(
                    f"sheets[{s}][{c}] = {v} is not a possible {CATEGORY_NAMES[c]} score"
                )
            table[s, c] = v
    to_move = require_int(pos["to_move"], "to_move", 0, num_players - 1)
    game_over = pos.get("game_over", False)
    if not isinstance(game_over, bool):
        raise ValueError(f"game_over must be a bool, got {game_over!r}")
    all_full = bool((table >= 0).all())
    if game_over and not all_full:
        raise ValueError("game_over is true but some sheet still has an open category")
    if not game_over and not (table[to_move] < 0).any():
        raise ValueError(f"to_move seat {to_move} has no open category")
    return state_cls(
        to_move=np.array([to_move], np.int8),
        done=np.array([game_over], bool),
        rng_key=np.asarray(key, dtype=np.uint64).reshape(1),
        rng_counter=np.zeros(1, np.uint64),
        dice=np.array([MULTISET_INDEX[dice_code(np.array(dice))]], np.int16),
        rolls_left=np.array([0 if game_over else rolls_left], np.int8),
        round=np.array([rnd], np.int8),
        sheets=table[None],
    )
