"""``madang export``: every shipped policy as ONNX, checked against torch with onnxruntime."""

from __future__ import annotations

import json
import sys

import numpy as np
import pytest
import torch

import agents
from frontends.export.metadata import INPUTS, OPSET, OUTPUTS, game_layout
from agents.registry import shipped_policies
from agents.policy_files import load_policy, save_policy
from agents.torch_policy import ActorCritic
from envs.registration import GAMES, game_class
from frontends.cli import main

POLICIES = shipped_policies()
RANDOM_OBSERVATIONS = 10_000
TOLERANCE = 1e-4

pytestmark = [pytest.mark.slow, pytest.mark.integration]


def _files(exported, name):
    d = exported(name)
    meta = json.loads((d / f"{name}.json").read_text())
    examples = json.loads((d / f"{name}.examples.json").read_text())["examples"]
    return d / f"{name}.onnx", meta, examples


def _torch(bot, obs, mask):
    with torch.no_grad():
        logits, value = bot.model(torch.from_numpy(obs), torch.from_numpy(mask))
    return logits.numpy(), value.numpy()


def _onnx(path, obs, mask):
    from frontends.export.onnx_export import onnx_forward, onnx_session

    return onnx_forward(onnx_session(path), obs, mask)


def test_some_policy_ships():
    assert "yacht-ppo" in POLICIES


def _check_examples(path, bot, examples):
    obs = np.array([e["observation"] for e in examples], dtype=np.float32)
    mask = np.array([e["mask"] for e in examples], dtype=bool)
    ort_logits, ort_value = _onnx(path, obs, mask)
    torch_logits, torch_value = _torch(bot, obs, mask)
    recorded = np.array([e["action"] for e in examples])
    assert (ort_logits.argmax(axis=1) == recorded).all()
    assert (torch_logits.argmax(axis=1) == recorded).all()
    assert np.abs(ort_logits - torch_logits).max() <= TOLERANCE
    assert np.abs(ort_logits - np.array([e["logits"] for e in examples])).max() <= TOLERANCE
    assert np.abs(ort_value - torch_value).max() <= TOLERANCE


def _check_positions(game_name, examples):
    cls = game_class(game_name)
    assert {e["game_config"]["num_players"] for e in examples} == set(
        range(cls.min_players, cls.max_players + 1))
    with_position = [e for e in examples if e["position"] is not None]
    assert len(with_position) >= len(examples) // 2
    for e in with_position:
        game = cls(**e["game_config"])
        state = game.from_position(e["position"])
        assert int(state.to_move[0]) == e["seat"]
        np.testing.assert_array_equal(game.observe(state)[0], np.array(e["observation"], dtype=np.float32))
        np.testing.assert_array_equal(game.legal_mask(state)[0], np.array(e["mask"], dtype=bool))
    for e in examples:
        assert e["mask"][e["action"]] == 1


@pytest.mark.parametrize("name", POLICIES)
def test_onnxruntime_matches_torch_on_the_examples(exported, name):
    path, meta, examples = _files(exported, name)
    assert len(examples) == meta["examples"]["count"] == 100
    _check_examples(path, agents.load(name), examples)


@pytest.mark.parametrize("name", POLICIES)
def test_onnxruntime_matches_torch_on_random_observations(exported, name):
    path, meta, _ = _files(exported, name)
    bot = agents.load(name)
    rng = np.random.default_rng(0)
    n, O, A = RANDOM_OBSERVATIONS, meta["observation"]["size"], meta["action"]["size"]
    obs = rng.random((n, O), dtype=np.float32)
    mask = rng.random((n, A)) < rng.random((n, 1))  # from almost none to almost all legal
    mask[np.arange(n), rng.integers(A, size=n)] = True
    ort_logits, _ = _onnx(path, obs, mask)
    torch_logits, _ = _torch(bot, obs, mask)
    assert (ort_logits.argmax(axis=1) == torch_logits.argmax(axis=1)).all()
    assert mask[np.arange(n), ort_logits.argmax(axis=1)].all()
    assert np.abs(ort_logits - torch_logits).max() <= TOLERANCE


@pytest.mark.parametrize("name", POLICIES)
def test_examples_are_real_positions_that_encode_to_their_observations(exported, name):
    _, meta, examples = _files(exported, name)
    _check_positions(meta["game"], examples)


