"""Policies by path or reference (agents.loaders): SB3 zips, ONNX files and module:attr Python policies.

Each kind is built tiny here, loaded through ``agents.load`` and checked against what its own
library computes; every bad file or reference is a ``ValueError`` naming it.  The RLlib
checkpoints are tested in tests/rllib (ray lives in its own venv).
"""

from __future__ import annotations

import base64
import json
import pickle
import sys
import zipfile

import numpy as np
import pytest
import torch

import agents
import tests.tiny_policies as tiny
from agents.loaders import kind_of
from envs.registration import game_class
from training.evaluate import evaluate_solo, seat_swapped_match

pytestmark = pytest.mark.slow


def _positions(game: str, n: int = 64, seed: int = 0):
    """Observations and bool masks of ``n`` decisions from random play (several per game)."""
    g = game_class(game)(num_players=1 if game != "gostop" else 2)
    state = g.init(np.arange(n) + seed)
    rng = np.random.default_rng(seed)
    for _ in range(3):
        g.step(state, agents.load("random").act(g.observe(state), g.legal_mask(state), rng))
    return g.observe(state), g.legal_mask(state).astype(bool)


@pytest.fixture(scope="module")
def zips(tmp_path_factory):
    d = tmp_path_factory.mktemp("sb3")
    return {a: tiny.sb3_zip(d, a) for a in tiny.SB3_ALGORITHMS}



