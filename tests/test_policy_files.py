"""Policy files: every bad file is a ValueError naming it; users' own files load by path."""

from __future__ import annotations

import json
import pickle
import shutil

import numpy as np
import pytest
import torch

import agents
from agents.policy_files import load_policy, save_policy
from agents.torch_policy import ActorCritic
from envs.yacht import NUM_ACTIONS, OBS_SIZE, Yacht

pytestmark = pytest.mark.slow


def _saved(tmp_path, name="mine", hidden=(8, 8)):
    torch.manual_seed(0)
    model = ActorCritic(OBS_SIZE, NUM_ACTIONS, hidden)
    pt, js = save_policy(model, tmp_path / name, "yacht", description="a test policy")
    return pt, js


def _meta(js):
    return json.loads(js.read_text())


class Evil:
    def __reduce__(self):
        return (print, ("unpickled!",))


def _hostile_files(tmp_path):
    """(label, mutate(pt, js)) pairs that each break the files in one way."""
    def write_meta(**change):
        def f(pt, js):
            js.write_text(json.dumps({**_meta(js), **change}))
        return f

    def drop_key(key):
        def f(pt, js):
            meta = _meta(js)
            del meta[key]
            js.write_text(json.dumps(meta))
        return f

    def pt_bytes(data):
        return lambda pt, js: pt.write_bytes(data)

    def pt_object(obj):
        return lambda pt, js: torch.save(obj, pt)

    def pt_with(value):  # the saved weights with one tensor's first entry set to value
        def f(pt, js):
            state = torch.load(pt, weights_only=True)
            state["trunk.0.weight"][0, 0] = value
            torch.save(state, pt)
        return f

    def pt_pickle(pt, js):
        with open(pt, "wb") as f:
            pickle.dump(Evil(), f)

    return [
        ("huge hidden", write_meta(hidden=[10**9, 10**9])),
        ("many layers", write_meta(hidden=[8] * 1000)),
        ("hidden not a list", write_meta(hidden="8,8")),
        ("hidden floats", write_meta(hidden=[8.0, 8])),
        ("hidden zero", write_meta(hidden=[0])),
        ("hidden bool", write_meta(hidden=[True])),
        ("unknown game", write_meta(game="chess")),
        ("game not a string", write_meta(game=["yacht"])),
        ("wrong env id", write_meta(env_id="madang/Yacht-v9")),
        ("wrong obs size", write_meta(obs_size=OBS_SIZE + 1)),
        ("obs size string", write_meta(obs_size="156")),
        ("format version", write_meta(format_version=2)),
        ("missing game", drop_key("game")),
        ("missing hidden", drop_key("hidden")),
        ("json list", lambda pt, js: js.write_text("[1, 2]")),
        ("json garbage", lambda pt, js: js.write_text("{not json")),
        ("json binary", lambda pt, js: js.write_bytes(b"\xff\xfe\x00")),
        ("json nested 200,000 deep", lambda pt, js: js.write_text(
            js.read_text()[:-2] + ', "deep": ' + "[" * 200_000 + "]" * 200_000 + "}")),
        ("json nested 500 deep", write_meta(notes=json.loads("[" * 500 + "]" * 500))),
        ("training_config a list", write_meta(training_config=[1])),
        ("game_config a string", write_meta(training_config={"game_config": "solo"})),
        ("pt empty", pt_bytes(b"")),
        ("pt garbage", pt_bytes(b"PK\x03\x04 not really a zip")),
        ("pt pickle", pt_pickle),
        ("pt pickled object via torch", pt_object({"trunk.0.weight": Evil()})),
        ("pt a list", pt_object([torch.zeros(3)])),
        ("pt wrong shapes", pt_object({k: torch.zeros(2) for k in
                                       ActorCritic(OBS_SIZE, NUM_ACTIONS, (8, 8)).state_dict()})),
        ("pt missing tensor", pt_object({"policy.bias": torch.zeros(NUM_ACTIONS)})),
        ("pt ints", pt_object({k: torch.zeros(v.shape, dtype=torch.int64) for k, v in
                               ActorCritic(OBS_SIZE, NUM_ACTIONS, (8, 8)).state_dict().items()})),
        ("pt NaN", pt_with(float("nan"))),
        ("pt inf", pt_with(float("inf"))),
        ("pt missing", lambda pt, js: pt.unlink()),
        ("json missing", lambda pt, js: js.unlink()),
    ]


@pytest.mark.filterwarnings("ignore:Detected pickle protocol:UserWarning")
@pytest.mark.parametrize("case", range(33))
def test_every_bad_policy_file_is_a_value_error_naming_it(tmp_path, case, capsys):
    label, mutate = _hostile_files(tmp_path)[case]
    pt, js = _saved(tmp_path)
    mutate(pt, js)
    with pytest.raises(ValueError) as info:
        load_policy(tmp_path / "mine")
    message = str(info.value)
    assert str(tmp_path / "mine") in message, label
    assert "weights_only" not in message and "weights_only" not in repr(info.value.__cause__), label
    assert info.value.__cause__ is None or isinstance(info.value.__cause__, ValueError), label
    assert "unpickled!" not in capsys.readouterr().out, label


def test_hostile_file_cases_are_all_covered(tmp_path):
    assert len(_hostile_files(tmp_path)) == 33


def test_agents_load_takes_paths_to_policy_files_and_run_directories(tmp_path):
    pt, js = _saved(tmp_path)
    run = tmp_path / "run"
    run.mkdir()
    shutil.copyfile(pt, run / "policy.pt")
    shutil.copyfile(js, run / "policy.json")
    obs = Yacht().observe(Yacht().init([0]))
    mask = Yacht().legal_mask(Yacht().init([0]))
    rng = np.random.default_rng(0)
    actions = set()
    for name in (str(tmp_path / "mine"), str(pt), str(js), str(run), f"{run}/"):
        bot = agents.load(name)
        assert bot.game == "yacht" and bot.name == name
        actions.add(int(bot.act(obs, mask, rng)[0]))
    assert len(actions) == 1
    with pytest.raises(ValueError, match="not found"):
        agents.load(str(tmp_path / "nothing"))
    with pytest.raises(ValueError, match="unknown bot"):
        agents.load("no-such-bot")


def test_shipped_policy_still_loads_by_name():
    bot = agents.load("yacht-ppo")
    assert bot.name == "yacht-ppo" and bot.metadata["hidden"] == [512, 512, 512, 512]


def test_bot_options_are_checked_by_name(tmp_path):
    _saved(tmp_path)
    with pytest.raises(ValueError, match="'random' takes no option 'depth'"):
        agents.load("random", depth=3)
    with pytest.raises(ValueError, match="token_value"):
        agents.load("rainbow-greedy", tokens=3)
    assert agents.load(str(tmp_path / "mine"), greedy=False).greedy is False
    with pytest.raises(ValueError, match="greedy"):
        agents.load(str(tmp_path / "mine"), temperature=2)
