"""``madang benchmark``: versioned suites, results that reproduce and record what makes them comparable,
paired comparisons, and any policy (an SB3 zip, an ONNX file, module:function) end to end."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

import agents
import tests.tiny_policies as tiny
from envs.registration import GAMES
from training.benchmark import SUITES, compare, get_suite, play, read_result, suites_for, summarize
from training.benchmark.identity import file_sha256, policy_identity, rules_hash, seeds_hash
from training.benchmark.stats import elo_on_ladder, mean_ci
from frontends.cli import main
from training.evaluate import seat_swapped_match

pytestmark = pytest.mark.slow


# ---------------------------------------------------------------------------------- suites
def test_every_game_has_suites_with_versioned_ids():
    assert list(SUITES) == ["yacht-solo-v1", "yacht-2p-v1", "rainbow-solo-v1", "rainbow-2p-v1", "gostop-v1"]
    for game in GAMES:
        assert suites_for(game)
    for s in SUITES.values():
        assert re.fullmatch(r"[a-z0-9-]+-v\d+", s.id) and s.games > 0 and s.target > 0
        assert s.solo == (s.players == 1) and (s.solo or s.win_target)
    with pytest.raises(ValueError, match="unknown suite 'yacht-v9'"):
        get_suite("yacht-v9")


@pytest.mark.parametrize("suite_id", list(SUITES))
def test_the_rules_are_those_each_suite_was_defined_on(suite_id):
    """Changing a game's rules or observations changes this hash: then the suite needs a new version."""
    s = SUITES[suite_id]
    assert rules_hash(s.game, s.players, s.game_config) == s.rules_hash


def test_ladders_have_frozen_ratings_for_every_rung():
    for s in SUITES.values():
        if not s.solo:
            assert set(s.ladder_elo) == set(s.ladder) and abs(np.mean(list(s.ladder_elo.values())) - 1500) < 0.1
            assert all(agents.load(r).game in (None, s.game) for r in s.ladder)


def test_seeds_hash_covers_every_seed_and_the_shard_size():
    s = SUITES["gostop-v1"]
    from dataclasses import replace

    assert seeds_hash(s) == seeds_hash(replace(s))
    for change in ({"seed": s.seed + 1}, {"games": s.games + 1}, {"shard_games": 64}):
        assert seeds_hash(replace(s, **change)) != seeds_hash(s)


# ----------------------------------------------------------------------------- statistics
def test_the_rung_statistics_are_those_of_the_seat_swapped_match():
    suite = SUITES["gostop-v1"]
    r = play(suite, agents.load("gostop-greedy"), "gostop-greedy", limit=12)
    m = seat_swapped_match("gostop", "gostop-greedy", "random", 12, seed=suite.rung_seed(0))
    rung = next(g for g in r["summary"]["rungs"] if g["rung"] == "random")
    assert rung["points"] == pytest.approx(m.mean_a) and rung["margin"] == pytest.approx(m.margin)
    # A deal pair holds more than two games when a deal ended before any decision (chongtong,
    # dealt again): the CI is then the ratio estimator's, close to the match's.
    games = np.asarray(r["values"]["random"]["games"])
    assert games.sum() == m.games and (games > 2).any()
    assert rung["points_ci95"] == pytest.approx(m.ci95_a, rel=0.1)
    two = np.asarray(r["values"]["random"]["points"])[games == 2]
    assert mean_ci(two, np.full(two.size, 2))[1] == pytest.approx(1.959964 * two.std(ddof=1) * np.sqrt(two.size)
                                                              / (2 * two.size))
    assert (rung["wins"], rung["losses"], rung["draws"]) == (m.wins, m.losses, m.draws)
    assert rung["decided_win_rate"] == pytest.approx(m.decided_win_rate)
    assert [g["rung"] for g in r["summary"]["rungs"]] == ["random", "gostop-ppo-v1", "gostop-search-v1"]  # not itself
    assert r["ladder_match"] is True


def test_every_ladder_rung_is_the_pinned_one():
    """A rung whose files change (code or weights) fails here: its suite needs a new version."""
    for suite in SUITES.values():
        if suite.solo:
            continue
        assert set(suite.ladder_sha256) == set(suite.ladder), suite.id
        for rung in suite.ladder:
            assert policy_identity(rung, agents.load(rung))["sha256"] == suite.ladder_sha256[rung], (suite.id, rung)


def test_a_copy_of_a_rung_does_not_play_it():
    """gostop-ppo ships the files of the rung gostop-ppo-v1 (until it is retrained): no self-play row."""
    suite = SUITES["gostop-v1"]
    r = play(suite, agents.load("gostop-ppo"), "gostop-ppo", limit=1)
    same = policy_identity("gostop-ppo", agents.load("gostop-ppo"))["sha256"] == suite.ladder_sha256["gostop-ppo-v1"]
    assert ("gostop-ppo-v1" in r["values"]) != same


