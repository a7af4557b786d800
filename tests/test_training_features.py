"""Trainer features for harder games: table mix, opponent pool, behaviour cloning, reward clipping."""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch

from training.evaluate import evaluate_solo
from training.mix import split_games, table_specs
from training.ppo import PPOConfig, PPOTrainer, Rollout
from training.run import format_returns

torch.set_num_threads(1)

RAINBOW_MIX = [
    {"share": 0.4, "game_config": {"num_players": 1}},
    {"share": 0.2, "game_config": {"num_players": 2, "reward": "win"}, "reward_scale": 1.0},
    {"share": 0.2, "game_config": {"num_players": 3}},
    {"share": 0.2, "game_config": {"num_players": 4}, "opponents": ["rainbow-simple", "random", "self"]},
]

pytestmark = [pytest.mark.slow, pytest.mark.integration]


def tiny(**kw) -> PPOConfig:
    base = dict(game="rainbow_dice", game_config={"copies_per_hand": 10}, total_steps=2048, num_envs=64,
                num_steps=16, minibatch_size=256, hidden=(32, 32), eval_every=0, reward_scale=0.002,
                bf16=False, opponent_pool={"self": 1.0, "rainbow-simple": 1.0}, mix=RAINBOW_MIX)
    base.update(kw)
    return PPOConfig(**base)


def test_mix_trains_one_network_on_one_to_four_seats():
    trainer = PPOTrainer(tiny())
    assert [t.spec.name for t in trainer.tables] == ["1p", "2p", "3p", "4p"]
    assert [t.num_games for t in trainer.tables] == split_games(64, [0.4, 0.2, 0.2, 0.2]) == [25, 13, 13, 13]
    assert [t.game.num_players for t in trainer.tables] == [1, 2, 3, 4]
    assert trainer.tables[1].game.reward == "win" and trainer.tables[2].game.reward == "score"
    buf = Rollout(16, 64, trainer.game.obs_size, trainer.game.num_actions, "cpu")
    trainer.collect(buf)
    assert buf.mask.gather(2, buf.actions[..., None]).all(), "an illegal action was sampled"
    # Each table's rewards are scaled by its own reward_scale: win rewards are in {-1, -1/2, 0, ...}.
    win = buf.rewards[:, 25:38]
    assert set(win.unique().tolist()) <= {-1.0, -0.5, -1 / 3, 0.0, 0.5, 1.0}
    stats = trainer.train()
    assert np.isfinite(stats["policy_loss"]) and set(stats["returns"]) == {"1p", "2p", "3p", "4p"}
    for t in trainer.tables[1:]:
        assert set(np.unique(t.learner_seat)) <= set(range(t.game.num_players))
    # The fixed-seat table seats exactly its three named bots; the pool tables draw from the pool.
    four = trainer.tables[3]
    assert {trainer.pool.bots[i].name for i in four.seating.ravel()} == {"rainbow-simple", "random", "self"}
    assert {trainer.pool.bots[i].name for i in trainer.tables[2].seating.ravel()} == {"self", "rainbow-simple"}


def test_mix_entries_are_checked():
    with pytest.raises(ValueError, match="unknown keys"):
        tiny(mix=[{"share": 1, "players": 2}]).validate()
    with pytest.raises(ValueError, match="share"):
        tiny(mix=[{"game_config": {"num_players": 2}}]).validate()
    with pytest.raises(ValueError, match="unique"):
        tiny(mix=[{"share": 1}, {"share": 1}]).validate()
    with pytest.raises(ValueError, match="not both"):
        tiny(mix=[], opponents=["random"]).validate()
    with pytest.raises(ValueError, match="one-player"):
        PPOTrainer(tiny(mix=[{"share": 1, "opponents": ["random"], "game_config": {"num_players": 1}}]))
    with pytest.raises(ValueError, match="unknown bot"):
        PPOTrainer(tiny(opponent_pool={"nobody": 1.0}))
    with pytest.raises(ValueError, match="plays yacht"):
        PPOTrainer(tiny(opponent_pool={"yacht-greedy": 1.0}))
    assert split_games(5, [100, 1, 1]) == [3, 1, 1] and sum(split_games(4096, [0.4, 0.3, 0.15, 0.15])) == 4096


def test_opponent_pool_keeps_past_snapshots_and_samples_per_game(tmp_path):
    cfg = tiny(mix=[{"share": 1, "game_config": {"num_players": 2}}], pool_snapshots=3, snapshot_every=1,
               total_steps=4096, opponent_pool={"self": 3.0, "rainbow-simple": 1.0})
    trainer = PPOTrainer(cfg)
    trainer.train()
    pool = trainer.pool
    assert len(pool.slots) == 3  # the initial snapshot and two refreshes... then the ring drops the oldest
    first = [p.detach().clone() for p in pool.bots[pool.slots[0]].model.parameters()]
    latest = [p.detach().clone() for p in pool.latest.model.parameters()]
    assert any(not torch.equal(a, b) for a, b in zip(first, latest))
    draws = pool.sample(cfg.opponent_pool, (4000,), np.random.default_rng(0))
    names = np.array([pool.bots[i].name for i in draws])
    assert abs((names == "self").mean() - 0.75) < 0.03
    assert set(draws[names == "self"]) == set(pool.slots)  # every kept snapshot gets games
    path = tmp_path / "ckpt.pt"
    trainer.save(path)
    again = PPOTrainer.load(path)
    for i, j in zip(pool.slots, again.pool.slots):
        for a, b in zip(pool.bots[i].model.parameters(), again.pool.bots[j].model.parameters()):
            assert torch.equal(a, b)


