"""RLlib and Ray over madang (``madang[rllib]``, in its own venv: ray pins gymnasium 1.2.2).

Run by tests/test_rllib_venv.py inside ``.venv-rllib``, or directly there:
``.venv-rllib/bin/python -m pytest tests/rllib``.  Ray starts once, locally, with 2 CPUs.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import ray
import torch
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.env.multi_agent_env_runner import MultiAgentEnvRunner
from ray.rllib.env.single_agent_env_runner import SingleAgentEnvRunner
from ray.tune.registry import register_env

from envs.adapters import rllib
from envs.adapters.gym_env import MadangEnv
from envs.adapters.vector_env import MadangVectorEnv
from envs.registration import GAMES, game_class

torch.set_num_threads(1)
ROOT = Path(__file__).resolve().parents[2]
SMALL = {"fcnet_hiddens": [32]}

pytestmark = [pytest.mark.slow, pytest.mark.integration]


@pytest.fixture(scope="module", autouse=True)
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    rllib.register()
    yield
    ray.shutdown()


# --------------------------------------------------------------- counting what the env applied
class CountingVectorEnv(MadangVectorEnv):
    """Counts the learner actions the env applied (slots not waiting for their autoreset)."""

    applied = 0

    def _step(self, state, seats, ended, forfeited, finished, *rest):
        live = int((~ended).sum())
        out = super()._step(state, seats, ended, forfeited, finished, *rest)
        type(self).applied += live
        return out


class CountingEnv(MadangEnv):
    applied = 0

    def step(self, action):
        out = super().step(action)
        type(self).applied += 1
        return out


class CountingMultiAgentEnv(rllib.MadangMultiAgentEnv):
    applied: dict = {}

    def step(self, action_dict):
        agent = self.aec.agent_selection
        out = super().step(action_dict)
        type(self).applied[agent] = type(self).applied.get(agent, 0) + 1
        return out


class UncheckedObservations(rllib.RLlibVectorObservations):
    """The adapter's wrapper without its autoreset check, to show what the check prevents."""

    @staticmethod
    def _check_autoreset_mode(env) -> None:
        pass


def _counting_vector(cfg):
    return UncheckedObservations(CountingVectorEnv(
        game_class("gostop"), num_envs=cfg["num_envs"], autoreset_mode=cfg["autoreset_mode"],
        observation_mode="dict", illegal_action="lose"))


register_env("counting-vector", _counting_vector)
register_env("counting-single", lambda cfg: rllib.RLlibObservations(
    CountingEnv(game_class("yacht"), observation_mode="dict", illegal_action="lose")))
register_env("counting-multi", lambda cfg: CountingMultiAgentEnv("gostop", cfg))


def _runner_config(env, env_config=None, num_envs=8, vector=False):
    return (PPOConfig().environment(env, env_config=env_config or {})
            .env_runners(num_env_runners=0, num_envs_per_env_runner=num_envs,
                         gym_env_vectorize_mode="vector_entry_point" if vector else "sync")
            .rl_module(rl_module_spec=rllib.masking_module(SMALL)))


def _signed_payout(info: dict, seat=None) -> float:
    """The learner's (or ``seat``'s) signed payout from a finished Go-Stop game's info."""
    seat = info["learner_seat"] if seat is None else seat
    if info["winner"] == -1:
        return 0.0
    return float(info["payout"]) * (1 if info["winner"] == seat else -1)


def _sample_vector(autoreset_mode: str, rounds: int = 3):
    """(transitions RLlib recorded, actions the env applied, finished games and their returns
    against their payouts) over a few ``sample`` calls on madang's vector env."""
    runner = SingleAgentEnvRunner(config=_runner_config(
        "counting-vector", {"autoreset_mode": autoreset_mode}, vector=True))
    CountingVectorEnv.applied = 0
    recorded, finished = 0, []
    for _ in range(rounds):
        for ep in runner.sample(num_timesteps=400, explore=True):
            recorded += len(ep)
            if ep.is_terminated and ep.t_started == 0:  # a whole game (not the end of a cut one)
                finished.append((float(np.sum(ep.get_rewards())), _signed_payout(ep.get_infos(-1))))
    runner.stop()
    return recorded, CountingVectorEnv.applied, finished


def test_rllib_keeps_every_transition_of_the_vector_env_in_next_step_mode():
    recorded, applied, finished = _sample_vector("next_step")
    assert recorded == applied > 1000
    assert len(finished) > 50 and all(ret == payout for ret, payout in finished)


