"""PPO trainer, checkpoints, shipped-policy files, SB3 path and evaluation tools."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest
import torch

from agents.policy_files import load_policy, save_policy
from agents.torch_policy import ActorCritic
from frontends.cli import main
from training.evaluate import bradley_terry_elo, evaluate_solo, play_match, round_robin
from training.ppo import PPOConfig, PPOTrainer, Rollout

torch.set_num_threads(1)

pytestmark = [pytest.mark.slow, pytest.mark.integration]


def tiny(**kw) -> PPOConfig:
    base = dict(game="yacht", game_config={"num_players": 1}, total_steps=2048, num_envs=64,
                num_steps=16, minibatch_size=256, hidden=(32, 32), eval_every=0, reward_scale=0.02)
    base.update(kw)
    return PPOConfig(**base)


@pytest.mark.parametrize("bf16", [True, False])
def test_trainer_smoke_losses_finite_and_masks_respected(bf16):
    trainer = PPOTrainer(tiny(bf16=bf16))
    buf = Rollout(16, 64, trainer.game.obs_size, trainer.game.num_actions, "cpu")
    next_value = trainer.collect(buf)
    chosen = buf.mask.gather(2, buf.actions[..., None])[..., 0]
    assert chosen.all(), "an illegal action was sampled"
    adv, ret = trainer.advantages(buf, next_value)
    stats = trainer.learn(buf, adv, ret)
    assert all(np.isfinite(v) for v in stats.values())
    final = trainer.train()
    assert trainer.global_step >= 2048 and np.isfinite(final["policy_loss"])


def test_self_play_and_fixed_opponents_in_multiplayer_game():
    cfg = tiny(game_config={"num_players": 3, "reward": "win"}, opponents=["self", "yacht-greedy"],
               snapshot_every=1, total_steps=2048)
    trainer = PPOTrainer(cfg)
    stats = trainer.train()
    assert np.isfinite(stats["value_loss"])
    table = trainer.tables[0]
    assert trainer.snapshot.name == "self"
    assert [trainer.pool.bots[i].name for i in table.seating[0]] == ["self", "yacht-greedy"]
    assert set(np.unique(table.learner_seat)) <= {0, 1, 2}


def test_gae_bootstraps_zero_after_done():
    trainer = PPOTrainer(tiny(num_steps=2, minibatch_size=128, gamma=1.0, gae_lambda=1.0))
    buf = Rollout(2, 64, trainer.game.obs_size, trainer.game.num_actions, "cpu")
    buf.rewards[:] = torch.tensor([[1.0], [2.0]])
    buf.dones[0] = 1.0
    adv, ret = trainer.advantages(buf, torch.full((64,), 10.0))
    assert torch.allclose(ret[0], torch.ones(64)) and torch.allclose(ret[1], torch.full((64,), 12.0))


def test_checkpoint_round_trip_and_resume(tmp_path):
    trainer = PPOTrainer(tiny())
    trainer.train()
    path = tmp_path / "ckpt.pt"
    trainer.save(path)
    again = PPOTrainer.load(path, total_steps=4096)
    for a, b in zip(trainer.model.state_dict().values(), again.model.state_dict().values()):
        assert torch.equal(a, b)
    assert again.global_step == trainer.global_step and again.config.total_steps == 4096
    again.train()
    assert again.global_step >= 4096


class FakeClock:
    """A monotonic clock that advances ``tick`` seconds per reading."""

    def __init__(self, tick: float):
        self.now, self.tick = 0.0, tick

    def __call__(self) -> float:
        self.now += self.tick
        return self.now


def test_time_budget_sizes_total_steps_to_fit(monkeypatch):
    # Each update reads the clock once, so every update "takes" one second: after the
    # sizing updates the budget of 20 s fits 5 + (20 - 5) * 0.9 = 18.5 -> 18 rollouts.
    monkeypatch.setattr("training.ppo.time.monotonic", FakeClock(1.0))
    trainer = PPOTrainer(tiny(total_steps=1024 * 100))
    seen = []
    stats = trainer.train(callback=lambda s: seen.append(dict(s)), time_budget_s=20.0)
    sized = [s["sized_total_steps"] for s in seen if "sized_total_steps" in s]
    assert sized == [1024 * 18] and trainer.config.total_steps == 1024 * 18
    assert trainer.global_step == 1024 * 18 and not stats["stopped"]
    assert trainer.optimizer.param_groups[0]["lr"] < 0.06 * trainer.config.learning_rate


def test_time_budget_never_raises_total_steps(monkeypatch):
    monkeypatch.setattr("training.ppo.time.monotonic", FakeClock(1.0))
    trainer = PPOTrainer(tiny(total_steps=1024 * 8))
    trainer.train(time_budget_s=1000.0)
    assert trainer.config.total_steps == trainer.global_step == 1024 * 8


def test_time_budget_stops_with_a_resumable_checkpoint(tmp_path):
    trainer = PPOTrainer(tiny(total_steps=1024 * 50, checkpoint_every=1000))
    path = tmp_path / "ckpt.pt"
    stats = trainer.train(checkpoint_path=path, time_budget_s=0.0)
    assert stats["stopped"] and trainer.global_step == 1024 and path.exists()
    again = PPOTrainer.load(path, total_steps=1024 * 3)
    assert again.update == 1
    again.train()
    assert again.global_step == 1024 * 3


def test_config_validation():
    with pytest.raises(ValueError, match="minibatch"):
        tiny(minibatch_size=1000).validate()
    with pytest.raises(ValueError, match="unknown"):
        PPOConfig.from_dict({"gamma": 0.9, "nope": 1})
    with pytest.raises(ValueError):
        PPOTrainer(tiny(opponents=["random"]))  # solitaire takes no opponents


def test_policy_files_round_trip_and_mismatch(tmp_path):
    model = ActorCritic(156, 44, (16, 16))
    save_policy(model, tmp_path / "p", "yacht", note="test")
    bot = load_policy(tmp_path / "p", name="p")
    obs = np.random.default_rng(0).random((5, 156)).astype(np.float32)
    mask = np.ones((5, 44), bool)
    with torch.no_grad():
        expected = model(torch.from_numpy(obs), torch.from_numpy(mask))[0].argmax(1).numpy()
    np.testing.assert_array_equal(bot.act(obs, mask, np.random.default_rng()), expected)
    meta = json.loads((tmp_path / "p.json").read_text())
    for change, msg in [({"obs_size": 150}, "observations"), ({"env_id": "madang/Yacht-v9"}, "trained on"),
                        ({"format_version": 99}, "format_version"), ({"hidden": [8, 8]}, "do not match")]:
        (tmp_path / "p.json").write_text(json.dumps({**meta, **change}))
        with pytest.raises(ValueError, match=msg):
            load_policy(tmp_path / "p")
    with pytest.raises(ValueError, match="not found"):
        load_policy(tmp_path / "missing")


def test_policy_file_is_tensors_only(tmp_path):
    save_policy(ActorCritic(156, 44, (8,)), tmp_path / "p", "yacht")
    state = torch.load(tmp_path / "p.pt", weights_only=True)
    assert all(isinstance(v, torch.Tensor) for v in state.values())


# SB3's make_vec_env asks for render_mode="rgb_array", which madang answers with this warning.
@pytest.mark.filterwarnings("ignore:render_mode .rgb_array. is not supported:UserWarning")
def test_sb3_maskable_ppo_trains_on_unmodified_env():
    from training.sb3_example import evaluate_maskable, train_maskable_ppo

    model = train_maskable_ppo(512, n_envs=2, n_steps=128, batch_size=64)
    mean, se = evaluate_maskable(model, games=3)
    assert 0 <= mean <= 303 and se >= 0


def test_bradley_terry_elo():
    equal = np.array([[0, 50], [50, 0]])
    np.testing.assert_allclose(bradley_terry_elo(equal), [1500, 1500], atol=1e-6)
    wins = np.array([[0, 90, 99], [10, 0, 80], [1, 20, 0]])
    elo = bradley_terry_elo(wins)
    assert elo[0] > elo[1] > elo[2] and abs(elo.mean() - 1500) < 1e-6
    # 75 % expected score is about 191 Elo points
    assert abs(np.diff(bradley_terry_elo(np.array([[0, 750], [250, 0]])))[0] + 190.8) < 2


def test_play_match_and_round_robin_on_tiny_games():
    res = play_match("yacht", ["yacht-solver", "random"], 30, seed=1)
    assert res.shape == (30, 2) and res[:, 0].mean() > res[:, 1].mean()
    t = round_robin("yacht", ["random", "yacht-greedy"], 20, seed=2)
    assert t.elo["yacht-greedy"] > t.elo["random"] and t.win_rate["yacht-greedy"] > 0.5
    assert "| yacht-greedy |" in t.markdown()
    assert evaluate_solo("yacht", "yacht-greedy", 50).fraction_of_optimum < 1


def test_eval_cli(capsys, tmp_path):
    png = tmp_path / "t.png"
    assert main(["eval", "yacht", "--bots", "random", "yacht-greedy", "--games", "10", "--plot", str(png)]) == 0
    out = capsys.readouterr().out
    assert "| bot | Elo |" in out and png.exists() and png.stat().st_size > 1000
    assert main(["eval", "yacht", "--bots", "yacht-greedy", "--games", "20"]) == 0
    assert "fraction of optimum" in capsys.readouterr().out


def test_train_cli_writes_run_and_resumes(tmp_path):
    run = tmp_path / "run"
    args = ["train", "yacht", "--run-dir", str(run), "--total-steps", "1024", "--num-envs", "32",
            "--eval-games", "20", "--set", "num_steps=16", "minibatch_size=256", "hidden=[16,16]",
            "eval_every=1", "checkpoint_every=1"]
    assert main(args) == 0
    lines = (run / "eval.jsonl").read_text().splitlines()
    assert len(lines) == 2 and "eval_mean" in json.loads(lines[-1])
    assert load_policy(run / "policy").metadata["global_step"] == 1024
    assert main(args) == 2  # the checkpoint exists: a user mistake (exit 2, see test_cli.py)
    resumed = args[:5] + ["2048"] + args[6:] + ["--resume"]
    assert main(resumed) == 0
    assert json.loads((run / "eval.jsonl").read_text().splitlines()[-1])["global_step"] == 2048
    # A resume applies the command line's overrides to the checkpoint's config.
    wider = args[:5] + ["4096", "--num-envs", "64", "--resume", "--set", "minibatch_size=512"]
    assert main(wider) == 0
    config = json.loads((run / "config.json").read_text())
    assert config["num_envs"] == 64 and config["minibatch_size"] == 512 and config["hidden"] == [16, 16]
    assert load_policy(run / "policy").metadata["global_step"] == 4096
    # Without --total-steps a resume keeps the checkpoint's target (not the config file's default).
    assert main(args[:4] + ["--resume", "--minutes", "0.0001"]) == 0
    assert json.loads((run / "config.json").read_text())["total_steps"] == 4096
    assert load_policy(run / "policy").metadata["global_step"] == 4096


@pytest.mark.parametrize("content", [b"garbage", b"", b"PK\x03\x04 truncated zip"])
def test_resume_from_a_damaged_checkpoint_is_a_user_error(tmp_path, capsys, content):
    run = tmp_path / "run"
    run.mkdir()
    (run / "checkpoint.pt").write_bytes(content)
    assert main(["train", "yacht", "--run-dir", str(run), "--resume"]) == 2
    err = capsys.readouterr().err
    assert "not a readable madang training checkpoint" in err and str(run / "checkpoint.pt") in err
    assert "weights_only=False" not in err and "Traceback" not in err
    with pytest.raises(ValueError, match="not a readable madang training checkpoint"):
        PPOTrainer.load(run / "checkpoint.pt")


def _nan_at(key, tensor):
    def f(c):
        c[key][tensor].view(-1)[0] = float("nan")
    return f


def _set(key, value):
    def f(c):
        c[key] = value
    return f


def _config(**change):
    def f(c):
        c["config"] = json.dumps({**json.loads(c["config"]), **change})
    return f


def _optimizer(change):
    def f(c):
        change(c["optimizer"])
    return f


DEEP = "[" * 200_000 + "]" * 200_000
TAMPERINGS = {  # a loadable checkpoint changed in one way: each must be refused before anything is written
    "no model": lambda c: c.pop("model"),
    "a model tensor of the wrong shape": lambda c: c["model"].update({"trunk.0.weight": torch.zeros(3, 3)}),
    "a model tensor missing": lambda c: c["model"].pop("policy.bias"),
    "a model of ints": lambda c: c.update(model={k: v.long() for k, v in c["model"].items()}),
    "NaN weights": _nan_at("model", "policy.weight"),
    "NaN in a snapshot": _nan_at("snapshot_0", "value.bias"),
    "a snapshot of another network": lambda c: c.update(snapshot_0={"w": torch.zeros(1)}),
    "a snapshot key without a number": lambda c: c.update(snapshot_x=c["snapshot_0"]),
    "torch rng state of the wrong size": lambda c: c.update(torch_rng=c["torch_rng"][:100]),
    "torch rng state of floats": lambda c: c.update(torch_rng=c["torch_rng"].float()),
    "numpy rng state of the wrong size": lambda c: c.update(np_rng=json.dumps(
        {**json.loads(c["np_rng"]), "state": {"state": 1}})),
    "numpy rng state of another generator": lambda c: c.update(np_rng=json.dumps(
        {**json.loads(c["np_rng"]), "bit_generator": "MT19937"})),
    "global_step 'abc'": _set("global_step", "abc"),
    "global_step negative": _set("global_step", -512),
    "update a float": _set("update", 1.5),
    "bc_done a string": _set("bc_done", "yes"),
    "bc_stats a list": _set("bc_stats", "[1]"),
    "an optimizer without groups": _optimizer(lambda o: o.update(param_groups=[])),
    "an optimizer group without params": _optimizer(lambda o: o["param_groups"][0].pop("params")),
    "an optimizer learning rate 'abc'": _optimizer(lambda o: o["param_groups"][0].update(lr="abc")),
    "other optimizer betas": _optimizer(lambda o: o["param_groups"][0].update(betas=(2.0, 0.999))),
    "an optimizer moment of the wrong shape": _optimizer(lambda o: o["state"][0].update(exp_avg=torch.zeros(2))),
    "a NaN optimizer moment": _optimizer(lambda o: o["state"][1]["exp_avg_sq"].fill_(float("nan"))),
    "a negative second moment": _optimizer(lambda o: o["state"][1]["exp_avg_sq"].fill_(-1.0)),
    "an optimizer state for a parameter that does not exist": _optimizer(lambda o: o["state"].update(
        {99: o["state"][0]})),
    "no optimizer": lambda c: c.pop("optimizer"),
    "config [1]": _set("config", "[1]"),
    "config not JSON": _set("config", "{oops"),
    "config nested 200,000 deep": _set("config", '{"game_config": ' + DEEP + "}"),
    "config nested 100 deep": _config(game_config={"x": json.loads("[" * 100 + "]" * 100)}),
    "bc_stats nested 200,000 deep": _set("bc_stats", DEEP),
    "config with an unknown field": _config(colour="red"),
    "config with a mistyped field": _config(num_envs="many"),
    "config of a huge network": _config(hidden=[100_000, 100_000, 100_000]),
    "config of another game": _config(game="chess"),
    "config with a table the game does not have": _config(game_config={"num_players": 9}),
    "config with an unknown rules option": _config(game_config={"colour": 1}),
    "config with an unknown opponent": _config(game_config={"num_players": 2}, opponents=["nobody"]),
    "config with a device that is none": _config(device="quantum"),
}


@pytest.fixture(scope="module")
def finished_run(tmp_path_factory):
    """A tiny `madang train` run (one update, checkpointed) to tamper with."""
    run = tmp_path_factory.mktemp("tamper") / "run"
    assert main(["train", "yacht", "--run-dir", str(run), "--total-steps", "512", "--num-envs", "32",
                 "--eval-games", "20", "--set", "num_steps=16", "minibatch_size=256", "hidden=[16,16]",
                 "eval_every=1", "checkpoint_every=1"]) == 0
    return run


def _snapshot(directory):
    return {p: (p.stat().st_mtime_ns, p.read_bytes()) for p in sorted(directory.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("label", sorted(TAMPERINGS))
def test_resume_from_a_tampered_checkpoint_is_refused_before_anything_is_written(
        finished_run, tmp_path, capsys, label):
    import shutil

    run = tmp_path / "run"
    shutil.copytree(finished_run, run)
    path = run / "checkpoint.pt"
    ckpt = torch.load(path, weights_only=True)
    TAMPERINGS[label](ckpt)
    torch.save(ckpt, path)
    before = _snapshot(run)
    capsys.readouterr()
    assert main(["train", "yacht", "--run-dir", str(run), "--resume", "--total-steps", "1024"]) == 2, label
    err = capsys.readouterr().err
    assert err.startswith("madang: error: ") and str(path) in err and "Traceback" not in err, (label, err)
    assert _snapshot(run) == before, label
    with pytest.raises(ValueError, match=re.escape(str(path))):
        PPOTrainer.load(path)


def test_the_untampered_checkpoint_resumes(finished_run, tmp_path):
    import shutil

    run = tmp_path / "run"
    shutil.copytree(finished_run, run)
    assert main(["train", "yacht", "--run-dir", str(run), "--resume", "--total-steps", "1024"]) == 0
    assert load_policy(run / "policy").metadata["global_step"] == 1024


def test_a_tensor_file_without_a_config_is_not_a_checkpoint(tmp_path):
    path = tmp_path / "checkpoint.pt"
    torch.save({"model": {}}, path)
    with pytest.raises(ValueError, match="no config"):
        PPOTrainer.read_checkpoint(path)


def test_train_cli_time_budget_stops_and_says_how_to_resume(tmp_path, capsys):
    run = tmp_path / "run"
    args = ["train", "yacht", "--run-dir", str(run), "--total-steps", "102400", "--num-envs", "32",
            "--minutes", "0.0001", "--set", "num_steps=16", "minibatch_size=256", "hidden=[16,16]",
            "eval_every=0"]
    assert main(args) == 0
    assert "continue with --resume" in capsys.readouterr().out
    assert load_policy(run / "policy").metadata["global_step"] < 102400
    assert main(args[:9] + ["0"] + args[10:]) == 2
    assert "--minutes must be positive" in capsys.readouterr().err


@pytest.mark.parametrize(
    "game,game_config,opponents",
    [("rainbow_dice", {"num_players": 1, "copies_per_hand": None}, []),
     ("gostop", {}, ["gostop-greedy"]),
     ("gostop", {}, ["self"])],
)
def test_trainer_runs_on_every_game(game, game_config, opponents):
    cfg = tiny(game=game, game_config=game_config, opponents=opponents, reward_scale=0.1, snapshot_every=1)
    trainer = PPOTrainer(cfg)
    buf = Rollout(16, 64, trainer.game.obs_size, trainer.game.num_actions, "cpu")
    trainer.collect(buf)
    assert buf.mask.gather(2, buf.actions[..., None]).all()
    stats = trainer.train()
    assert np.isfinite(stats["policy_loss"]) and np.isfinite(stats["value_loss"])


def test_shipped_policies_load_by_name(tmp_path, monkeypatch):
    import agents
    from agents import policy_files

    monkeypatch.setattr(policy_files, "WEIGHTS_DIR", tmp_path)
    save_policy(ActorCritic(156, 44, (8, 8)), tmp_path / "yacht-test", "yacht")
    assert "yacht-test" in agents.available()
    bot = agents.load("yacht-test")
    assert bot.name == "yacht-test" and bot.game == "yacht" and bot.greedy
    assert not agents.load("yacht-test", greedy=False).greedy
    (tmp_path / "yacht-test.pt").unlink()
    with pytest.raises(ValueError, match="unknown bot"):
        agents.load("yacht-test")


def test_ship_cli_copies_and_evaluates(tmp_path, capsys, monkeypatch):
    run = tmp_path / "run"
    save_policy(ActorCritic(156, 44, (8, 8)), run / "policy", "yacht", global_step=7)
    monkeypatch.setenv("MADANG_HOME", str(tmp_path / "home"))
    weights = tmp_path / "home" / "bots"
    assert main(["ship", str(run), "yacht-x", "--games", "30"]) == 0
    meta = json.loads((weights / "yacht-x.json").read_text())
    assert meta["global_step"] == 7 and meta["shipped_evaluation"]["games"] == 30
    assert 0 < meta["shipped_evaluation"]["fraction_of_optimum"] < 1
    assert load_policy(weights / "yacht-x").name == "yacht-x"
    assert "solitaire games" in capsys.readouterr().out


def test_yacht_regret_adds_up_to_the_gap():
    from training.evaluate import yacht_regret

    solver = yacht_regret("yacht-solver", 50)
    assert abs(solver["regret_per_game"]) < 1e-9
    greedy = yacht_regret("yacht-greedy", 400, seed=3)
    parts = greedy["reroll_regret_per_game"] + greedy["score_regret_per_game"]
    assert abs(parts - greedy["regret_per_game"]) < 1e-9
    assert abs(sum(greedy["regret_per_game_by_round"]) - parts) < 0.01
    # In expectation the regret is the optimum minus the mean score (within noise).
    assert abs(169.7739 - greedy["mean_score"] - greedy["regret_per_game"]) < 6