def test_running_return_is_a_dash_until_a_game_finishes():
    trainer = PPOTrainer(tiny(mix=[], game_config={"num_players": 1}, opponent_pool={}, num_steps=8,
                              minibatch_size=128, total_steps=512))
    stats = trainer.train()  # one rollout of 8 decisions: no 12-round game has finished
    assert stats["mean_return"] is None and format_returns(stats["returns"]) == "—"
    assert format_returns({"1p": 812.5, "2p": None}) == "1p 812.50 2p —"


def test_reward_clip_bounds_the_learning_rewards():
    trainer = PPOTrainer(tiny(mix=[], game_config={"num_players": 1}, opponent_pool={}, reward_scale=1.0,
                              reward_clip=5.0))
    buf = Rollout(16, 64, trainer.game.obs_size, trainer.game.num_actions, "cpu")
    trainer.collect(buf)
    assert buf.rewards.abs().max() == 5.0  # buying a card pays more than 5 points


def test_behaviour_cloning_warm_start_imitates_the_teacher(tmp_path):
    cfg = tiny(mix=[{"share": 1, "game_config": {"num_players": 1}},
                    {"share": 1, "game_config": {"num_players": 2, "reward": "win"}, "reward_scale": 1.0}],
               hidden=(64, 64), bc_teacher="rainbow-simple", bc_games=256, bc_epochs=8, bc_minibatch_size=256,
               bc_learning_rate=3e-3, bc_data=str(tmp_path / "demos"), total_steps=1024)
    trainer = PPOTrainer(cfg)
    before = evaluate_solo("rainbow_dice", trainer.greedy_bot(), 100, seed=5).mean
    stats = trainer.warm_start()
    parts = sorted((tmp_path / "demos").glob("part-*.npz"))
    assert len(parts) == 2 and stats["bc_decisions"] > 5000
    assert stats["bc_accuracy"] > 0.3  # about 1/30 by chance: a turn offers dozens of legal actions
    after = evaluate_solo("rainbow_dice", trainer.greedy_bot(), 100, seed=5).mean
    assert after > before + 100  # the teacher scores about 480, a random policy about 90
    # The snapshots now play the cloned policy too.
    for a, b in zip(trainer.model.parameters(), trainer.snapshot.model.parameters()):
        assert torch.equal(a, b)
    # A second run reuses the recorded games.
    mtimes = [p.stat().st_mtime_ns for p in parts]
    again = PPOTrainer(cfg)
    again.train(checkpoint_path=tmp_path / "run" / "ckpt.pt")
    assert again.bc_done and [p.stat().st_mtime_ns for p in parts] == mtimes
    assert PPOTrainer.load(tmp_path / "run" / "ckpt.pt").bc_done


def test_demonstrations_must_match_the_run_tables(tmp_path):
    from training.imitation import load_demonstrations

    cfg = tiny(mix=[{"share": 1, "game_config": {"num_players": 1}}], bc_teacher="rainbow-simple", bc_games=16,
               bc_epochs=1, bc_data=str(tmp_path / "d"))
    PPOTrainer(cfg).warm_start()
    other = tiny(mix=[{"share": 1, "game_config": {"num_players": 3}}])
    with pytest.raises(ValueError, match="not a table of this run"):
        load_demonstrations(tmp_path / "d", other, 145)
    with pytest.raises(ValueError, match="no demonstrations"):
        load_demonstrations(tmp_path / "empty", other, 145)


def test_shipped_rainbow_config_is_valid():
    from training.run import CONFIG_DIR

    cfg = PPOConfig.from_dict(json.loads((CONFIG_DIR / "rainbow_dice.json").read_text()))
    specs = table_specs(cfg)
    assert cfg.game == "rainbow_dice" and {s.game_config["num_players"] for s in specs} == {1, 2, 3, 4}
    assert all(s.game_config["copies_per_hand"] == 10 for s in specs)


def test_ship_from_the_checkpoint_of_a_run(tmp_path, monkeypatch):
    from agents.policy_files import load_policy
    from frontends.cli import main

    trainer = PPOTrainer(tiny(mix=[], game_config={"num_players": 1}, opponent_pool={}))
    trainer.train(checkpoint_path=tmp_path / "run" / "checkpoint.pt")
    monkeypatch.setenv("MADANG_HOME", str(tmp_path / "home"))
    weights = tmp_path / "home" / "bots"
    assert main(["ship", str(tmp_path / "run"), "rainbow-x", "--checkpoint", "--games", "20"]) == 0
    bot = load_policy(weights / "rainbow-x")
    assert bot.metadata["global_step"] == trainer.global_step and bot.metadata["shipped_evaluation"]["games"] == 20
    for a, b in zip(trainer.model.state_dict().values(), bot.model.state_dict().values()):
        assert torch.equal(a, b)