# ------------------------------------------------------------------------------------- SB3
def _no_unpickling(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("a loader unpickled something")

    import cloudpickle

    monkeypatch.setattr(cloudpickle, "loads", refuse)
    monkeypatch.setattr(pickle, "loads", refuse)
    monkeypatch.setattr(pickle, "load", refuse)


@pytest.mark.parametrize("algorithm", tiny.SB3_ALGORITHMS)
def test_sb3_zip_loads_without_unpickling_and_plays_what_sb3_computes(zips, algorithm, monkeypatch):
    with monkeypatch.context() as m:
        _no_unpickling(m)
        bot = agents.load(str(zips[algorithm]))
    assert (bot.game, bot.kind, bot.algorithm) == ("yacht", f"sb3-{algorithm.lower()}", algorithm)
    assert kind_of(str(zips[algorithm])) == "sb3" and bot.name == str(zips[algorithm])
    # SB3's own load (which unpickles) must compute the same scores.
    from sb3_contrib import MaskablePPO
    from stable_baselines3 import A2C, DQN, PPO

    model = {"PPO": PPO, "A2C": A2C, "MaskablePPO": MaskablePPO, "DQN": DQN}[algorithm].load(zips[algorithm],
                                                                                          device="cpu")
    obs, mask = _positions("yacht")
    with torch.no_grad():
        x = torch.from_numpy(obs)
        ref = model.policy.q_net(x) if algorithm == "DQN" else model.policy.get_distribution(x).distribution.logits
    ref = np.where(mask, ref.numpy(), -np.inf)
    np.testing.assert_array_equal(bot.act(obs, mask, np.random.default_rng(0)), ref.argmax(axis=1))
    if algorithm == "MaskablePPO":
        actions, _ = model.predict(obs, action_masks=mask, deterministic=True)
        np.testing.assert_array_equal(bot.act(obs, mask, np.random.default_rng(0)), actions)


@pytest.mark.parametrize("algorithm", ["PPO", "DQN"])
def test_sb3_algorithms_without_masks_play_only_legal_actions(zips, algorithm):
    # The core validates every action: an illegal one would raise.
    r = evaluate_solo("yacht", agents.load(str(zips[algorithm])), 16, seed=3)
    assert r.games == 16 and r.mean > 0


def test_sb3_sampling_is_legal_and_repeats_with_the_seed(zips):
    bot = agents.load(str(zips["PPO"]), greedy=False)
    obs, mask = _positions("yacht")
    a = bot.act(obs, mask, np.random.default_rng(5))
    np.testing.assert_array_equal(a, bot.act(obs, mask, np.random.default_rng(5)))
    assert mask[np.arange(len(a)), a].all()
    with pytest.raises(ValueError, match="DQN policy has action values"):
        agents.load(str(zips["DQN"]), greedy=False)


def test_sb3_zip_of_another_game_names_its_game(tmp_path):
    bot = agents.load(str(tiny.sb3_zip(tmp_path, "MaskablePPO", "gostop", steps=32)))
    assert bot.game == "gostop"
    with pytest.raises(ValueError, match="plays gostop, not yacht"):
        bot.check_game("yacht")
    m = seat_swapped_match("gostop", bot, "gostop-greedy", 2)
    assert m.games >= 4


class _Marker:
    """Unpickling it would create ``path``."""

    def __init__(self, path):
        self.path = path

    def __reduce__(self):
        return (open, (str(self.path), "w"))


def _rewrite_data(src, dst, change):
    """Copy the SB3 zip ``src`` to ``dst`` with ``change(data)`` applied to its data JSON."""
    with zipfile.ZipFile(src) as z:
        files = {n: z.read(n) for n in z.namelist()}
    data = json.loads(files["data"])
    change(data)
    files["data"] = json.dumps(data).encode()
    with zipfile.ZipFile(dst, "w") as z:
        for n, b in files.items():
            z.writestr(n, b)
    return str(dst)


def test_a_zip_whose_pickles_would_run_code_loads_without_running_it(zips, tmp_path):
    marker = tmp_path / "pwned"
    payload = base64.b64encode(pickle.dumps(_Marker(marker))).decode()

    def plant(data):
        for key in ("lr_schedule", "clip_range", "_last_obs", "policy_kwargs", "observation_space"):
            data[key][":serialized:"] = payload

    bot = agents.load(_rewrite_data(zips["PPO"], tmp_path / "evil.zip", plant))
    assert bot.game == "yacht" and not marker.exists()


def _set(key, value):
    def f(data):
        data[key] = value
    return f


def _set_in(key, field, value):
    def f(data):
        data[key][field] = value
    return f


@pytest.mark.parametrize("label, change, message", [
    ("custom policy class", _set_in("policy_class", "__module__", "evil.policies"), "its policy class is"),
    ("dict observations", _set_in("observation_space", ":type:", "<class 'gymnasium.spaces.dict.Dict'>"),
     "observation space"),
    ("no game of these sizes", _set_in("action_space", "n", "45"), "fit no madang game"),
    ("box actions", _set_in("action_space", ":type:", "<class 'gymnasium.spaces.box.Box'>"), "action space"),
    ("custom extractor", _set("policy_kwargs", {"features_extractor_class": "<class 'evil.Extractor'>"}),
     "features extractor"),
    ("unknown activation", _set("policy_kwargs", {"activation_fn": "<class 'evil.Act'>"}), "activation_fn"),
    ("huge network", _set("policy_kwargs", {"net_arch": [8192] * 16}), "parameters"),
    ("wrong net_arch", _set("policy_kwargs", {"net_arch": [32]}), "do not match"),
    ("bad net_arch", _set("policy_kwargs", {"net_arch": "big"}), "net_arch"),
    ("unknown kwarg", _set("policy_kwargs", {"lstm": True}), "not supported"),
])
def test_bad_sb3_zips_are_value_errors_naming_the_file(zips, tmp_path, label, change, message):
    path = _rewrite_data(zips["PPO"], tmp_path / "bad.zip", change)
    with pytest.raises(ValueError, match=message) as e:
        agents.load(path)
    assert path in str(e.value)


def test_sb3_files_that_are_not_models(zips, tmp_path):
    (tmp_path / "junk.zip").write_bytes(b"not a zip")
    with pytest.raises(ValueError, match="not a zip file"):
        agents.load(str(tmp_path / "junk.zip"))
    with zipfile.ZipFile(tmp_path / "empty.zip", "w") as z:
        z.writestr("readme.txt", "hello")
    with pytest.raises(ValueError, match="not a stable-baselines3 zip"):
        agents.load(str(tmp_path / "empty.zip"))
    with pytest.raises(ValueError, match="no such stable-baselines3 zip file"):
        agents.load(str(tmp_path / "missing.zip"))
    # NaN weights
    with zipfile.ZipFile(zips["PPO"]) as z:
        files = {n: z.read(n) for n in z.namelist()}
    import io

    state = torch.load(io.BytesIO(files["policy.pth"]), weights_only=True)
    next(iter(state.values())).fill_(float("nan"))
    buf = io.BytesIO()
    torch.save(state, buf)
    files["policy.pth"] = buf.getvalue()
    with zipfile.ZipFile(tmp_path / "nan.zip", "w") as z:
        for n, b in files.items():
            z.writestr(n, b)
    with pytest.raises(ValueError, match="NaN"):
        agents.load(str(tmp_path / "nan.zip"))


# ------------------------------------------------------------------------------------ ONNX
@pytest.mark.requires("onnx")
def test_madang_export_loads_with_its_json_and_plays_like_the_torch_policy(tmp_path):
    from agents.policy_files import load_policy

    path = tiny.onnx_export(tmp_path, "rainbow_dice")
    bot = agents.load(str(path))
    assert (bot.game, bot.kind, kind_of(str(path))) == ("rainbow_dice", "onnx", "onnx")
    assert [f.suffix for f in bot.files] == [".onnx", ".json"]
    torch_bot = load_policy(tmp_path / "src" / "tiny")
    obs, mask = _positions("rainbow_dice")
    np.testing.assert_array_equal(bot.act(obs, mask, None), torch_bot.act(obs, mask, None))
    with pytest.raises(ValueError, match="exported for rainbow_dice"):
        agents.load(str(path), game="yacht")


@pytest.mark.parametrize("with_mask, batch_one", [(False, False), (True, False), (False, True)])
@pytest.mark.requires("onnx")
def test_a_foreign_onnx_model_plays_its_best_legal_score(tmp_path, with_mask, batch_one):
    path = tiny.onnx_foreign(tmp_path, "gostop", with_mask, batch_one)
    bot = agents.load(str(path))  # no .json: the widths tell the game
    assert bot.game == "gostop" and bot.files == (path,)
    obs, mask = _positions("gostop")
    want = np.where(mask, tiny.foreign_scores("gostop", obs), -np.inf).argmax(axis=1)
    np.testing.assert_array_equal(bot.act(obs, mask, None), want)
    assert agents.load(str(path), game="gostop").game == "gostop"


@pytest.mark.requires("onnx")
def test_onnx_mistakes_name_the_file(tmp_path, monkeypatch):
    path = tiny.onnx_foreign(tmp_path, "yacht")
    with pytest.raises(ValueError, match="observation size is 156, but rainbow_dice has 335"):
        agents.load(str(path), game="rainbow_dice")
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        agents.load(str(path), game="chess")
    with pytest.raises(ValueError, match="takes no option 'depth'"):
        agents.load(str(path), depth=3)
    (tmp_path / "junk.onnx").write_bytes(b"\x00garbage")
    with pytest.raises(ValueError, match="junk.onnx: onnxruntime cannot load it"):
        agents.load(str(tmp_path / "junk.onnx"))
    with pytest.raises(ValueError, match="no such ONNX file"):
        agents.load(str(tmp_path / "missing.onnx"))
    monkeypatch.setitem(sys.modules, "onnxruntime", None)
    with pytest.raises(ValueError, match=r'pip install "madang\[onnx\]"'):
        agents.load(str(path))


# ---------------------------------------------------------------------------------- Python
MODULE = """
import numpy as np
import agents

def batched(obs, mask, rng):
    return np.argmax(mask, axis=1)          # the lowest legal action of every row

def one(obs, mask, rng):
    return int(np.flatnonzero(mask)[-1])    # the highest legal action of one observation

def broken(obs, mask, rng):
    return "no"

class Lowest(agents.BaseBot):
    name, game = "lowest", "yacht"

    def __init__(self, offset=0):
        self.offset = offset

    def act(self, obs, mask, rng):
        return np.argmax(mask, axis=1) + self.offset

class Plain:                                 # a bot by its act method alone, any game
    def act(self, obs, mask, rng):
        return np.argmax(mask, axis=1)

instance = Plain()

def make(kind="batched"):
    return batched if kind == "batched" else Lowest()

NOT_A_BOT = 3

class NoAct:
    pass
"""


@pytest.fixture
def module(tmp_path, monkeypatch):
    name = tiny.python_module(tmp_path, "my_policies_mod", MODULE)
    monkeypatch.chdir(tmp_path)  # imported from the current directory
    yield name
    sys.modules.pop(name, None)


def test_every_form_of_a_python_policy_plays(module):
    obs, mask = _positions("yacht")
    lowest, highest = mask.argmax(axis=1), mask.shape[1] - 1 - mask[:, ::-1].argmax(axis=1)
    rng = np.random.default_rng(0)
    for ref, options, want in [("batched", {}, lowest), ("one", {}, highest), ("one", {"batched": False}, highest),
                               ("Lowest", {}, lowest), ("instance", {}, lowest), ("make", {}, lowest),
                               ("make", {"kind": "bot"}, lowest)]:
        bot = agents.load(f"{module}:{ref}", **options)
        assert bot.name == f"{module}:{ref}" and kind_of(bot.name) == "python"
        np.testing.assert_array_equal(bot.act(obs, mask, rng), want, err_msg=ref)
        np.testing.assert_array_equal(bot.act(obs[:1], mask[:1], rng), want[:1], err_msg=ref)
    assert agents.load(f"{module}:one").act(obs[:1], mask[:1], rng).tolist() == highest[:1].tolist()
    assert agents.load(f"{module}:Lowest").game == "yacht" and agents.load(f"{module}:instance").game is None
    r = evaluate_solo("yacht", agents.load(f"{module}:one"), 8)
    assert r.games == 8


def test_python_policy_mistakes_say_what_was_tried(module):
    obs, mask = _positions("yacht", 4)
    cases = [
        ("nosuchmodule_xyz:f", {}, "no module named 'nosuchmodule_xyz'"),
        (f"{module}:missing", {}, "has no attribute 'missing'"),
        (f"{module}:NOT_A_BOT", {}, "is a int: not a bot"),
        (f"{module}:NoAct", {}, "has no act"),
        (f"{module}:instance", {"offset": 1}, "takes no options"),
        (f"{module}:Lowest", {"depth": 1}, "calling the bot class with options"),
        (f"{module}:batched", {"batched": "yes"}, "batched must be true or false"),
        (f"{module}:Lowest", {"batched": True}, "batched applies to policy functions"),
    ]
    for spec, options, message in cases:
        with pytest.raises(ValueError, match=message):
            agents.load(spec, **options)
    with pytest.raises(ValueError, match="on the batch it gave .* on one observation"):
        agents.load(f"{module}:broken").act(obs, mask, None)
    with pytest.raises(ValueError, match="plays yacht, not gostop"):
        agents.load(f"{module}:Lowest").check_game("gostop")


def test_a_module_that_fails_to_import_is_a_value_error(tmp_path, monkeypatch):
    tiny.python_module(tmp_path, "broken_policy_mod", "raise RuntimeError('oops')\n")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ValueError, match="importing broken_policy_mod failed: RuntimeError: oops"):
        agents.load("broken_policy_mod:f")


