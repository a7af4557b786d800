"""Go-Stop position helpers shared by the tests."""

from __future__ import annotations

import copy


def redeal_hidden(pos: dict, rng) -> dict:
    """A copy of ``pos`` with the cards the mover cannot see (the opponent's hand and the stock)
    dealt again at random from their union; the hand size and the stock size stay the same."""
    opp = 1 - pos["to_move"]
    hidden = pos["hands"][opp] + pos["stock"]
    rng.shuffle(hidden)
    k = len(pos["hands"][opp])
    out = copy.deepcopy(pos)
    out["hands"][opp], out["stock"] = sorted(hidden[:k]), hidden[k:]
    return out
