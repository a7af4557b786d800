"""Go-Stop position dicts (docs/rules/gostop.md §12.5): export, validation and import.

::

    {"to_move": 0, "hands": [[...], [...]], "layout": [...], "ppuk_owner": {"4": 0},
     "stock": [...top first...], "captured": [[...], [...]],
     "go_count": [0, 0], "go_score": [0, 0], "ppuk_count": [0, 0]}
    # plus "result": {"winner": seat or None, "payout": int, "reason": str} at the end

Import rejects, with a ``ValueError`` naming the problem: a missing or unknown key, lists
of the wrong length, card ids that are not ints in 0..47 or appear twice, a month with more
than 3 layout cards, a ``ppuk_owner`` month without exactly 3 layout cards or with an owner
other than 0/1, ``to_move`` not 0/1 or (without a result) a ``to_move`` seat with no card,
a negative ``go_count``, a seat's ``go_count`` plus the cards in its hand above
:data:`GO_BUDGET`, a ``go_score`` outside 0..1000 or other than 0 with ``go_count`` 0,
``ppuk_count`` outside 0..2 (0..3 in a finished position), and a malformed result.  Cards
listed nowhere go to the bottom of the stock in ascending id order.  Positions never run the
setup checks (no redeal or chongtong on loading).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from ..core.validate import require_int, require_list
from . import cards as C
from .scoring import GO_BUDGET, scores
from .state import OVER, PHASE_NAMES, PLAY, REASONS, GoStopState, empty_state

KEYS = ("to_move", "hands", "layout", "ppuk_owner", "stock", "captured", "go_count", "go_score",
        "ppuk_count")
MAX_GO_SCORE = 1000  # our bound on loaded go scores (combination scores stay far below it)


def to_position(state: GoStopState, index: int) -> dict:
    """The position dict of game ``index`` (at a PLAY decision or at the end of the deal)."""
    i = int(index)
    if not state.done[i] and state.phase[i] != PLAY:
        raise ValueError(
            f"to_position is defined at PLAY decisions and at the end of a deal; game {i} is at "
            f"a {PHASE_NAMES[state.phase[i]]} decision"
        )
    owner = state.ppuk_owner[i]
    pos = {
        "to_move": int(state.to_move[i]),
        "hands": [C.ids_of(state.hands[i, s]) for s in range(2)],
        "layout": C.ids_of(state.layout[i]),
        "ppuk_owner": {str(m + 1): int(owner[m]) for m in range(12) if owner[m] >= 0},
        "stock": [int(c) for c in state.stock[i, state.stock_top[i]:state.stock_end[i]]],
        "captured": [C.ids_of(state.captured[i, s]) for s in range(2)],
        "go_count": [int(x) for x in state.go_count[i]],
        "go_score": [int(x) for x in state.go_score[i]],
        "ppuk_count": [int(x) for x in state.ppuk_count[i]],
    }
    if state.done[i]:
        pos["result"] = result_of(state, i)
    return pos


def result_of(state: GoStopState, index: int) -> dict:
    """``{"winner": seat or None, "payout": int, "reason": str}`` of a finished game."""
    w = int(state.winner[index])
    return {
        "winner": None if w < 0 else w,
        "payout": int(state.payout[index]),
        "reason": REASONS[state.reason[index]],
    }


def _card_list(value, name: str, seen: dict) -> list[int]:
    out = []
    for j, c in enumerate(require_list(value, name)):
        c = require_int(c, f"{name}[{j}]", 0, 47)
        if c in seen:
            raise ValueError(f"card {c} appears twice (in {seen[c]} and {name})")
        seen[c] = name
        out.append(c)
    return out


def _pair(pos, key: str, low: int, high: int) -> list[int]:
    vals = require_list(pos[key], key, 2, what="one per seat")
    return [require_int(v, f"{key}[{s}]", low, high) for s, v in enumerate(vals)]


def _result(value) -> tuple[int, int, int]:
    if not isinstance(value, Mapping):
        raise ValueError(f"result must be a dict, got {type(value).__name__}")
    keys = {"winner", "payout", "reason"}
    if set(value) != keys:
        raise ValueError(f"result must have exactly the keys {sorted(keys)}, got {sorted(value)}")
    reason = value["reason"]
    if reason not in REASONS[1:]:
        raise ValueError(f"result reason must be one of {list(REASONS[1:])}, got {reason!r}")
    payout = require_int(value["payout"], "result payout", 0, None)
    winner = value["winner"]
    if reason == "nagari":
        if winner is not None or payout != 0:
            raise ValueError("a nagari result has winner None and payout 0")
        return -1, 0, REASONS.index(reason)
    winner = require_int(winner, "result winner", 0, 1)
    return winner, payout, REASONS.index(reason)


def from_position(pos, key: np.ndarray) -> GoStopState:
    """Validate ``pos`` and build a one-game state whose random stream has key ``key``."""
    if not isinstance(pos, Mapping):
        raise ValueError(f"position must be a dict, got {type(pos).__name__}")
    missing = [k for k in KEYS if k not in pos]
    if missing:
        raise ValueError(f"position is missing keys {missing}")
    unknown = sorted(str(k) for k in pos if k not in KEYS and k != "result")
    if unknown:
        raise ValueError(f"position has unknown keys {unknown}")
    finished = "result" in pos
    seen: dict[int, str] = {}
    hands = [_card_list(h, f"hands[{s}]", seen)
             for s, h in enumerate(require_list(pos["hands"], "hands", 2, what="one per seat"))]
    layout = _card_list(pos["layout"], "layout", seen)
    stock = _card_list(pos["stock"], "stock", seen)
    captured = [_card_list(c, f"captured[{s}]", seen)
                for s, c in enumerate(require_list(pos["captured"], "captured", 2, what="one per seat"))]
    per_month = np.bincount(np.array(layout, dtype=np.int64) // 4, minlength=12)
    if per_month.max(initial=0) > 3:
        m = int(per_month.argmax())
        raise ValueError(f"layout holds {per_month[m]} cards of month {m + 1} (at most 3)")
    owners = pos["ppuk_owner"]
    if not isinstance(owners, Mapping):
        raise ValueError(f"ppuk_owner must be a dict month -> seat, got {type(owners).__name__}")
    owner = np.full(12, -1, np.int8)
    for k, v in owners.items():
        if isinstance(k, str):
            month = int(k) if k.isascii() and k.isdigit() else 0
        elif isinstance(k, (int, np.integer)) and not isinstance(k, (bool, np.bool_)):
            month = int(k)
        else:
            month = 0
        if not 1 <= month <= 12:
            raise ValueError(f"ppuk_owner keys are month numbers 1..12, got {k!r}")
        if owner[month - 1] >= 0:
            raise ValueError(f"ppuk_owner lists month {month} twice")
        owner[month - 1] = require_int(v, f"ppuk_owner[{k!r}]", 0, 1)
        if per_month[month - 1] != 3:
            raise ValueError(
                f"ppuk_owner month {month} must hold exactly 3 layout cards, it holds {per_month[month - 1]}"
            )
    go_count = _pair(pos, "go_count", 0, GO_BUDGET)
    go_score = _pair(pos, "go_score", 0, MAX_GO_SCORE)
    for s in range(2):
        if go_count[s] + len(hands[s]) > GO_BUDGET:
            raise ValueError(
                f"go_count[{s}] = {go_count[s]} with {len(hands[s])} cards in hand exceeds our bound: "
                f"go_count plus hand size at most {GO_BUDGET}"
            )
        if go_count[s] == 0 and go_score[s] != 0:
            raise ValueError(f"go_score[{s}] must be 0 when go_count[{s}] is 0, got {go_score[s]}")
    ppuk_count = _pair(pos, "ppuk_count", 0, 3 if finished else 2)
    to_move = require_int(pos["to_move"], "to_move", 0, 1)
    if not finished and not hands[to_move]:
        raise ValueError(f"to_move seat {to_move} holds no card")

    state = empty_state(1)
    state.rng_key[0] = np.asarray(key, dtype=np.uint64).reshape(-1)[0]
    rest = [c for c in range(48) if c not in seen]
    full_stock = stock + rest
    state.stock[0, : len(full_stock)] = full_stock
    state.stock_end[0] = len(full_stock)
    for s in range(2):
        state.hands[0, s] = C.mask_of(hands[s])
        state.captured[0, s] = C.mask_of(captured[s])
    state.layout[0] = C.mask_of(layout)
    state.ppuk_owner[0] = owner
    state.go_count[0] = go_count
    state.go_score[0] = go_score
    state.ppuk_count[0] = ppuk_count
    state.score[0] = scores(state.captured[0])
    state.to_move[0] = to_move
    if finished:
        w, payout, reason = _result(pos["result"])
        state.done[0], state.phase[0] = True, OVER
        state.winner[0], state.payout[0], state.reason[0] = w, payout, reason
    return state
