"""Go-Stop position helpers shared by the tests."""

from __future__ import annotations

import copy

import numpy as np


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


def mixed_positions(n, seed):
    """Live states along mixed greedy / random play of ``n`` deals, with every decision kind."""
    import agents
    from envs.core.sampling import sample_legal
    from envs.gostop import GoStop

    G = GoStop()
    greedy = agents.load("gostop-greedy")
    state = G.init(np.arange(seed, seed + n))
    rng = np.random.default_rng(seed)
    found = []
    while not state.done.all():
        live = np.flatnonzero(~state.done)
        found.append(state.take(live))
        sub = state.take(live)
        obs, mask = G.observe(sub), G.legal_mask(sub)
        actions = sample_legal(mask, rng)
        mix = rng.random(live.size) < 0.6
        actions[mix] = greedy.act(obs[mix], mask[mix], rng)
        G.step_where(state, live, actions)
    return type(found[0]).concat(found)
