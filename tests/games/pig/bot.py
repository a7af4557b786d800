"""A deterministic Pig bot (the descriptor's ``test_bot``): hold at a turn total of 8 or more."""

from __future__ import annotations

import numpy as np

from .rules import HOLD, OBS_SLICES, ROLL


def hold_at_8(obs, mask, rng):
    """Batched ``(obs, mask, rng) -> actions``: hold once the turn total is 8 or more (it draws
    no randomness)."""
    obs, mask = np.asarray(obs), np.asarray(mask)
    target = np.rint(obs[:, OBS_SLICES["target"].start] * 100)
    turn = np.rint(obs[:, OBS_SLICES["turn_total"].start] * target)
    return np.where(mask[:, HOLD].astype(bool) & (turn >= 8), HOLD, ROLL).astype(np.int64)
