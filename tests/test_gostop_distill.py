"""Distilling gostop-search into the Go-Stop policy network (training/gostop_distill.py)."""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch

import agents
from training.evaluate import play_match
from training.gostop_distill import GoStopDistillConfig, GoStopDistiller, as_tensors, losses, run

pytestmark = pytest.mark.slow

TINY_TEACHER = dict(determinizations=4, choice_determinizations=4, go_stop_determinizations=4,
                    close_determinizations=0)
TINY = dict(hidden=[16], init="", deals_per_round=6, samples_per_round=64, minibatch_size=32,
            teacher_options=TINY_TEACHER, eval_every=2, eval_pairs=4, buffer_rounds=4)


def test_a_run_writes_a_checkpoint_resumes_it_and_continues_from_the_same_round(tmp_path):
    torch.manual_seed(0)
    run(tmp_path, minutes=1e-6, resume=False, overrides=TINY, log=None)
    lines = [json.loads(x) for x in (tmp_path / "curve.jsonl").read_text().splitlines()]
    assert len(lines) == 1 and lines[0]["round"] == 0 and lines[0]["labels"] > 0
    assert lines[0]["trained"] == 64 and "eval_points" not in lines[0]
    first = GoStopDistiller.load(tmp_path / "checkpoint.pt")
    assert first.round == 1 and len(first.buffer) == 1 and first.buffer[0]["label"].size == lines[0]["labels"]
    with pytest.raises(ValueError, match="--resume"):
        run(tmp_path, minutes=1e-6, resume=False, overrides=TINY, log=None)
    run(tmp_path, minutes=1e-6, resume=True, overrides={"learning_rate": 3e-5}, log=None)
    lines = [json.loads(x) for x in (tmp_path / "curve.jsonl").read_text().splitlines()]
    assert [x["round"] for x in lines] == [0, 1]
    assert {"eval_points", "eval_points_ci95", "eval_decided_win_rate"} <= set(lines[1])
    assert lines[1]["buffer"] == lines[0]["labels"] + lines[1]["labels"]  # the resumed buffer kept round 0
    assert json.loads((tmp_path / "config.json").read_text())["learning_rate"] == 3e-5
    bot = agents.load(str(tmp_path))  # the run directory's policy files
    resumed = GoStopDistiller.load(tmp_path / "checkpoint.pt")
    assert resumed.round == 2
    assert all(torch.equal(bot.model.state_dict()[k], v) for k, v in resumed.model.state_dict().items())


def test_the_default_run_starts_from_gostop_ppo_v1():
    d = GoStopDistiller(GoStopDistillConfig.from_dict({"teacher_options": TINY_TEACHER}))
    v1 = agents.load("gostop-ppo-v1").model.state_dict()
    assert all(torch.equal(v1[k], v) for k, v in d.model.state_dict().items())


def test_labels_are_the_teachers_actions_on_the_recorded_decisions():
    cfg = GoStopDistillConfig.from_dict(dict(TINY, teacher="random", teacher_options={}))
    d = GoStopDistiller(cfg)
    d.collect()
    b = d.buffer[-1]
    assert (b["mask"].sum(axis=1) > 1).all()  # forced moves are not recorded
    again = agents.load("random").act(b["obs"], b["mask"], np.random.default_rng([cfg.seed, 0, 2]))
    np.testing.assert_array_equal(b["label"], again)
    greedy = agents.load("gostop-greedy").act(b["obs"], b["mask"], None)
    assert (b["label"] != greedy).any()


def test_records_are_the_students_decisions_with_its_deal_outcome():
    """A greedy student against gostop-greedy: the round replays through the evaluation engine."""
    cfg = GoStopDistillConfig.from_dict(dict(TINY, sample_share=0.0, opponents={"gostop-greedy": 1}))
    d = GoStopDistiller(cfg)
    data = d.play_round()
    student = d.bot()
    base = cfg.seed * 1_000_003
    seen = []
    for k in range(cfg.deals_per_round):
        bots = [student, "gostop-greedy"] if k % 2 == 0 else ["gostop-greedy", student]
        value = play_match("gostop", bots, 1, seed=base + k)[0, k % 2]
        mine = data["rows"] == k
        np.testing.assert_array_equal(data["outcome"][mine], value)
        seen.append(mine.sum())
    assert sum(seen) == data["mask"].shape[0] > 0
    assert np.array_equal(student.act(data["obs"], data["mask"], None),
                          d.model(torch.from_numpy(data["obs"]), torch.from_numpy(data["mask"]))[0].argmax(1).numpy())


def test_the_fit_lowers_the_loss_on_a_fixed_batch():
    torch.manual_seed(0)
    cfg = GoStopDistillConfig.from_dict(dict(TINY, teacher="gostop-greedy", teacher_options={}, deals_per_round=16,
                                             samples_per_round=2048, learning_rate=3e-3))
    d = GoStopDistiller(cfg)
    d.collect()
    batch = as_tensors(d.buffer[-1])
    with torch.no_grad():
        before = [x.item() for x in losses(d.model, batch, cfg)]
    d.fit()
    with torch.no_grad():
        after = [x.item() for x in losses(d.model, batch, cfg)]
    assert after[0] < 0.8 * before[0] and after[1] < before[1]


def test_value_targets_are_the_ppo_configs_scaled_points_and_win_bonus():
    cfg = GoStopDistillConfig.from_dict({"hidden": [4], "init": "", "teacher": "random", "label_smoothing": 0.0})
    model = GoStopDistiller(cfg).model
    obs = torch.zeros(3, model.obs_size)
    mask = torch.zeros(3, model.num_actions, dtype=torch.bool)
    mask[:, :2] = True
    outcome = torch.tensor([10.0, -4.0, 0.0])
    with torch.no_grad():
        model.value.weight.zero_()
        model.value.bias.zero_()
        _, v = losses(model, {"obs": obs, "mask": mask, "label": torch.zeros(3, dtype=torch.long),
                              "outcome": outcome}, cfg)
    assert v.item() == pytest.approx(0.5 * np.mean([1.5**2, 1.2**2, 0.0]))


@pytest.mark.parametrize("bad", [{"deals_per_round": 0}, {"sample_share": 1.5}, {"label_smoothing": -0.1},
                                 {"opponents": {}}, {"opponents": {"self": 0}}, {"opponents": {"self": -1}},
                                 {"teacher_options": []}, {"hidden": [0]}, {"seed": -1}, {"no_such": 1}])
def test_bad_options_are_refused(bad):
    with pytest.raises(ValueError):
        GoStopDistillConfig.from_dict(bad)


@pytest.mark.parametrize("argv", [["--set", "deals_per_round"], ["--set", "init=gostop-ppo-v1"],
                                  ["--set", "seed=-2"], ["--minutes", "0"], ["--resume"]])
def test_command_line_mistakes_exit_2_with_a_message(argv, tmp_path, capsys):
    from training.gostop_distill import main

    with pytest.raises(SystemExit) as e:
        main(["--run-dir", str(tmp_path / "run"), *argv])
    assert e.value.code == 2 and "error:" in capsys.readouterr().err