def test_the_transition_count_catches_the_same_step_bug():
    """Same-step autoreset loses the first transition of every later game: the count must see it
    (the adapter refuses same-step, below; this test goes around that check)."""
    recorded, applied, finished = _sample_vector("same_step")
    assert recorded < applied and len(finished) > 50
    assert any(ret != payout for ret, payout in finished)  # terminal infos of the wrong game


@pytest.mark.parametrize("mode", ["same_step", "disabled"])
def test_the_adapter_refuses_autoreset_modes_rllib_cannot_sample(mode):
    with pytest.raises(ValueError, match="autoreset_mode='next_step'"):
        rllib.make_env("gostop", {"num_envs": 4, "autoreset_mode": mode})
    venv = MadangVectorEnv(game_class("yacht"), num_envs=2, autoreset_mode=mode, observation_mode="dict")
    with pytest.raises(ValueError, match=f"got {mode!r}"):
        rllib.RLlibVectorObservations(venv)
    config = _runner_config(rllib.env_name("yacht"), {"autoreset_mode": mode}, num_envs=4, vector=True)
    with pytest.raises(Exception, match="autoreset_mode='next_step'"):
        SingleAgentEnvRunner(config=config)


def test_rllib_keeps_every_transition_of_single_envs():
    runner = SingleAgentEnvRunner(config=_runner_config("counting-single", num_envs=4))
    CountingEnv.applied = 0
    recorded = games = 0
    for _ in range(2):
        for ep in runner.sample(num_timesteps=300, explore=True):
            recorded += len(ep)
            if ep.is_terminated and ep.t_started == 0:  # a whole game: every point counted
                games += 1
                assert np.sum(ep.get_rewards()) == ep.get_infos(-1)["scores"][0]
    runner.stop()
    assert recorded == CountingEnv.applied and games > 5


def test_rllib_keeps_every_transition_of_every_agent():
    config = (_runner_config("counting-multi", num_envs=1)
              .multi_agent(policies={"p"}, policy_mapping_fn=lambda aid, *a, **k: "p")
              .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={"p": rllib.masking_module(SMALL)})))
    runner = MultiAgentEnvRunner(config=config)
    CountingMultiAgentEnv.applied = {}  # not the random step of RLlib's env check
    recorded: dict = {}
    episodes = runner.sample(num_episodes=12, explore=True)
    for ep in episodes:
        assert ep.is_done
        returns = {aid: float(np.sum(e.get_rewards())) for aid, e in ep.agent_episodes.items()}
        assert returns["player_0"] == -returns["player_1"]  # zero-sum, nothing lost
        info = ep.agent_episodes["player_0"].get_infos(-1)
        assert returns["player_0"] == _signed_payout(info, seat=0)
        for aid, e in ep.agent_episodes.items():
            recorded[aid] = recorded.get(aid, 0) + len(e)
    runner.stop()
    assert recorded == CountingMultiAgentEnv.applied and len(episodes) == 12


# ------------------------------------------------------------------------- training smoke tests
def _train(mode, game, **kw):
    from training.rllib_example import ppo_config, train

    config = ppo_config(game, mode, num_envs=8, train_batch=256, minibatch=128, epochs=1, **kw)
    return train(config, 2, report=lambda line: None)


def test_ppo_trains_single_agent_with_masks():
    """(Remote env runners, which build the env by its registered name: the cluster test below.)"""
    results = _train("single", "gostop")
    assert all(r["num_episodes"] > 0 and r["madang/forfeits"] == 0 for r in results)


def test_ppo_trains_on_the_batched_vector_env():
    results = _train("vector", "yacht")
    assert all(r["num_episodes"] > 0 and r["madang/forfeits"] == 0 for r in results)
    assert results[-1]["episode_return_mean"] > 0


@pytest.mark.parametrize("policies", ["shared", "separate"])
def test_ppo_self_play_on_gostop(policies):
    results = _train("multi", "gostop", policies=policies)
    assert all(r["num_episodes"] > 0 and r["madang/forfeits"] == 0 for r in results)
    modules = set(results[-1].get("module_episode_returns_mean", {}))
    assert modules == ({"shared"} if policies == "shared" else {"player_0", "player_1"})


