"""Distilling gostop-search into the Go-Stop policy network (training/gostop_distill.py)."""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch

import agents
from envs.gostop.actions import GO
from training.evaluate import play_match
from training.gostop_distill import GoStopDistillConfig, GoStopDistiller, as_tensors, losses, regrets, run

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
    cfg = GoStopDistillConfig.from_dict(dict(TINY, teacher="random", teacher_options={}, target="action"))
    d = GoStopDistiller(cfg)
    d.collect()
    b = d.buffer[-1]
    assert (b["mask"].sum(axis=1) > 1).all()  # forced moves are not recorded
    again = agents.load("random").act(b["obs"], b["mask"], np.random.default_rng([cfg.seed, 0, 2]))
    np.testing.assert_array_equal(b["label"], again)
    greedy = agents.load("gostop-greedy").act(b["obs"], b["mask"], None)
    assert (b["label"] != greedy).any()


def test_go_stop_decisions_only_records_exactly_the_students_go_stop_decisions():
    cfg = dict(TINY, deals_per_round=64, opponents={"gostop-greedy": 1})
    torch.manual_seed(0)
    every = GoStopDistiller(GoStopDistillConfig.from_dict(cfg)).play_round()
    torch.manual_seed(0)  # the same fresh network
    only = GoStopDistiller(GoStopDistillConfig.from_dict(dict(cfg, decisions="go_stop"))).play_round()
    at_go = every["mask"][:, GO]
    assert 0 < at_go.sum() < at_go.size
    for key in ("obs", "mask", "outcome", "rows"):
        np.testing.assert_array_equal(only[key], every[key][at_go])


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
                                             samples_per_round=2048, learning_rate=3e-3, target="action"))
    d = GoStopDistiller(cfg)
    d.collect()
    batch = as_tensors(d.buffer[-1])
    with torch.no_grad():
        before = {k: x.item() for k, x in losses(d.model, batch, cfg).items()}
    d.fit()
    with torch.no_grad():
        after = {k: x.item() for k, x in losses(d.model, batch, cfg).items()}
    assert set(after) == {"cross_entropy", "value_loss", "total"}
    assert after["cross_entropy"] < 0.8 * before["cross_entropy"] and after["value_loss"] < before["value_loss"]


def test_value_targets_are_the_ppo_configs_scaled_points_and_win_bonus():
    cfg = GoStopDistillConfig.from_dict({"hidden": [4], "init": "", "teacher": "random", "label_smoothing": 0.0,
                                         "target": "action"})
    model = GoStopDistiller(cfg).model
    obs = torch.zeros(3, model.obs_size)
    mask = torch.zeros(3, model.num_actions, dtype=torch.bool)
    mask[:, :2] = True
    outcome = torch.tensor([10.0, -4.0, 0.0])
    with torch.no_grad():
        model.value.weight.zero_()
        model.value.bias.zero_()
        v = losses(model, {"obs": obs, "mask": mask, "label": torch.zeros(3, dtype=torch.long),
                           "values": torch.full(mask.shape, float("nan")), "outcome": outcome}, cfg)["value_loss"]
    assert v.item() == pytest.approx(0.5 * np.mean([1.5**2, 1.2**2, 0.0]))


@pytest.mark.parametrize("bad", [{"deals_per_round": 0}, {"sample_share": 1.5}, {"label_smoothing": -0.1},
                                 {"opponents": {}}, {"opponents": {"self": 0}}, {"opponents": {"self": -1}},
                                 {"teacher_options": []}, {"hidden": [0]}, {"seed": -1}, {"no_such": 1},
                                 {"target": "argmax"}, {"decisions": "go"}, {"regret_scale": 0}, {"argmax_weight": -0.1}])
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


