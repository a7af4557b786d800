"""Differential test: the batched Go-Stop core against the independent plain-Python reference.

10^4 random deals with random legal play (plus 3000 where players mostly Go).  The batched core plays all deals at once;
the reference (``tests/gostop_reference.py``, written separately from the engine, from docs/rules/gostop.md) plays
them one at a time with the same actions.  At every decision the pending decision
kind, the mover, the flipped card and the legal action set must agree; at every PLAY
decision and at the end, the full position dicts must be equal; at the end, the
results and the rewards must be equal.
"""

from __future__ import annotations

import numpy as np
import pytest

from envs.gostop import GoStop
from envs.gostop.state import PHASE_NAMES
from tests.gostop_reference import GO, STOP, RefDeal

N_DEALS = 10_000
DECISIONS = {"PLAY": "play", "HAND_CHOICE": "hand_choice", "STOCK_CHOICE": "stock_choice", "GO_STOP": "go_stop"}


def _check_decision(game, state, i, ref, mask_row):
    where = f"deal {i}"
    assert PHASE_NAMES[state.phase[i]] == DECISIONS[ref.pending], where
    assert int(state.to_move[i]) == ref.to_move, where
    flipped = int(state.flipped[i])
    assert (None if flipped < 0 else flipped) == ref.flipped, where
    assert np.flatnonzero(mask_row).tolist() == ref.legal_actions(), where
    if ref.pending == "PLAY":
        assert game.to_position(state, i) == ref.to_position(), where


@pytest.mark.slow  # 45 s of plain-Python reference play
@pytest.mark.parametrize(
    "num_deals,p_go,seed",
    [(N_DEALS, None, 2026), (3000, 0.95, 11)],
    ids=["uniform-random-play", "mostly-go"],
)
def test_batched_core_matches_reference_on_random_deals(num_deals, p_go, seed):
    """``p_go``: chance of GO at a GO_STOP decision (None: uniform like every other choice);
    mostly-Go play reaches multi-Go payouts, the last turns and forced stops."""
    game = GoStop()
    rng = np.random.default_rng(seed)
    orders = np.argsort(rng.random((num_deals, 48)), axis=1)
    first = rng.integers(0, 2, num_deals)
    state = game.deal(orders, first)
    refs = [RefDeal.from_order(orders[i].tolist(), int(first[i])) for i in range(num_deals)]

    # Redeals must be detected alike; the engine then reshuffles from its own stream,
    # so those deals leave the comparison.
    redeal = np.array([r.setup == "redeal" for r in refs])
    np.testing.assert_array_equal(redeal, state.redeals > 0)
    keep = np.flatnonzero(~redeal)
    state = state.take(keep)
    refs = [refs[i] for i in keep]
    n = len(refs)
    returns = np.zeros((n, 2))
    for i in np.flatnonzero(state.done):  # chongtong: over before any decision
        returns[i] = game.final_rewards(state, i)
    choose = np.random.default_rng(7)
    reasons: dict = {}
    open_ = np.ones(n, dtype=bool)  # deals whose end has not been compared yet
    decisions = 0
    while open_.any():
        mask = game.legal_mask(state)
        live = []
        for i in np.flatnonzero(open_):
            ref = refs[i]
            if ref.result is not None:
                assert state.done[i], f"deal {i}: the reference ended, the engine did not"
                assert game.result(state, i) == ref.result, f"deal {i}"
                assert game.to_position(state, i) == ref.to_position(), f"deal {i}"
                np.testing.assert_array_equal(returns[i], ref.rewards())
                reasons[ref.result["reason"]] = reasons.get(ref.result["reason"], 0) + 1
                open_[i] = False
                continue
            assert not state.done[i], f"deal {i}: the engine ended, the reference did not"
            _check_decision(game, state, i, ref, mask[i])
            live.append(i)
        if not live:
            break
        live = np.array(live)
        actions = np.empty(live.size, dtype=np.int64)
        for j, i in enumerate(live):
            legal = refs[i].legal_actions()
            if p_go is not None and legal == [GO, STOP]:
                actions[j] = GO if choose.random() < p_go else STOP
            else:
                actions[j] = legal[choose.integers(len(legal))]
            refs[i].step(int(actions[j]))
        sub = state.take(live)
        returns[live] += game.step(sub, actions)
        state.put(live, sub)
        decisions += live.size
    assert decisions > 15 * n  # about 20 decisions per deal under random play
    print(f"{n} deals, {decisions} decisions compared; endings {reasons}")
    assert set(reasons) >= {"stop", "chongtong", "nagari"}, reasons
    multi_go = sum(max(r.go_count) >= 2 for r in refs)
    print(f"deals with 2+ Gos by one player: {multi_go}")
    if p_go is not None:
        assert multi_go > 0.1 * n  # multi-Go payouts and late forced stops were exercised