def test_an_rllib_checkpoint_without_ray_says_how_to_install_it(tmp_path, monkeypatch):
    (tmp_path / "ckpt").mkdir()
    (tmp_path / "ckpt" / "rllib_checkpoint.json").write_text("{}")
    assert kind_of(str(tmp_path / "ckpt")) == "rllib"
    monkeypatch.setitem(sys.modules, "ray", None)  # as in the main venv: ray lives in its own
    with pytest.raises(ValueError, match=r'RLlib checkpoints need ray: pip install "madang\[rllib\]"'):
        agents.load(str(tmp_path / "ckpt"))


def test_unknown_names_list_every_kind_of_policy():
    with pytest.raises(ValueError, match="a .onnx file, an SB3 .zip, an RLlib checkpoint, or module:attr"):
        agents.load("no-such-bot")
    assert kind_of("yacht-greedy") is None and kind_of("some/dir/policy") is None


# ------------------------------------------------------------------------------- in the env
def test_an_sb3_zip_is_an_opponent_inside_the_env(zips):
    import gymnasium as gym

    import envs  # noqa: F401

    env = gym.make("madang/Yacht-v0", num_players=2, opponents=str(zips["MaskablePPO"]))
    obs, info = env.reset(seed=0)
    rng, done = np.random.default_rng(0), False
    while not done:
        obs, _, done, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
    assert len(info["scores"]) == 2
