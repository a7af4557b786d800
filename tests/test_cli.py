"""The madang command line."""

import json
from pathlib import Path

import pytest

from frontends.cli import main

ORACLES = Path(__file__).with_name("oracles")  # the numpy oracles, given to `madang bench --oracle`

pytestmark = [pytest.mark.slow, pytest.mark.integration]


def test_solve_prints_the_optimum(capsys):
    assert main(["solve", "yacht"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "169.7739"


def test_solve_yacht_targets(capsys):
    assert main(["solve", "yacht", "--target", "150", "200"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "169.7739" and out[1].startswith("yacht-solver final total: mean 169.7739, sd 35.29")
    rows = {int(r.split("|")[1]): [float(x) for x in r.split("|")[2:4]] for r in out[-2:]}
    assert rows[200][0] < rows[200][1] and rows[150][0] < rows[150][1]  # the threshold policy does better
    assert main(["solve", "yacht", "--target", "400"]) == 2
    assert "a final total is 0..303" in capsys.readouterr().err


def test_bench_json(capsys):
    assert main(["bench", "yacht", "--batch", "1", "8", "--seconds", "0.05", "--json", "--oracle", str(ORACLES)]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r.get("batch") for r in rows] == [1, 8, None]
    for r in rows[:2]:
        assert r["game"] == "yacht" and r["steps_per_s"] > 0 and r["loop_steps_per_s"] > 0
        assert r["oracle_steps_per_s"] > 0 and r["oracle_ratio"] > 0  # the numpy oracle, side by side
        assert r["checked_steps_per_s"] > 0 and r["limit_steps_per_s"] > 0  # check=True and the limit kernel
        assert r["limit_share"] == r["steps_per_s"] / r["limit_steps_per_s"]
        assert r["checked_limit_share"] == r["checked_steps_per_s"] / r["limit_steps_per_s"]
    envs = rows[2]
    assert envs["game"] == "yacht" and envs["single_env"]["steps"] > 0 and envs["aec"]["steps_per_s"] > 0
    assert 0 < envs["single_env"]["env_us_per_step"] <= envs["single_env"]["us_per_step"]


def test_bench_measures_no_oracle_unless_given_one(capsys, tmp_path):
    assert main(["bench", "yacht", "--batch", "2", "--seconds", "0.02", "--json", "--no-envs"]) == 0
    (row,) = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert row["steps_per_s"] > 0 and row["oracle_steps_per_s"] is None and row["oracle_ratio"] is None
    # a directory without this game's oracle: the game is measured without one
    assert main(["bench", "yacht", "--batch", "2", "--seconds", "0.02", "--json", "--no-envs",
                 "--oracle", str(tmp_path)]) == 0
    assert json.loads(capsys.readouterr().out)["oracle_steps_per_s"] is None


def test_bench_covers_gostop(capsys):
    assert main(["bench", "gostop", "--batch", "1", "64", "--seconds", "0.05", "--json", "--no-envs"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["game"] for r in rows] == ["gostop", "gostop"] and all(r["steps_per_s"] > 0 for r in rows)


def test_bench_table(capsys):
    assert main(["bench", "yacht", "--batch", "4", "--seconds", "0.02"]) == 0
    out = capsys.readouterr().out
    assert "core steps/s" in out and "numpy oracle" in out and "yacht" in out
    assert "limit" in out and "checked %" in out
    assert "single env (gymnasium.make)" in out and "AEC loop" in out


def test_demo_plays_a_full_game(capsys):
    assert main(["demo", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "Final sheets" in out and "Winner" in out and out.count("R12") == 3


# ----------------------------------------------------------- user mistakes (issue 9)
import pytest  # noqa: E402

TINY = ["--num-envs", "32", "--eval-games", "20", "--set", "num_steps=16", "minibatch_size=256",
        "hidden=[16,16]", "eval_every=1", "checkpoint_every=1"]


def _fails(capsys, argv, *words):
    """``madang argv`` is a user mistake: exit 2, ``madang: error:`` and a hint, no traceback."""
    assert main(argv) == 2
    captured = capsys.readouterr()
    err = captured.err
    assert err.startswith("madang: error: ") and "\nhint: " in err and "Traceback" not in err, err
    for w in words:
        assert w in err, (w, err)
    return err


def test_eval_mistakes_are_reported_not_raised(capsys, tmp_path):
    _fails(capsys, ["eval", "gostop", "--bots", "yacht-greedy", "random"], "yacht-greedy", "madang bots gostop")
    _fails(capsys, ["eval", "gostop", "--bots", "nope", "random"], "unknown bot 'nope'")
    _fails(capsys, ["eval", "gostop", "--bots", "gostop-greedy"], "no solo mode")
    _fails(capsys, ["eval", "gostop", "--bots", "gostop-greedy", "random", "--solo"], "no solo mode")
    _fails(capsys, ["eval", "rainbow_dice", "--bots", "random", "--regret"], "--regret")
    _fails(capsys, ["eval", "yacht", "--bots", "random", "--games", "0"], "--games")
    _fails(capsys, ["eval", "yacht", "--bots", "random", "random"], "twice")
    _fails(capsys, ["eval", "yacht", "--bots", "random", "--shard-games", "0"], "--shard-games")
    _fails(capsys, ["eval", "yacht", "--bots", "random", "--rules", "colour=red"], "colour")
    _fails(capsys, ["eval", "yacht", "--bots", "random", "--rules", "num_players=3"], "num_players")
    _fails(capsys, ["eval", "rainbow_dice", "--bots", "random", "--rules", "copies_per_hand=0"], "copies_per_hand")
    _fails(capsys, ["eval", "yacht", "--bots", "random", "--bot-option", "depth=3"], "depth")
    _fails(capsys, ["eval", "yacht", "--bots", "random", "--bot-option", "depth"], "KEY=VALUE")
    _fails(capsys, ["eval", "yacht", "--bots", str(tmp_path / "missing" / "policy")], "not found")
    _fails(capsys, ["eval", "yacht", "--bots", "random", "yacht-greedy", "--plot", str(tmp_path / "no" / "t.png")],
           "no such directory")


def test_train_mistakes_are_reported_not_raised(capsys, tmp_path):
    run = str(tmp_path / "run")
    base = ["train", "yacht", "--run-dir", run]
    _fails(capsys, base + ["--resume"], "no checkpoint")
    _fails(capsys, base + ["--config", "yacht_2x256", "--set", "minibatch_size=1000"], "minibatch_size", "131072")
    _fails(capsys, ["train", "rainbow_dice", "--config", "yacht_2x256"], "config for yacht")
    _fails(capsys, base + ["--config", "nonesuch"], "nonesuch", "yacht_2x256")
    bad_json = tmp_path / "bad.json"
    bad_json.write_text("{oops")
    _fails(capsys, base + ["--config", str(bad_json)], "not a JSON config")
    bad_json.write_text('{"hidden": 5, "minibatch_size": 7}')
    _fails(capsys, base + ["--config", str(bad_json)], "hidden")
    _fails(capsys, base + ["--config", str(bad_json), "--set", "hidden=[8]"], "minibatch_size")
    _fails(capsys, base + ["--set", "no_equals_sign"], "KEY=VALUE")
    _fails(capsys, base + ["--set", "colour=red"], "colour")
    _fails(capsys, base + ["--set", "num_envs=many"], "num_envs")
    _fails(capsys, base + ["--set", 'game_config={"num_players": 9}'], "num_players")
    _fails(capsys, base + ["--set", 'game_config={"colour": 1}'], "colour")
    _fails(capsys, ["train", "gostop", "--run-dir", run, "--set", 'opponents=["yacht-greedy"]', 'opponent_pool={}'], "yacht-greedy")
    _fails(capsys, base + ["--set", 'opponents=["random"]'], "one-player")
    _fails(capsys, base + ["--minutes", "0"], "--minutes")
    _fails(capsys, ["train", "gostop", "--run-dir", run, "--set", "learner_seat=5"], "learner_seat")
    _fails(capsys, base + ["--device", "quantum"], "not a torch device")
    _fails(capsys, base + ["--set", "checkpoint_every=0"], "checkpoint_every")
    _fails(capsys, base + ["--eval-games", "0"], "eval_games")
    _fails(capsys, base + ["--seed", "-5"], "seed")
    import torch

    if not torch.cuda.is_available():
        _fails(capsys, base + ["--device", "cuda"], "CUDA")
    assert main(base + ["--total-steps", "512"] + TINY) == 0
    capsys.readouterr()
    _fails(capsys, base + ["--total-steps", "512"] + TINY, "checkpoint.pt exists", "--resume")


def test_demo_ship_and_bots_mistakes(capsys, tmp_path):
    _fails(capsys, ["demo", "--game", "gostop", "--bots", "random"], "gostop takes 2..2 bots")
    _fails(capsys, ["demo", "--game", "rainbow_dice", "--bots", "yacht-greedy"], "yacht-greedy")
    _fails(capsys, ["ship", str(tmp_path), "mine"], "not found")
    _fails(capsys, ["ship", str(tmp_path), "random"], "random")
    _fails(capsys, ["ship", str(tmp_path), "mine", "--games", "-1"], "--games")


def _digest(path):
    import hashlib

    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_ship_writes_to_the_user_directory_and_never_overwrites_a_bot(capsys, tmp_path, monkeypatch):
    import agents
    from agents.policy_files import WEIGHTS_DIR, save_policy
    from agents.torch_policy import ActorCritic
    from envs.yacht import NUM_ACTIONS, OBS_SIZE

    home = tmp_path / "home"
    monkeypatch.setenv("MADANG_HOME", str(home))
    run = tmp_path / "run"
    save_policy(ActorCritic(OBS_SIZE, NUM_ACTIONS, (8,)), run / "policy", "yacht")
    package = {p: _digest(p) for p in WEIGHTS_DIR.iterdir()}
    ship = ["ship", str(run)]
    for name in ("yacht-ppo", "gostop-ppo", "random", "yacht-solver"):  # the package's own bots
        _fails(capsys, ship + [name, "--games", "3"], "comes with madang", "new name")
        _fails(capsys, ship + [name, "--games", "3", "--force"], "comes with madang")
    for name in ("Mine", "../mine", "mine.v2", "_mine", "", "x" * 65, "a b"):
        _fails(capsys, ship + [name, "--games", "3"], "not a bot name")
    for games in ("0", "-3"):
        _fails(capsys, ship + ["mine", "--games", games], "--games must be positive")
    assert not home.exists() and {p: _digest(p) for p in WEIGHTS_DIR.iterdir()} == package

    assert main(ship + ["mine", "--games", "3"]) == 0
    assert "shipped mine" in capsys.readouterr().out
    bots = home / "bots"
    assert sorted(p.name for p in bots.iterdir()) == ["mine.json", "mine.pt"]
    assert agents.load("mine").metadata["shipped_evaluation"]["games"] == 3
    assert main(["bots", "yacht"]) == 0
    assert any(line.startswith("mine ") and str(bots) in line for line in capsys.readouterr().out.splitlines())
    _fails(capsys, ship + ["mine", "--games", "4"], "already shipped", "--force")
    assert agents.load("mine").metadata["shipped_evaluation"]["games"] == 3
    assert main(ship + ["mine", "--games", "4", "--force"]) == 0
    assert agents.load("mine").metadata["shipped_evaluation"]["games"] == 4
    assert {p: _digest(p) for p in WEIGHTS_DIR.iterdir()} == package

    # Files a user put under a package bot's name never shadow it: the package's bots come first.
    for suffix in (".pt", ".json"):
        (bots / f"yacht-ppo{suffix}").write_bytes((bots / f"mine{suffix}").read_bytes())
    assert agents.load("yacht-ppo").metadata["hidden"] == [512, 512, 512, 512]
    assert agents.available().count("yacht-ppo") == 1


def test_ship_from_a_damaged_checkpoint_is_a_user_mistake(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("MADANG_HOME", str(tmp_path / "home"))
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "checkpoint.pt").write_bytes(b"PK\x03\x04 truncated")
    _fails(capsys, ["ship", str(tmp_path / "run"), "mine", "--checkpoint", "--games", "2"],
           str(tmp_path / "run" / "checkpoint.pt"), "not a readable madang training checkpoint")
    assert sorted(p.name for p in (tmp_path / "run").iterdir()) == ["checkpoint.pt"]


def test_ship_into_a_directory_it_cannot_write_is_a_user_mistake(capsys, tmp_path, monkeypatch):
    from agents.policy_files import save_policy
    from agents.torch_policy import ActorCritic
    from envs.yacht import NUM_ACTIONS, OBS_SIZE

    save_policy(ActorCritic(OBS_SIZE, NUM_ACTIONS, (8,)), tmp_path / "run" / "policy", "yacht")
    (tmp_path / "file").write_text("not a directory")
    monkeypatch.setenv("MADANG_HOME", str(tmp_path / "file"))
    _fails(capsys, ["ship", str(tmp_path / "run"), "mine", "--games", "2"], "cannot create", "MADANG_HOME")
    assert (tmp_path / "file").read_text() == "not a directory"


def test_the_user_directory_is_the_platforms_data_directory_without_madang_home(monkeypatch, tmp_path):
    import platformdirs

    from agents.registry import user_bots_dir

    monkeypatch.delenv("MADANG_HOME")
    assert user_bots_dir() == Path(platformdirs.user_data_dir("madang", appauthor=False)) / "bots"
    monkeypatch.setenv("MADANG_HOME", str(tmp_path))
    assert user_bots_dir() == tmp_path / "bots"


def test_a_real_bug_keeps_its_traceback(monkeypatch):
    import training.evaluate

    def broken(*args, **kwargs):
        raise ValueError("a bug deep inside the evaluation")

    monkeypatch.setattr(training.evaluate, "round_robin", broken)
    with pytest.raises(ValueError, match="a bug deep inside"):
        main(["eval", "yacht", "--bots", "random", "yacht-greedy", "--games", "2"])


def test_version_and_bots(capsys):
    with pytest.raises(SystemExit) as e:
        main(["--version"])
    assert e.value.code == 0 and capsys.readouterr().out.startswith("madang 0.")
    assert main(["bots", "gostop"]) == 0
    out = capsys.readouterr().out
    assert "gostop-greedy" in out and "random" in out and "yacht-solver" not in out
    assert main(["bots"]) == 0
    lines = capsys.readouterr().out.splitlines()
    import agents

    assert len(lines) == len(agents.catalog()) and any(line.startswith("yacht-ppo ") for line in lines)
    assert any("any" in line for line in lines if line.startswith("random"))


@pytest.mark.parametrize("game,bots", [("rainbow_dice", ["rainbow-ppo", "rainbow-greedy"]),
                                       ("gostop", ["gostop-search", "gostop-ppo"])])
def test_demo_plays_every_game(capsys, game, bots):
    assert main(["demo", "--game", game, "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "T 1" in out and all(bot in out for bot in bots) and ("Winner" in out or "nagari" in out)
    if game == "gostop":  # the descriptor's demo_turn_end: the cards each turn captured
        assert all("| captured " in line for line in out.splitlines() if line.startswith("T"))


def test_solitaire_rainbow_demo_ends_a_turn_each_round(capsys):
    """The mover never changes in solitaire: the descriptor's demo_turn_over ends each turn,
    and its demo_text shows the dice at the start and after each move that changes them."""
    assert main(["demo", "--game", "rainbow_dice", "--bots", "rainbow-simple", "--seed", "1"]) == 0
    turns = [line for line in capsys.readouterr().out.splitlines() if line.startswith("T")]
    assert len(turns) == 12 and [t.split(": ")[1] for t in turns] == [f"round {r}" for r in range(1, 13)]
    assert all(" -> R" in t for t in turns if "free reroll" in t)


def test_train_rounds_to_whole_rollouts_and_logs_plain_lines(capsys, tmp_path):
    run = tmp_path / "run"
    assert main(["train", "yacht", "--run-dir", str(run), "--total-steps", "600"] + TINY) == 0
    captured = capsys.readouterr()
    assert "total_steps 600 rounded up to 1,024" in captured.err
    lines = [line for line in captured.out.splitlines() if line.startswith("update ")]
    assert [line.split()[:6] for line in lines] == [
        ["update", "1", "step", "512", "of", "1,024"], ["update", "2", "step", "1,024", "of", "1,024"]]
    assert "━" not in captured.out  # no progress bar in a log
    from agents.policy_files import load_policy

    assert load_policy(run / "policy").metadata["global_step"] == 1024
    # The run's policy plays in an evaluation without shipping it, by its run directory.
    assert main(["eval", "yacht", "--bots", str(run), "yacht-greedy", "--games", "3", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert {b["bot"] for b in result["bots"]} == {str(run), "yacht-greedy"}
    assert result["matches"][0]["games"] == 6 and result["paired"] is True


def test_eval_json_solo_and_gostop_matches(capsys):
    assert main(["eval", "rainbow_dice", "--bots", "rainbow-greedy", "--games", "4", "--json",
                 "--rules", "copies_per_hand=null", "--bot-option", "rainbow-greedy:token_value=6"]) == 0
    (row,) = json.loads(capsys.readouterr().out)
    assert row["bot"] == "rainbow-greedy" and row["games"] == 4 and row["mean"] > 0
    assert main(["eval", "gostop", "--bots", "gostop-greedy", "random", "--games", "30"]) == 0
    out = capsys.readouterr().out
    assert "| bot | Elo |" in out and "| A - B per game |" in out and "| gostop-greedy | random | 6" in out


def test_eval_ray_without_ray_is_a_user_mistake(capsys):
    import importlib.util

    if importlib.util.find_spec("ray") is not None:
        pytest.skip("ray is installed here (tests/rllib runs eval --ray)")
    _fails(capsys, ["eval", "yacht", "--bots", "random", "--games", "4", "--ray"], "needs ray", "madang[rllib]")


def test_eval_progress_bar_follows_the_shards():
    """On a terminal, eval shows a bar over the shards; without one, no callback at all."""
    import io

    from rich.console import Console

    from training import evaluate as ev
    from frontends.cli.common import shard_progress

    out = io.StringIO()
    with shard_progress(Console(file=out, force_terminal=True, width=80)) as progress:
        ev.evaluate_solo("yacht", "random", 10, shard_games=4, progress=progress)
    assert "shards" in out.getvalue() and "3/3" in out.getvalue()
    with shard_progress(Console(file=io.StringIO(), force_terminal=False)) as progress:
        assert progress is None


# ----------------------------------------------------- user mistakes (issue 20)
def test_serve_mistakes_are_reported_before_listening(capsys):
    import socket

    _fails(capsys, ["serve", "--port", "99999"], "--port must be in 1..65535, got 99999")
    _fails(capsys, ["serve", "--port", "-1"], "--port must be in 1..65535, got -1")
    _fails(capsys, ["serve", "--host", "nonsense.invalid"], "'nonsense.invalid'")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        _fails(capsys, ["serve", "--port", str(port)], f"cannot listen on 127.0.0.1:{port}")


def test_a_free_address_passes_the_serve_check():
    import socket

    from frontends.play.web import check_address

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    check_address("127.0.0.1", port)


def test_bench_mistakes_are_reported_by_bench(capsys):
    for seconds in ("0", "-1", "nan", "inf"):
        err = _fails(capsys, ["bench", "yacht", "--seconds", seconds], "--seconds must be a positive number")
    for batch in (["0"], ["4", "-2"], ["100000"]):
        err = _fails(capsys, ["bench", "yacht", "--batch", *batch, "--seconds", "0.01"], "--batch sizes")
        assert "usage:" not in err and "e.g. --batch" in err
    err = _fails(capsys, ["bench", "yacht", "--oracle", "no/such/dir"], "is not a directory")
    assert "tests/oracles" in err


def test_eval_plot_of_solo_play_draws_the_score_distribution(capsys, tmp_path):
    png = tmp_path / "solo.png"
    assert main(["eval", "yacht", "--bots", "yacht-greedy", "--games", "30", "--plot", str(png)]) == 0
    assert f"wrote {png}" in capsys.readouterr().out and png.read_bytes()[:4] == b"\x89PNG"
    png.unlink()
    assert main(["eval", "yacht", "--bots", "yacht-greedy", "random", "--solo", "--games", "20", "--json",
                 "--plot", str(png)]) == 0
    captured = capsys.readouterr()
    assert [r["bot"] for r in json.loads(captured.out)] == ["yacht-greedy", "random"]
    assert f"wrote {png}" in captured.err and png.read_bytes()[:4] == b"\x89PNG"


def test_eval_plot_paths_are_checked_before_playing(capsys, tmp_path):
    (tmp_path / "d.png").mkdir()
    for plot, words in ((tmp_path / "t.txt", "not an image"), (tmp_path / "d.png", "is a directory"),
                        (tmp_path / "no" / "t.png", "no such directory"), (tmp_path / ("x" * 300 + ".png"), "too long")):
        for bots in (["yacht-greedy"], ["yacht-greedy", "random"]):
            _fails(capsys, ["eval", "yacht", "--bots", *bots, "--games", "2", "--plot", str(plot)], words)
    assert [p.name for p in tmp_path.iterdir()] == ["d.png"] and not any((tmp_path / "d.png").iterdir())


def test_hints_fit_the_mistake(capsys):
    for item in ("nonsense", "rainbow-greedy:nonsense", "=3"):
        err = _fails(capsys, ["eval", "rainbow_dice", "--bots", "rainbow-greedy", "--bot-option", item],
                     "--bot-option expects [BOT:]KEY=VALUE", "hint: e.g. --bot-option rainbow-greedy:token_value=8")
        assert "num_players" not in err and "--rules" not in err
    err = _fails(capsys, ["eval", "rainbow_dice", "--bots", "rainbow-greedy", "--bot-option", "depth=3"],
                 "takes no option 'depth'", "token_value", "hint: --bot-option [BOT:]KEY=VALUE")
    assert "madang bots" not in err
    _fails(capsys, ["eval", "yacht", "--bots", "random", "--bot-option", "rainbow-greedy:token_value=3"],
           "'rainbow-greedy' is not one of --bots")
    err = _fails(capsys, ["eval", "yacht", "--bots", "random", "--rules", "colour=red"], "hint: --rules takes",
                 "reward")
    assert "num_players" not in err.split("hint:")[1]
    _fails(capsys, ["eval", "yacht", "--bots", "random", "--rules", "nonsense"], "hint: e.g. --rules")
    _fails(capsys, ["train", "yacht", "--set", "nonsense"], "hint: e.g. --set num_envs=1024")


FAKE_RAY = '''"""A stand-in for ray whose connection never answers, as ray.init on an address where nothing listens."""
import sys
import threading


def is_initialized():
    return False


def init(address=None, **kwargs):
    print(f"fake ray: connecting to {address}", file=sys.stderr, flush=True)
    threading.Event().wait()
'''


def _with_fake_ray(tmp_path):
    (tmp_path / "ray").mkdir()
    (tmp_path / "ray" / "__init__.py").write_text(FAKE_RAY)
    import os

    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")])}


def test_eval_ray_gives_up_on_a_cluster_that_never_answers(tmp_path):
    """Without Ray installed: the wait for ray.init is bounded by --ray-timeout (the real one runs in
    tests/rllib, with .venv-rllib)."""
    import subprocess
    import sys
    import time

    start = time.monotonic()
    r = subprocess.run([sys.executable, "-m", "frontends.cli", "eval", "yacht", "--bots", "random", "--games", "4",
                        "--ray", "127.0.0.2:1", "--ray-timeout", "1.5"], env=_with_fake_ray(tmp_path),
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and time.monotonic() - start < 60, r.stderr
    assert "fake ray: connecting to 127.0.0.2:1" in r.stderr and "Traceback" not in r.stderr
    assert "madang: error: --ray 127.0.0.2:1: the Ray cluster at 127.0.0.2:1 did not answer within 1.5 s" in r.stderr
    assert "hint: " in r.stderr and "--ray-timeout" in r.stderr


def test_ctrl_c_stops_the_wait_for_ray(tmp_path):
    import signal
    import subprocess
    import sys
    import time

    p = subprocess.Popen([sys.executable, "-m", "frontends.cli", "eval", "yacht", "--bots", "random", "--games", "4",
                          "--ray", "127.0.0.2:1", "--ray-timeout", "600"], env=_with_fake_ray(tmp_path),
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        assert "fake ray: connecting" in p.stderr.readline()
        time.sleep(0.5)
        p.send_signal(signal.SIGINT)
        assert p.wait(timeout=30) == 130
        err = p.stderr.read()
        assert "madang: interrupted" in err and "Traceback" not in err
    finally:
        p.kill()
        p.wait()


def test_ray_timeout_mistakes(capsys):
    _fails(capsys, ["eval", "yacht", "--bots", "random", "--ray-timeout", "5"], "needs --ray")
    for bad in ("0", "-1", "nan"):
        _fails(capsys, ["eval", "yacht", "--bots", "random", "--ray", "auto", "--ray-timeout", bad],
               "--ray-timeout must be a positive number")
