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


def assert_legal_everywhere(bot, states, rng) -> None:
    """``bot`` plays a legal int64 action in each game of ``states``, which hold every decision
    kind (PLAY, both choices, Go/Stop)."""
    from envs.gostop import GoStop

    G = GoStop()
    assert set(states.phase.tolist()) == {0, 1, 2, 3}
    obs, mask = G.observe(states), G.legal_mask(states)
    actions = bot.act(obs, mask, rng)
    assert actions.shape == (states.batch_size,) and actions.dtype == np.int64
    assert mask[np.arange(states.batch_size), actions].all()


def assert_blind_to_hidden_cards(bot, pool, rng, tries: int | None = None, pairs: int = 12) -> None:
    """``bot`` takes the same action in two states that differ only in the cards the mover cannot
    see (:func:`redeal_hidden`), for ``pairs`` such pairs built from the PLAY decisions of ``pool``
    (the first ``tries`` games of a random order, all when None)."""
    from envs.gostop import GoStop

    G = GoStop()
    checked = 0
    for i in rng.permutation(pool.batch_size)[:tries]:
        if pool.phase[i] != 0:  # positions load at PLAY decisions
            continue
        pos = G.to_position(pool, i)
        a, b = G.from_position(pos, seed=1), G.from_position(redeal_hidden(pos, rng), seed=2)
        if G.to_position(a, 0) == G.to_position(b, 0):
            continue
        np.testing.assert_array_equal(G.observe(a), G.observe(b))
        acts = [bot.act(G.observe(s), G.legal_mask(s), np.random.default_rng(99)) for s in (a, b)]
        assert acts[0] == acts[1]
        checked += 1
        if checked == pairs:
            return
    raise AssertionError(f"only {checked} of {pairs} pairs of states found")