def test_mean_ci_and_elo_on_a_ladder():
    mean, ci = mean_ci([1, 2, 3, 4], [1, 1, 1, 1])
    assert mean == 2.5 and ci == pytest.approx(1.959964 * np.std([1, 2, 3, 4], ddof=1) / 2)
    assert elo_on_ladder([(50, 100)], [1500.0]) == pytest.approx(1500, abs=0.01)
    assert elo_on_ladder([(76, 100)], [1500.0]) == pytest.approx(1500 + 400 * np.log10(76.5 / 24.5), abs=5)
    low, high = elo_on_ladder([(0, 100)], [1500.0]), elo_on_ladder([(100, 100)], [1500.0])
    assert 500 < low < 1500 < high < 2500  # finite at the extremes


# -------------------------------------------------------------------------------- results
def test_a_result_records_what_makes_it_comparable_and_repeats_to_the_digit():
    suite = SUITES["yacht-solo-v1"]
    a = play(suite, agents.load("random"), "random", limit=64)  # random draws from the seeded generator
    b = play(suite, agents.load("random"), "random", limit=64)
    assert a["values"] == b["values"] and a["summary"] == b["summary"]
    assert a["suite"] == "yacht-solo-v1" and a["madang_version"] and a["rules_match"]
    assert a["rules_hash"] == suite.rules_hash and a["seeds_hash"] == seeds_hash(suite)
    assert a["policy"]["spec"] == "random" and a["policy"]["sha256"] == file_sha256(agents.base.__file__.replace(
        "base.py", "random_bot.py"))
    assert not a["complete"] and a["games_per_unit"] == 64 and len(a["values"]["scores"]) == 64
    assert summarize(suite, json.loads(json.dumps(a))) == a["summary"]  # from the raw values alone
    assert a["summary"]["fraction_of_optimum"] == pytest.approx(a["summary"]["mean"] / 169.7738890526381)


def test_a_shipped_policy_is_identified_by_its_weight_files():
    from agents.policy_files import WEIGHTS_DIR
    from training.benchmark.identity import files_sha256

    r = play(SUITES["yacht-solo-v1"], agents.load("yacht-ppo"), "yacht-ppo", limit=4)
    assert r["policy"]["sha256"] == files_sha256([WEIGHTS_DIR / "yacht-ppo.pt", WEIGHTS_DIR / "yacht-ppo.json"])
    assert r["policy"]["files"] == ["yacht-ppo.pt", "yacht-ppo.json"]


def test_compare_pairs_two_results_on_the_same_seeds():
    suite = SUITES["yacht-2p-v1"]
    greedy = play(suite, agents.load("yacht-greedy"), "yacht-greedy", limit=40)
    solver = play(suite, agents.load("yacht-solver"), "yacht-solver", limit=40)
    same = compare(greedy, greedy)
    assert same["points"]["difference"] == 0 and same["wins"]["difference"] == 0
    c = compare(solver, greedy)
    assert set(c["rungs"]) == {"random", "yacht-ppo"}  # the rungs both played
    assert c["points"]["difference"] > 0 and c["points"]["p"] < 0.05
    d = np.concatenate([np.subtract(solver["values"][r]["points"], greedy["values"][r]["points"])
                        for r in c["rungs"]])
    assert c["points"]["difference"] == pytest.approx(d.sum() / (2 * d.size))
    with pytest.raises(ValueError, match="different suites"):
        compare(solver, play(SUITES["yacht-solo-v1"], agents.load("yacht-greedy"), "g", limit=4))
    moved = json.loads(json.dumps(greedy))
    moved["seeds_hash"] = "0" * 64
    with pytest.raises(ValueError, match="different seeds"):
        compare(solver, moved)


# ------------------------------------------------------------------- any policy, end to end
POLICY_MODULE = """
import numpy as np

def highest_score(obs, mask, rng):          # Yacht: score at once, in the best open category
    return 44 - 1 - np.asarray(mask, bool)[:, ::-1].argmax(axis=1)
"""


