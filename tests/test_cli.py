"""The madang command line."""

import json

from training.cli import main


def test_solve_prints_the_optimum(capsys):
    assert main(["solve", "yacht"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "169.7739"


def test_bench_json(capsys):
    assert main(["bench", "yacht", "--batch", "1", "8", "--seconds", "0.05", "--json"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["batch"] for r in rows] == [1, 8]
    for r in rows:
        assert r["game"] == "yacht" and r["steps_per_s"] > 0 and r["loop_steps_per_s"] > 0


def test_bench_covers_gostop(capsys):
    assert main(["bench", "gostop", "--batch", "1", "64", "--seconds", "0.05", "--json"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["game"] for r in rows] == ["gostop", "gostop"] and all(r["steps_per_s"] > 0 for r in rows)


def test_bench_table(capsys):
    assert main(["bench", "yacht", "--batch", "4", "--seconds", "0.02"]) == 0
    out = capsys.readouterr().out
    assert "batched steps/s" in out and "yacht" in out


def test_demo_plays_a_full_game(capsys):
    assert main(["demo", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "Final sheets" in out and "Winner" in out and out.count("R12") == 3
