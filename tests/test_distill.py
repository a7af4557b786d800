"""Distilling the exact Yacht solver into a policy network (training/distill.py)."""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch

import agents
from envs.yacht import Yacht
from training.distill import DistillConfig, Distiller, run, same_keep, soft_targets

pytestmark = pytest.mark.slow


def test_soft_targets_weigh_each_keep_once():
    g = Yacht(num_players=1)
    s = g.init(np.arange(8))
    obs, mask = g.observe(s), g.legal_mask(s)
    q = agents.load("yacht-solver").action_values(obs)
    same = same_keep(obs)
    p = soft_targets(q, mask, same, temperature=1e6)  # nearly uniform over distinct keeps/categories
    np.testing.assert_allclose(p.sum(axis=1), 1.0, rtol=1e-6)
    assert (p[~mask] == 0).all()
    per_effect = (same.astype(float) @ p[:, :, None])[:, :, 0]  # probability of each action's effect
    distinct = [len({tuple(r) for r in same[b][mask[b]]}) for b in range(8)]
    for b in range(8):
        np.testing.assert_allclose(per_effect[b][mask[b]], 1.0 / distinct[b], rtol=1e-4)
    cold = soft_targets(q, mask, same, temperature=1e-3)  # the solver's choice
    best = np.where(mask, q, -np.inf).max(axis=1)
    assert (q[np.arange(8), cold.argmax(axis=1)] == best).all()


def test_distill_runs_resumes_and_writes_policy_files(tmp_path):
    torch.manual_seed(0)
    overrides = dict(hidden=[16], init="", games_per_round=8, samples_per_round=256, minibatch_size=128,
                     eval_every=2, eval_games=8, buffer_rounds=2)
    run(tmp_path, minutes=0.0001, resume=False, overrides=overrides, log=None)
    lines = [json.loads(x) for x in (tmp_path / "curve.jsonl").read_text().splitlines()]
    assert len(lines) == 1 and lines[0]["round"] == 0 and lines[0]["trained"] == 256
    with pytest.raises(ValueError, match="--resume"):
        run(tmp_path, minutes=0.0001, resume=False, overrides=overrides, log=None)
    run(tmp_path, minutes=0.0001, resume=True, overrides={"learning_rate": 3e-5}, log=None)
    lines = [json.loads(x) for x in (tmp_path / "curve.jsonl").read_text().splitlines()]
    assert [x["round"] for x in lines] == [0, 1] and "eval_mean" in lines[1]
    assert json.loads((tmp_path / "config.json").read_text())["learning_rate"] == 3e-5
    bot = agents.load(str(tmp_path))  # the run directory's policy files
    g = Yacht(num_players=1)
    s = g.init(np.arange(4))
    assert bot.act(g.observe(s), g.legal_mask(s), np.random.default_rng()).shape == (4,)


def test_a_run_starts_from_init_and_a_resumed_one_from_its_checkpoint(tmp_path):
    first, second = tmp_path / "first", tmp_path / "second"
    small = dict(hidden=[16], games_per_round=8, samples_per_round=256, minibatch_size=128, eval_every=0)
    run(first, minutes=0.0001, resume=False, overrides=dict(small, init=""), log=None)
    start = agents.load(str(first)).model.state_dict()
    d = Distiller(DistillConfig.from_dict(dict(small, init=str(first))))
    assert all(torch.equal(start[k], v) for k, v in d.model.state_dict().items())
    run(second, minutes=0.0001, resume=False, overrides=dict(small, init=str(first)), log=None)
    trained = agents.load(str(second)).model.state_dict()
    resumed = Distiller.load(second / "checkpoint.pt")
    assert resumed.config.init == str(first)  # recorded, but the checkpoint's weights are the ones used
    assert all(torch.equal(trained[k], v) for k, v in resumed.model.state_dict().items())


@pytest.mark.parametrize("bad", [{"games_per_round": 0}, {"temperature": 0}, {"sample_share": 1.5},
                                 {"hidden": [0]}, {"hidden": "512"}, {"seed": -1}, {"no_such": 1}])
def test_bad_options_are_refused(bad):
    with pytest.raises(ValueError):
        DistillConfig.from_dict(bad)


@pytest.mark.parametrize("argv", [["--set", "temperature"], ["--set", "init=yacht-ppo"], ["--set", "seed=-2"],
                                  ["--minutes", "0"], ["--resume"]])
def test_command_line_mistakes_exit_2_with_a_message(argv, tmp_path, capsys):
    from training.distill import main

    with pytest.raises(SystemExit) as e:
        main(["--run-dir", str(tmp_path / "run"), *argv])
    assert e.value.code == 2 and "error:" in capsys.readouterr().err