def _benchmark(capsys, *args) -> tuple[int, str, str]:
    code = main(["benchmark", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.requires("onnx")
def test_sb3_onnx_and_python_policies_run_through_eval_and_benchmark(tmp_path, monkeypatch, capsys):
    zip_path = tiny.sb3_zip(tmp_path, "MaskablePPO", "yacht")
    onnx_path = tiny.onnx_foreign(tmp_path, "yacht")
    tiny.python_module(tmp_path, "bench_policy_mod", POLICY_MODULE)
    monkeypatch.chdir(tmp_path)
    policies = [str(zip_path), str(onnx_path), "bench_policy_mod:highest_score"]
    assert main(["eval", "yacht", "--bots", *policies, "--solo", "--games", "16", "--json"]) == 0
    solo = json.loads(capsys.readouterr().out)
    assert [r["bot"] for r in solo] == policies and all(r["games"] == 16 for r in solo)
    assert main(["eval", "yacht", "--bots", *policies, "yacht-greedy", "--games", "4", "--json"]) == 0
    assert len(json.loads(capsys.readouterr().out)["bots"]) == 4  # a seat-swapped round robin
    for policy in policies:
        code, out, err = _benchmark(capsys, "yacht", policy, "--games", "32", "--out", "results")
        assert code == 0, err
        assert "yacht-solo-v1" in out and "yacht-2p-v1" in out and "only the first 32" in out
    files = sorted(p.name for p in (tmp_path / "results").iterdir())
    assert len(files) == 6 and "yacht-solo-v1--bench_policy_mod_highest_score.json" in files
    a = read_result(tmp_path / "results" / f"yacht-2p-v1--{zip_path.name}.json")
    assert a["policy"]["sha256"] == file_sha256(zip_path) and a["policy"]["kind"] == "sb3-maskableppo"
    code, out, _ = _benchmark(capsys, "--compare", f"results/yacht-2p-v1--{zip_path.name}.json",
                              "results/yacht-2p-v1--bench_policy_mod_highest_score.json")
    assert code == 0 and "A - B, points per game" in out and "over 128 paired units" in out  # 4 rungs x 32 pairs


def test_benchmark_json_for_one_suite(capsys):
    code, out, _ = _benchmark(capsys, "gostop", "gostop-greedy", "--suite", "gostop-v1", "--games", "4", "--json")
    (r,) = json.loads(out)
    assert code == 0 and r["suite"] == "gostop-v1" and r["summary"]["elo"] is not None
    assert set(r["values"]) == {"random", "gostop-ppo-v1", "gostop-search-v1"}


def test_an_sb3_baseline_made_by_its_command_is_benchmarked_like_any_policy(tmp_path, capsys):
    from training import sb3_baseline

    out = tmp_path / "baseline.zip"
    sb3_baseline.main(["gostop", "--steps", "512", "--n-envs", "4", "--out", str(out)])
    assert "wrote" in capsys.readouterr().out
    bot = agents.load(str(out))
    assert (bot.game, bot.algorithm) == ("gostop", "MaskablePPO")
    code, text, err = _benchmark(capsys, "gostop", str(out), "--games", "2")
    assert code == 0 and "gostop-v1" in text, err


@pytest.mark.parametrize("args, message", [
    ([], "benchmark needs a GAME and a POLICY"),
    (["yacht"], "benchmark needs a GAME and a POLICY"),
    (["yacht", "yacht-greedy", "--suite", "gostop-v1"], "suite gostop-v1 plays gostop, not yacht"),
    (["yacht", "yacht-greedy", "--suite", "nope-v1"], "unknown suite 'nope-v1'"),
    (["yacht", "yacht-greedy", "--games", "0"], "--games must be positive"),
    (["yacht", "missing.onnx"], "missing.onnx: no such ONNX file"),
    (["yacht", "gostop-greedy"], "plays gostop, not yacht"),
    (["yacht", "nosuch_module_q:f"], "no module named 'nosuch_module_q'"),
    (["yacht", "yacht-greedy", "--bot-option", "depth=2"], "takes no option 'depth'"),
    (["yacht", "yacht-greedy", "--out", "/dev/null/x"], "--out /dev/null/x: not a directory"),
    (["--compare", "a.json"], None),
])
def test_benchmark_mistakes_are_errors_with_a_hint(capsys, args, message):
    if message is None:  # argparse: --compare takes two files
        with pytest.raises(SystemExit) as e:
            main(["benchmark", *args])
        assert e.value.code == 2
        return
    code, _, err = _benchmark(capsys, *args)
    assert code == 2 and err.startswith("madang: error: ") and message in err and "hint: " in err, err


def test_compare_mistakes(tmp_path, capsys):
    (tmp_path / "junk.json").write_text("{}")
    code, _, err = _benchmark(capsys, "--compare", str(tmp_path / "junk.json"), str(tmp_path / "junk.json"))
    assert code == 2 and "not a madang benchmark result" in err
    good = play(SUITES["gostop-v1"], agents.load("gostop-greedy"), "gostop-greedy", limit=2)
    for damage in (lambda r: r["values"]["random"].update(points=[1]), lambda r: r.update(suite="chess-v1"),
                   lambda r: r["values"].update(random="x"), lambda r: r.update(seeds_hash=None)):
        bad = json.loads(json.dumps(good))
        damage(bad)
        (tmp_path / "bad.json").write_text(json.dumps(bad))
        code, _, err = _benchmark(capsys, "--compare", str(tmp_path / "bad.json"), str(tmp_path / "bad.json"))
        assert code == 2 and "a damaged benchmark result" in err, err
    code, _, err = _benchmark(capsys, "yacht", "random", "--compare", "a.json", "b.json")
    assert code == 2 and "--compare takes two result files" in err


# ------------------------------------------------------------------------- play and serve
def test_play_and_serve_seat_a_policy_given_by_reference(tmp_path, monkeypatch):
    from starlette.testclient import TestClient

    from frontends.play.session import Session, user_bots
    from frontends.play.web import create_app

    tiny.python_module(tmp_path, "serve_policy_mod", POLICY_MODULE)
    monkeypatch.chdir(tmp_path)
    spec = "serve_policy_mod:highest_score"
    extra = user_bots([spec, "yacht-greedy"])
    assert list(extra) == [spec]  # catalog names load as before
    session = Session("yacht", [spec], seat=1, seed=3, extra_bots=extra)
    assert session.players[0]["name"] == spec and session.to_move == 1
    with pytest.raises(ValueError, match="unknown bot"):
        Session("yacht", [spec], seed=3)  # not offered: refused
    client = TestClient(create_app(extra_bots=extra), base_url="http://127.0.0.1:8000")  # a Host it answers to
    games = {g["name"]: g for g in client.get("/api/games").json()["games"]}
    assert spec in [b["name"] for b in games["gostop"]["bots"]]  # a function plays any game
    r = client.post("/api/games", json={"game": "yacht", "bots": [spec]})
    assert r.status_code == 201 and r.json()["players"][1]["name"] == spec
    r = client.post("/api/games", json={"game": "yacht", "bots": ["serve_policy_mod:other"]})
    assert r.status_code == 400 and "unknown bot" in r.json()["error"]  # clients never load code


def test_madang_play_takes_a_policy_path(tmp_path, monkeypatch, capsys):
    import io

    from rich.console import Console

    from frontends.play.terminal import run

    tiny.python_module(tmp_path, "play_policy_mod", POLICY_MODULE)
    monkeypatch.chdir(tmp_path)
    out = io.StringIO()
    assert run("yacht", ["play_policy_mod:highest_score"], 1, 1, console=Console(file=out, width=100),
               read=lambda prompt: "quit") == 0
    assert "play_policy_mod:highest_score" in out.getvalue()  # it moved first, as seat 0
    assert run("yacht", ["missing.zip"], 0, 1, console=Console(file=io.StringIO())) == 2
    assert "no such stable-baselines3 zip file" in capsys.readouterr().err


# ------------------------------------------------------------------------------ leaderboard
def _leaderboard():
    from training.benchmark import leaderboard as lb

    return lb, lb.read_results(lb.RESULTS)


def test_the_leaderboard_page_is_generated_from_the_result_files():
    """docs/benchmarks.md is exactly what the leaderboard command writes from benchmarks/results/leaderboard."""
    lb, results = _leaderboard()
    assert list(results) == list(SUITES)
    for sid, rs in results.items():
        suite = SUITES[sid]
        names = [spec for spec in rs]
        assert set(agents.available(suite.game)) <= set(names)  # every shipped bot, random included
        assert any("sb3-maskableppo" in n for n in names), sid  # and the baseline
        assert all(r["complete"] and r["seeds_hash"] == seeds_hash(suite) for r in rs.values())
        assert all(r["summary"]["target_met"] for r in rs.values()), sid
    assert lb.check_ladders(results) == []  # the frozen ratings are the rungs' own results
    assert lb.render(results, lb.read_timings(lb.RESULTS)) == lb.PAGE.read_text()


@pytest.mark.parametrize("suite_id, spec, rung", [
    ("yacht-solo-v1", "yacht-greedy", None), ("yacht-solo-v1", "yacht-solver", None),
    ("gostop-v1", "gostop-greedy", "gostop-ppo-v1"), ("rainbow-2p-v1", "rainbow-ppo", "rainbow-simple"),
])
def test_the_leaderboard_figures_reproduce_to_the_digit(suite_id, spec, rung):
    """The first games of a suite, played again with bots that draw no random numbers, are the
    committed results' first games, to the digit."""
    _, results = _leaderboard()
    suite = SUITES[suite_id]
    again = play(suite, agents.load(spec), spec, limit=16)
    stored = results[suite_id][spec]["values"]
    if rung is None:
        assert again["values"]["scores"] == stored["scores"][:16]
    else:
        assert {k: v[:16] for k, v in stored[rung].items()} == again["values"][rung]
    assert again["rules_hash"] == results[suite_id][spec]["rules_hash"]
    if again["policy"]["kind"] == "policy network":  # the same weight files (a code bot's source may
        assert again["policy"]["sha256"] == results[suite_id][spec]["policy"]["sha256"]  # be edited)
