"""Go-Stop training and shipping: the self-play pool on Go-Stop, the shipped recipe, Go statistics
in seat-swapped evaluations, and ``madang ship`` for a game without a solo mode."""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch

import training.evaluate
from agents.policy_files import load_policy, save_policy
from agents.torch_policy import ActorCritic
from envs.gostop import GoStop
from frontends.cli import main
from training.evaluate import seat_swapped_match
from training.ppo import PPOConfig, PPOTrainer, Rollout
from training.run import CONFIG_DIR

torch.set_num_threads(1)

pytestmark = [pytest.mark.slow, pytest.mark.integration]


def tiny(**kw) -> PPOConfig:
    base = dict(game="gostop", total_steps=2048, num_envs=32, num_steps=16, minibatch_size=128, hidden=(32,),
                eval_every=0, reward_scale=0.1, reward_clip=2.0, bf16=False, pool_snapshots=2, snapshot_every=1,
                opponent_pool={"self": 2.0, "gostop-greedy": 1.0, "random": 1.0})
    base.update(kw)
    return PPOConfig(**base)


def test_self_play_pool_trains_on_gostop_with_the_learner_in_both_seats(tmp_path):
    trainer = PPOTrainer(tiny())
    table = trainer.tables[0]
    assert table.spec.learner_seat is None and set(table.learner_seat) == {0, 1}
    names = {trainer.pool.bots[i].name for i in table.seating.ravel()}
    assert names == {"self", "gostop-greedy", "random"}
    buf = Rollout(16, 32, trainer.game.obs_size, trainer.game.num_actions, "cpu")
    trainer.collect(buf)
    assert buf.mask.gather(2, buf.actions[..., None]).all(), "an illegal action was sampled"
    assert buf.rewards.abs().max() <= 2.0 and buf.dones.sum() > 0  # clipped payouts of finished deals
    stats = trainer.train()
    assert np.isfinite(stats["policy_loss"]) and np.isfinite(stats["value_loss"])
    assert len(trainer.pool.slots) == 2 and stats["mean_return"] is not None
    trainer.save(tmp_path / "ckpt.pt")
    again = PPOTrainer.load(tmp_path / "ckpt.pt", total_steps=4096)
    assert again.update == trainer.update and len(again.pool.slots) == 2
    again.train()
    assert again.global_step == 4096


def test_win_bonus_adds_a_fixed_reward_for_each_won_deal_and_a_penalty_for_each_lost_one():
    def rollout(**kw):
        trainer = PPOTrainer(tiny(reward_clip=0.0, seed=5, **kw))
        buf = Rollout(48, 32, trainer.game.obs_size, trainer.game.num_actions, "cpu")
        torch.manual_seed(0)
        trainer.collect(buf)
        return buf.rewards

    plain, bonus = rollout(), rollout(reward_win_bonus=0.5)
    won, lost = plain > 0, plain < 0
    assert won.any() and lost.any()  # payouts arrive only when a deal ends
    assert torch.allclose(bonus, plain + 0.5 * won - 0.5 * lost)
    with pytest.raises(ValueError, match="reward_win_bonus"):
        tiny(reward_win_bonus=-1.0).validate()


def test_shipped_gostop_recipe_is_valid_and_warm_starts_from_the_greedy_bot():
    cfg = PPOConfig.from_dict(json.loads((CONFIG_DIR / "gostop.json").read_text()))
    cfg.validate()
    assert cfg.game == "gostop" and cfg.learner_seat is None and cfg.bc_teacher == "gostop-greedy"
    assert set(cfg.opponent_pool) == {"self", "gostop-greedy", "random"}
    assert any(t["opponents"] == ["gostop-greedy"] for t in cfg.eval_tables)


def test_ppo_starts_from_given_policy_weights_and_a_resumed_run_from_its_checkpoint(tmp_path):
    """``init``: the PPO network starts as the named policy (and the self-play snapshots with it);
    a resumed run takes its checkpoint's weights even when the init files are gone."""
    start = ActorCritic(GoStop().obs_size, GoStop().num_actions, (32,))
    save_policy(start, tmp_path / "start", "gostop")
    trainer = PPOTrainer(tiny(init=str(tmp_path / "start")))
    want = start.state_dict()
    assert all(torch.equal(want[k], v) for k, v in trainer.model.state_dict().items())
    assert all(torch.equal(want[k], v) for k, v in trainer.snapshot.model.state_dict().items())
    assert not all(torch.equal(want[k], v) for k, v in PPOTrainer(tiny()).model.state_dict().items())
    trainer.train()
    trainer.save(tmp_path / "ckpt.pt")
    (tmp_path / "start.pt").unlink()
    again = PPOTrainer.load(tmp_path / "ckpt.pt")
    assert all(torch.equal(trainer.model.state_dict()[k], v) for k, v in again.model.state_dict().items())
    with pytest.raises(ValueError, match="hidden widths"):
        PPOTrainer(tiny(init="gostop-ppo-v1"))  # 256x256, the run wants (32,)
    with pytest.raises(ValueError, match="plays 'yacht'"):
        PPOTrainer(tiny(init="yacht-ppo", hidden=(512, 512, 512, 512)))
    with pytest.raises(ValueError, match="two ways to start"):
        tiny(init="gostop-ppo-v1", hidden=(256, 256), bc_teacher="gostop-greedy", bc_games=1, bc_epochs=1).validate()


