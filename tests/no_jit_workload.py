"""A few games of every game through the public API, digested: run with and without numba's JIT.

``tests/test_no_jit.py`` runs this file under ``NUMBA_DISABLE_JIT=1`` (the kernels run as
plain Python, for debugging) and compares its digest with the compiled run's.  Prints one
JSON object ``{game: sha256 hex}``.
"""

from __future__ import annotations

import hashlib
import json

import numpy as np

from envs.core.sampling import sample_legal
from envs.registration import GAMES, game_class


def digest(name: str, steps: int = 25) -> str:
    """sha256 of the masks, observations (every seat), rewards and states of a short batch of games."""
    game = game_class(name)(num_players=2)
    state = game.init([0, 1, 2])
    rng = np.random.default_rng(0)
    h = hashlib.sha256()
    for step in range(steps):
        mask = game.legal_mask(state)
        h.update(mask.tobytes())
        for seat in range(2):
            h.update(game.observe(state, seat).tobytes())
        actions = sample_legal(mask, rng)
        live = ~state.done
        if step % 2:
            rewards = game.step_where(state, live, actions[live])
        else:
            rewards = game.step(state, actions) if live.all() else game.step_where(state, live, actions[live])
        h.update(rewards.tobytes())
        game.reset_where(state, state.done)
        game.check_state(state)
        for a in vars(state).values():
            if isinstance(a, np.ndarray):
                h.update(a.tobytes())
    return h.hexdigest()


if __name__ == "__main__":
    print(json.dumps({name: digest(name) for name in sorted(GAMES)}))