@pytest.mark.requires("onnx")
@pytest.mark.parametrize("game_name", sorted(GAMES))
def test_every_game_exports(tmp_path, game_name):
    """An untrained policy of each game goes through the same export (before its bot ships)."""
    from frontends.export import export_bot

    cls = game_class(game_name)
    torch.manual_seed(0)
    model = ActorCritic(cls.obs_size, cls.num_actions, (32,))
    torch.nn.init.normal_(model.policy.weight)  # spread the logits: no near-ties at random init
    save_policy(model, tmp_path / "untrained", game_name, training_config={"game_config": {}})
    bot = load_policy(tmp_path / "untrained")
    r = export_bot(bot, "untrained", tmp_path / "out", count=40)
    assert r.num_examples == r.greedy_agree == 40
    examples = json.loads(r.examples.read_text())["examples"]
    _check_examples(r.onnx, bot, examples)
    _check_positions(game_name, examples)


@pytest.mark.parametrize("name", POLICIES)
def test_metadata_describes_the_onnx_file_and_the_installed_env(exported, name):
    import onnx

    path, meta, _ = _files(exported, name)
    model = onnx.load(str(path))
    assert [i.name for i in model.graph.input] == list(INPUTS) == [i["name"] for i in meta["onnx"]["inputs"]]
    assert [o.name for o in model.graph.output] == list(OUTPUTS) == [o["name"] for o in meta["onnx"]["outputs"]]
    assert {o.domain: o.version for o in model.opset_import}[""] == OPSET == meta["onnx"]["opset"]
    cls = game_class(meta["game"])
    assert meta["env_id"] == cls.env_id
    layout = game_layout(meta["game"])
    assert meta["observation"] == layout["observation"] and meta["action"] == layout["action"]
    assert [s["name"] for s in meta["observation"]["slices"]] == list(cls.obs_slices)
    assert [s["name"] for s in meta["action"]["slices"]] == list(cls.action_slices)
    assert len(meta["action"]["names"]) == cls.num_actions


@pytest.mark.parametrize("name", ["yacht-solver", "yacht-greedy", "rainbow-greedy", "gostop-greedy", "random"])
def test_heuristic_and_search_bots_cannot_be_exported(capsys, tmp_path, name):
    assert main(["export", name, "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"madang: error: {name} is a heuristic or search bot")
    assert all(p in err for p in POLICIES) and not any(tmp_path.iterdir())


def test_unknown_bots_cannot_be_exported(capsys):
    assert main(["export", "no-such-bot"]) == 2
    assert "unknown bot 'no-such-bot'" in capsys.readouterr().err


@pytest.mark.parametrize("hidden", [("onnxscript",), ("onnx", "onnxruntime", "onnxscript")])
def test_export_without_the_onnx_extra_says_how_to_install_it(capsys, monkeypatch, tmp_path, hidden):
    """A plain install lacks all three modules; an old one may lack onnxscript only."""
    import importlib.util

    from frontends.export.onnx_export import EXTRA_MODULES

    for module in hidden:
        monkeypatch.setitem(sys.modules, module, None)  # makes `import module` fail
    missing = [m for m in EXTRA_MODULES if m in hidden or importlib.util.find_spec(m) is None]
    assert main(["export", "yacht-ppo", "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"madang: error: exporting needs {', '.join(missing)} (the madang[onnx] extra)"), err
    assert 'hint: pip install "madang[onnx]"' in err and 'pip install -e ".[onnx]"' in err, err
    assert "madang bots" not in err and "Traceback" not in err
    assert not any(tmp_path.iterdir())


@pytest.mark.requires("onnx")
@pytest.mark.parametrize("out", ["a file", "/dev/null", "x" * 300, "a file/below"])
def test_export_into_something_that_is_no_directory_is_a_user_mistake(capsys, tmp_path, out):
    (tmp_path / "a file").write_text("keep me")
    assert main(["export", "yacht-ppo", "--out", str(tmp_path / out) if out != "/dev/null" else out]) == 2
    err = capsys.readouterr().err
    assert err.startswith("madang: error: ") and "\nhint: --out names a directory" in err, err
    assert "Traceback" not in err and (tmp_path / "a file").read_text() == "keep me"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a file"]


@pytest.mark.requires("onnx")
@pytest.mark.parametrize("count", ["0", "-5", "10001"])
def test_export_examples_out_of_range_is_a_user_mistake(capsys, tmp_path, count):
    assert main(["export", "yacht-ppo", "--out", str(tmp_path / "out"), "--examples", count]) == 2
    err = capsys.readouterr().err
    assert err.startswith("madang: error: the number of examples must be in 1..10,000"), err
    assert "Traceback" not in err and not any(tmp_path.iterdir())