def test_seat_swapped_match_reports_go_calls_and_how_they_ended():
    m = seat_swapped_match("gostop", "gostop-greedy", "random", 100, seed=3)
    for g in (m.go_a, m.go_b):
        assert g.deals == 200 and 0 <= g.called_go <= g.gos
        assert g.won_after_go + g.lost_after_go + g.nagari_after_go == g.called_go
    assert m.go_a.called_go > m.go_b.called_go  # the heuristic reaches 7 points far more often
    assert m.decided_win_rate == m.wins / (m.wins + m.losses)
    d = m.as_dict()
    assert d["go_a"]["go_rate"] == m.go_a.go_rate and "values_a" not in d
    same = seat_swapped_match("gostop", "gostop-greedy", "gostop-greedy", 50, seed=3)
    assert same.go_a == same.go_b and same.margin == 0  # deterministic bots, same deals both ways
    assert seat_swapped_match("yacht", "yacht-greedy", "random", 4).go_a is None


def _tiny_run(tmp_path):
    run = tmp_path / "run"
    args = ["train", "gostop", "--run-dir", str(run), "--total-steps", "256", "--num-envs", "16",
            "--set", "num_steps=16", "minibatch_size=64", "hidden=[16]", "bc_games=32", "bc_epochs=1",
            "bc_minibatch_size=64", "eval_every=0", "pool_snapshots=2"]
    assert main(args) == 0
    return run


def test_ship_evaluates_a_gostop_run_seat_swapped_against_the_reference(tmp_path, capsys, monkeypatch):
    run = _tiny_run(tmp_path)  # the shipped recipe (warm start, pool), shrunk
    capsys.readouterr()
    monkeypatch.setenv("MADANG_HOME", str(tmp_path / "home"))
    weights = tmp_path / "home" / "bots"
    assert main(["ship", str(run), "gostop-x", "--games", "12"]) == 0
    out = capsys.readouterr().out
    assert "gostop-x against gostop-greedy" in out and "both seatings" in out
    meta = json.loads((weights / "gostop-x.json").read_text())
    ev = meta["shipped_evaluation"]
    assert ev["seat_swapped"] and ev["bot_b"] == "gostop-greedy" and ev["pairs"] == 12 and ev["games"] >= 24
    assert ev["wins"] + ev["losses"] + ev["draws"] == ev["games"] and ev["go_a"]["deals"] == 24
    assert meta["warm_start"]["bc_teacher"] == "gostop-greedy"
    assert load_policy(weights / "gostop-x").game == "gostop"
    assert sorted(p.name for p in weights.iterdir()) == ["gostop-x.json", "gostop-x.pt"]
    # Another reference bot, by --against.
    assert main(["ship", str(run), "gostop-y", "--games", "5", "--against", "random"]) == 0
    assert json.loads((weights / "gostop-y.json").read_text())["shipped_evaluation"]["bot_b"] == "random"


def test_ship_writes_nothing_unless_the_evaluation_succeeds(tmp_path, capsys, monkeypatch):
    run = tmp_path / "run"
    save_policy(ActorCritic(GoStop.obs_size, GoStop.num_actions, (8,)), run / "policy", "gostop")
    monkeypatch.setenv("MADANG_HOME", str(tmp_path / "home"))
    weights = tmp_path / "home" / "bots"
    assert main(["ship", str(run), "gostop-x", "--games", "3", "--against", "yacht-greedy"]) == 2
    assert "yacht-greedy" in capsys.readouterr().err
    assert not weights.exists() or not any(weights.iterdir())

    def broken(*args, **kwargs):
        raise RuntimeError("evaluation crashed")

    monkeypatch.setattr(training.evaluate, "seat_swapped_match", broken)
    with pytest.raises(RuntimeError, match="crashed"):
        main(["ship", str(run), "gostop-x", "--games", "3"])
    assert not weights.exists() or not any(weights.iterdir())


def test_time_budget_measures_the_ppo_throughput_without_the_warm_start(monkeypatch):
    class Clock:  # every reading advances one second; the warm start takes ten more
        now = 0.0

        def __call__(self):
            self.now += 1.0
            return self.now

    clock = Clock()
    monkeypatch.setattr("training.ppo.time.monotonic", clock)

    def slow_warm_start(self, data_dir=None, log=None):
        clock.now += 10.0
        self.bc_done = True
        return {}

    monkeypatch.setattr(PPOTrainer, "warm_start", slow_warm_start)
    trainer = PPOTrainer(tiny(total_steps=512 * 100, bc_teacher="gostop-greedy", bc_games=1, bc_epochs=1))
    trainer.train(time_budget_s=40.0)
    # Start at 1 s, warm start until 11 s, PPO from 12 s, the 5th update at 17 s (16 s elapsed):
    # one update per second fits 5 + (40 - 16) * 0.9 = 26.6 -> 26 updates (counting the warm start
    # into the rate would have given 11).
    assert trainer.config.total_steps == trainer.global_step == 512 * 26