def test_values_labels_are_the_teachers_action_values_and_their_best_move():
    cfg = GoStopDistillConfig.from_dict(TINY)
    d = GoStopDistiller(cfg)
    stats = d.collect()
    b = d.buffer[-1]
    q = agents.load("gostop-search", **TINY_TEACHER).action_values(b["obs"], b["mask"],
                                                                   np.random.default_rng([cfg.seed, 0, 2]))
    np.testing.assert_array_equal(b["values"], q.astype(np.float32))
    np.testing.assert_array_equal(np.isfinite(b["values"]), b["mask"])
    np.testing.assert_array_equal(b["label"], np.nanargmax(q, axis=1))
    # the held-out measures: the greedy student's regret and gostop-greedy's, on these decisions
    student = d.bot().act(b["obs"], b["mask"], None)
    heuristic = agents.load("gostop-greedy").act(b["obs"], b["mask"], None)
    assert stats["regret_student"] == pytest.approx(regrets(b["values"], student).mean())
    assert stats["regret_heuristic"] == pytest.approx(regrets(b["values"], heuristic).mean())
    assert stats["agreement"] == pytest.approx((student == b["label"]).mean())


def test_regrets_are_the_points_lost_to_the_best_valued_move():
    q = np.array([[1.0, 3.0, np.nan], [np.nan, -2.0, -5.0]])
    np.testing.assert_array_equal(regrets(q, np.array([0, 2])), [2.0, 3.0])


def test_the_regret_loss_is_the_policys_expected_regret_and_pushes_to_better_moves():
    cfg = GoStopDistillConfig.from_dict({"hidden": [4], "init": "", "teacher_options": TINY_TEACHER,
                                         "label_smoothing": 0.0, "argmax_weight": 0.5, "regret_scale": 2.0})
    model = GoStopDistiller(cfg).model
    obs = torch.randn(2, model.obs_size)
    mask = torch.zeros(2, model.num_actions, dtype=torch.bool)
    mask[:, :3] = True
    values = torch.full(mask.shape, float("nan"))
    values[:, :3] = torch.tensor([[1.0, 3.0, 0.0], [5.0, 5.0, -1.0]])
    batch = {"obs": obs, "mask": mask, "label": torch.tensor([1, 0]), "values": values, "outcome": torch.zeros(2)}
    parts = losses(model, batch, cfg)
    logits = model(obs, mask)[0]
    pi = torch.softmax(logits, dim=1)[:, :3]
    expected = ((pi * torch.tensor([[2.0, 0.0, 3.0], [0.0, 0.0, 6.0]])).sum(dim=1)).mean()
    assert parts["regret"].item() == pytest.approx(expected.item(), rel=1e-5)
    assert parts["total"].item() == pytest.approx(
        (parts["regret"] / 2.0 + 0.5 * parts["cross_entropy"] + cfg.vf_coef * parts["value_loss"]).item(), rel=1e-5)
    # the regret's gradient lowers the worst move's logit and raises the best one's
    logit = model(obs, mask)[0]
    logit.retain_grad()
    regret = (torch.softmax(logit, dim=1) * torch.nan_to_num(values.nan_to_num(-1e9).max(1, keepdim=True).values
                                                             - values, nan=0.0)).sum(1).mean()
    regret.backward()
    assert logit.grad[0, 2] > 0 > logit.grad[0, 1]


def test_the_values_fit_lowers_the_students_regret_on_its_labels():
    torch.manual_seed(0)
    cfg = GoStopDistillConfig.from_dict(dict(TINY, deals_per_round=16, samples_per_round=8192, learning_rate=3e-3))
    d = GoStopDistiller(cfg)
    d.collect()
    batch = as_tensors(d.buffer[-1])
    with torch.no_grad():
        before = losses(d.model, batch, cfg)["regret"].item()
    stats = d.fit()
    with torch.no_grad():
        after = losses(d.model, batch, cfg)["regret"].item()
    assert "fit_regret" in stats and after < 0.6 * before, (before, after)


def test_values_need_a_teacher_that_values_moves():
    with pytest.raises(ValueError, match="action_values"):
        GoStopDistiller(GoStopDistillConfig.from_dict({"teacher": "gostop-greedy", "init": "", "hidden": [4]}))


@pytest.mark.parametrize("extra", [{}, {"regret_student": 0.9, "regret_heuristic": 2.3}])
def test_the_curve_plots_agreement_or_regret(extra, tmp_path):
    pytest.importorskip("matplotlib")
    from training.gostop_distill import plot_curve

    rows = [dict(labels=100, agreement=0.6, eval_points=2.0, eval_points_ci95=0.5, eval_decided_win_rate=0.5,
                 **extra) for _ in range(2)]
    (tmp_path / "curve.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    plot_curve(tmp_path, tmp_path / "c.png")
    assert (tmp_path / "c.png").stat().st_size > 0
