"""The shipped Go-Stop PPO bot: it loads offline by name, its metadata records a seat-swapped
evaluation of at least 10^4 deal pairs against gostop-greedy, it plays legally at every kind of
decision, and it clearly beats random play in fresh deals."""

from __future__ import annotations

import numpy as np
import pytest

import agents
from envs.core.sampling import sample_legal
from envs.gostop import GoStop
from envs.gostop.state import GO_STOP, HAND_CHOICE, PLAY, STOCK_CHOICE
from training.evaluate import seat_swapped_match

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def bot():
    return agents.load("gostop-ppo")


def test_loads_offline_and_records_its_shipped_evaluation(bot):
    meta = bot.metadata
    assert meta["env_id"] == GoStop.env_id and meta["obs_size"] == GoStop.obs_size
    assert meta["num_actions"] == GoStop.num_actions and bot.game == "gostop"
    shipped = meta["shipped_evaluation"]
    assert shipped["seat_swapped"] and shipped["bot_b"] == "gostop-greedy"
    assert shipped["pairs"] >= 10_000 and shipped["games"] >= 20_000
    assert shipped["wins"] + shipped["losses"] + shipped["draws"] == shipped["games"]
    assert meta["warm_start"]["bc_teacher"] == "gostop-greedy"
    assert "gostop-ppo" in agents.available("gostop")


def test_legal_at_every_decision_kind_in_positions_from_random_play(bot):
    game = GoStop()
    rng = np.random.default_rng(99)
    state = game.init(np.arange(256) + 31_337)
    seen = set()
    for _ in range(60):  # random play to the end of most deals, checking the bot at every step
        live = np.flatnonzero(~state.done)
        if not live.size:
            break
        sub = state.take(live)
        obs, mask = game.observe(sub), game.legal_mask(sub)
        actions = bot.act(obs, mask, rng)
        assert mask[np.arange(live.size), actions].all(), "the bot chose an illegal action"
        seen.update(int(p) for p in np.unique(sub.phase))
        game.step(sub, sample_legal(mask, rng))
        state.put(live, sub)
    assert seen == {PLAY, HAND_CHOICE, STOCK_CHOICE, GO_STOP}


def test_beats_random_clearly_in_fresh_seat_swapped_deals(bot):
    m = seat_swapped_match("gostop", bot, "random", 200, seed=777_777)  # not the shipped seeds
    # gostop-greedy scores about +15 points per deal against random (sd of a pair about 35, so the
    # 95 % CI over 200 pairs is about +-2.5); a bot that does not play well stays far below +8.
    assert m.mean_a > 8 and m.decided_win_rate > 0.65, m.as_dict()