# ------------------------------------------------------------------ checkpoints as madang bots
def test_an_rllib_checkpoint_plays_in_eval_and_benchmark(tmp_path, capsys):
    """A new-API-stack checkpoint loads by its path: agents.load, madang eval, madang benchmark."""
    import agents
    from agents.loaders import kind_of
    from frontends.cli import main
    from training.rllib_example import ppo_config

    ckpt = tmp_path / "ckpt"
    config = ppo_config("gostop", "single", num_envs=4, train_batch=128, minibatch=64, epochs=1)
    algo = config.rl_module(rl_module_spec=rllib.masking_module(SMALL)).build_algo()
    try:
        algo.train()
        algo.save(str(ckpt))
        module = algo.get_module()
    finally:
        algo.stop()
    bot = agents.load(str(ckpt))
    assert (bot.game, bot.kind, kind_of(str(ckpt))) == ("gostop", "rllib", "rllib")
    game = game_class("gostop")()
    state = game.init(np.arange(16))
    obs, mask = game.observe(state), game.legal_mask(state).astype(bool)
    with torch.no_grad():
        logits = module.forward_inference({"obs": {"observations": torch.from_numpy(obs),
                                                   "action_mask": torch.from_numpy(mask.astype(np.float32))}})
    want = np.where(mask, logits["action_dist_inputs"].numpy(), -np.inf).argmax(axis=1)
    np.testing.assert_array_equal(bot.act(obs, mask, None), want)
    one = ckpt / "learner_group" / "learner" / "rl_module" / "default_policy"
    np.testing.assert_array_equal(agents.load(str(one)).act(obs, mask, None), want)
    with pytest.raises(ValueError, match="no module 'other'"):
        agents.load(str(ckpt), module_id="other")
    with pytest.raises(ValueError, match="its observation size is 445, but yacht has 156"):
        agents.load(str(ckpt), game="yacht")
    assert main(["eval", "gostop", "--bots", str(ckpt), "gostop-greedy", "--games", "4", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["bots"][0]["bot"] in (str(ckpt), "gostop-greedy")
    assert main(["benchmark", "gostop", str(ckpt), "--games", "2", "--json"]) == 0
    (result,) = json.loads(capsys.readouterr().out)
    assert result["suite"] == "gostop-v1" and result["policy"]["kind"] == "rllib" and result["policy"]["sha256"]


def test_every_game_is_registered_by_name():
    names = rllib.register()
    for game in GAMES:
        assert rllib.env_name(game) in names and rllib.env_name(game, multi_agent=True) in names
        single = rllib.make_env(game)
        obs, _ = single.reset(seed=0)
        assert single.observation_space.contains(obs) and obs["action_mask"].dtype == np.float32
        vec = rllib.make_env(game, {"num_envs": 3})
        assert vec.unwrapped.autoreset_mode.name == "NEXT_STEP"
        assert vec.observation_space.contains(vec.reset(seed=0)[0])


# ------------------------------------------------------------------------------ madang eval --ray
def _eval_json(argv, capsys) -> dict:
    from frontends.cli import main

    assert main(argv + ["--json"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("argv", [
    ["eval", "gostop", "--bots", "gostop-greedy", "random", "--games", "40", "--shard-games", "16"],
    ["eval", "yacht", "--bots", "random", "yacht-greedy", "--games", "30", "--shard-games", "8", "--unpaired"],
    ["eval", "yacht", "--bots", "random", "--games", "50", "--shard-games", "16"],
])
def test_eval_on_ray_gives_the_local_results(argv, capsys):
    assert _eval_json(argv + ["--ray"], capsys) == _eval_json(argv, capsys)


def test_ray_runner_reports_every_shard():
    from training.evaluate import RayRunner, play_match

    seen = []
    values = play_match("rainbow_dice", ["random"], 20, seed=3, shard_games=6, runner=RayRunner(),
                        progress=lambda done, total: seen.append((done, total)))
    assert seen[-1] == (4, 4) and [d for d, _ in seen] == [1, 2, 3, 4]
    np.testing.assert_array_equal(values, play_match("rainbow_dice", ["random"], 20, seed=3, shard_games=6))


def _madang(*argv, timeout=300):
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    env.pop("RAY_ADDRESS", None)
    return subprocess.run([sys.executable, "-m", "frontends.cli", *argv], cwd=ROOT, capture_output=True,
                          text=True, env=env, timeout=timeout)


def test_eval_starts_a_local_ray_of_its_own():
    """In a fresh process, --ray alone starts a local Ray that lives until the evaluation ends."""
    argv = ["eval", "yacht", "--bots", "random", "--games", "12", "--shard-games", "4", "--json"]
    on_ray, local = _madang(*argv, "--ray"), _madang(*argv)
    assert on_ray.returncode == 0 and local.returncode == 0, on_ray.stderr[-3000:]
    assert json.loads(on_ray.stdout) == json.loads(local.stdout)
    assert "SIGTERM handler is not set" not in on_ray.stderr


def test_eval_on_an_address_where_nothing_answers_gives_up_after_the_timeout():
    # 127.0.0.2: Ray rewrites 127.0.0.1 to this machine's own address; another loopback one stays put.
    import time

    start = time.monotonic()
    r = _madang("eval", "yacht", "--bots", "random", "--games", "4", "--ray", "127.0.0.2:1", "--ray-timeout", "3")
    assert r.returncode == 2 and time.monotonic() - start < 120, r.stderr[-3000:]
    assert "madang: error: --ray 127.0.0.2:1: the Ray cluster at 127.0.0.2:1 did not answer within 3 s" in r.stderr
    assert "Traceback" not in r.stderr


@pytest.mark.parametrize("signal_name,status", [("SIGINT", 130), ("SIGTERM", 15)])
def test_ctrl_c_and_sigterm_stop_a_connection_that_hangs(signal_name, status):
    import signal
    import time

    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    env.pop("RAY_ADDRESS", None)
    p = subprocess.Popen([sys.executable, "-m", "frontends.cli", "eval", "yacht", "--bots", "random", "--games", "4",
                          "--ray", "127.0.0.2:1", "--ray-timeout", "600"], cwd=ROOT, env=env,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        seen = ""
        while "Connecting to existing Ray cluster" not in seen:  # Ray's own line, as it starts to wait
            line = p.stderr.readline()
            assert line, f"madang ended before connecting: {seen[-3000:]}"
            seen += line
        time.sleep(1)
        p.send_signal(getattr(signal, signal_name))
        sent = time.monotonic()
        assert p.wait(timeout=60) == status and time.monotonic() - sent < 30
        if signal_name == "SIGINT":
            assert "madang: interrupted" in p.stderr.read()
    finally:
        p.kill()
        p.wait()


# ------------------------------------------------------------- the documented cluster commands
@pytest.fixture
def ray_cluster():
    """A one-node Ray cluster started as the docs say (``ray start --head``); yields its address.

    Its temp dir is its own, so ``ray.init()`` elsewhere does not find it; stopping the
    ``--block`` process stops the cluster's processes (``ray stop`` would stop every Ray here).
    """
    import shutil
    import socket
    import tempfile
    import time

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    address = f"127.0.0.1:{port}"
    ray_cli = str(Path(sys.executable).parent / "ray")
    temp_dir = tempfile.mkdtemp(prefix="rc", dir="/tmp")  # short: Ray's socket paths have a length limit
    head = subprocess.Popen([ray_cli, "start", "--head", "--block", "--port", str(port), "--num-cpus", "2",
                             "--include-dashboard=false", "--disable-usage-stats", "--temp-dir", temp_dir],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 180
        while subprocess.run([ray_cli, "status", "--address", address], capture_output=True).returncode:
            assert head.poll() is None and time.monotonic() < deadline, "ray start --head did not come up"
            time.sleep(2)
        yield address
    finally:
        head.terminate()
        head.wait(timeout=120)
        shutil.rmtree(temp_dir, ignore_errors=True)


def test_the_documented_commands_run_on_a_ray_cluster(ray_cluster):
    """The example trains with a remote env runner of the cluster, and eval --ray ADDRESS there
    gives the local results (the cluster's workers import nothing of madang themselves)."""
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    env.pop("RAY_ADDRESS", None)
    r = subprocess.run([sys.executable, "-m", "training.rllib_example", "--mode", "vector", "--game", "yacht",
                        "--address", ray_cluster, "--env-runners", "1", "--envs", "16", "--iterations", "1"],
                       cwd=ROOT, capture_output=True, text=True, env=env, timeout=900)
    assert r.returncode == 0, r.stderr[-3000:]
    line = next(x for x in r.stdout.splitlines() if x.startswith("iteration 1:"))
    assert line.endswith("forfeits 0") and " 0 games" not in line, line
    argv = ["eval", "gostop", "--bots", "gostop-greedy", "random", "--games", "24", "--shard-games", "8", "--json"]
    remote, local = (subprocess.run([sys.executable, "-m", "frontends.cli", *argv, *extra], cwd=ROOT,
                                    capture_output=True, text=True, env=env, timeout=600)
                     for extra in (["--ray", ray_cluster], []))
    assert remote.returncode == 0 and local.returncode == 0, remote.stderr[-3000:] + local.stderr[-3000:]
    assert json.loads(remote.stdout) == json.loads(local.stdout)


# ---------------------------------------------------------------------- the docs' RLlib snippets
def _rllib_blocks():
    from tests.test_docs import blocks

    return blocks("rllib")


@pytest.mark.parametrize("code", _rllib_blocks())
def test_rllib_doc_block_runs(code, tmp_path):
    r = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True,
                       env={**os.environ, "OMP_NUM_THREADS": "1"}, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
