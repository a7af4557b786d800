"""Long random-play soaks over every game (marked ``soak``; not run in CI).

Run with ``python -m pytest -m soak tests``.
"""

from __future__ import annotations

import numpy as np
import pytest

from envs.core.sampling import sample_legal
from envs.registration import GAMES, game_class

SOAK_GAMES = 100_000


@pytest.mark.soak
@pytest.mark.parametrize("game_name", sorted(GAMES))
def test_random_play_soak(game_name):
    """10^5 games of random legal play: masks never empty while live, every game ends."""
    game = game_class(game_name)(num_players=2)
    batch = 10_000
    rng = np.random.default_rng(0)
    finished = 0
    state = game.init(np.arange(batch))
    while finished < SOAK_GAMES:
        mask = game.legal_mask(state)
        assert mask.any(axis=1).all()
        game.step(state, sample_legal(mask, rng))
        finished += int(state.done.sum())
        assert not game.legal_mask(state)[state.done].any()
        game.reset_where(state, state.done)
