"""A fourth game plays in every front-end through its descriptor alone: Pig (``tests/games/pig``),
registered with ``envs.register_game`` and nothing else, in ``madang demo``, terminal play,
the web server's API and ``madang bots`` / ``madang eval``."""

from __future__ import annotations

import dataclasses
import io
import json
import re

import pytest
from rich.console import Console
from starlette.testclient import TestClient

import envs
from frontends.cli import main
from frontends.demo import play_demo
from frontends.play.terminal import run
from frontends.play.web import create_app
from tests.games.pig import Pig

pytestmark = [pytest.mark.usefixtures("pig"), pytest.mark.integration]

OWN_BOT = "tests.games.pig.bot:hold_at_8"


def console():
    return Console(file=io.StringIO(), width=200, color_system=None)


def test_the_demo_seats_the_descriptors_bots_and_shows_its_demo_text(capsys):
    con = console()
    result = play_demo("pig", seed=1, console=con)
    text = con.file.getvalue()
    assert f"pig: {OWN_BOT} vs random (seed 1)" in text
    assert "T 1" in text and "roll -> turn total" in text and "Winner:" in text
    assert sorted(result) == ["scores"] and max(result["scores"]) >= 30
    assert main(["demo", "--game", "pig", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert OWN_BOT in out and "Winner:" in out


def test_the_demo_names_the_default_bots_in_a_mistake(capsys):
    assert main(["demo", "--game", "pig", "--bots", "random"]) == 2
    err = capsys.readouterr().err
    assert "pig takes 2..4 bots" in err and f"--bots {OWN_BOT} random" in err


def test_a_whole_game_in_the_terminal_against_the_default_bot():
    con = console()
    said = []

    def read(prompt):  # a bad word first, then roll to a turn total of 6 and hold
        if not said:
            said.append("fly")
            return "fly"
        turn_total = int(re.findall(r"to move: turn total (\d+)", con.file.getvalue())[-1])
        return "hold" if turn_total >= 6 else "roll"

    assert run("pig", None, 0, 3, console=con, read=read) == 0
    text = con.file.getvalue()
    assert "not a move:" in text and f"{OWN_BOT} (seat 1):" in text
    assert "Pig: result" in text and "score" in text and "winner" in text
    assert f"madang play pig --bot {OWN_BOT} --seat 0 --seed 3" in " ".join(text.split())


def test_madang_play_pig_reads_moves_from_stdin(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("help\nroll\nhold\nquit\n"))
    assert main(["play", "pig", "--bot", "random", "--seed", "4"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "type a move: roll" in out and "leaving the game" in out


def test_a_whole_game_through_the_web_api():
    client = TestClient(create_app(max_games=3), base_url="http://127.0.0.1:8000")
    catalog = {g["name"]: g for g in client.get("/api/games").json()["games"]}
    pig = catalog["pig"]
    assert (pig["title"], pig["summary"], pig["score_label"], pig["board"]) == (
        "Pig", "one die, push your luck", "score", None)
    assert (pig["min_seats"], pig["max_seats"], pig["default_bot"]) == (2, 4, OWN_BOT)
    assert [b["name"] for b in pig["bots"]] == ["random", OWN_BOT]
    assert pig["reference"] == {"moves": ["roll", "hold"]}
    r = client.post("/api/games", json={"game": "pig", "seat": 1, "seed": 5})
    assert r.status_code == 201, r.text
    g = r.json()
    assert [p["name"] for p in g["players"]] == [OWN_BOT, "you"] and g["log"][0]["player"] == OWN_BOT
    moves = 0
    while not g["over"]:
        assert g["your_turn"] and g["text"].startswith("Pig to 30:") and g["hint"] in ("roll", "roll or hold")
        pick = g["moves"][-1] if g["view"]["turn_total"] >= 10 else g["moves"][0]
        g = client.post(f"/api/games/{g['id']}/moves", json={"action": pick["id"]}).json()
        moves += 1
    assert moves and g["hint"] is None and g["moves"] == []
    assert g["result"] == {"scores": [s["points"] for s in g["standings"]]}
    assert any(s["winner"] for s in g["standings"]) and g["seed"] == "5"
    assert client.delete(f"/api/games/{g['id']}").status_code == 204
    assert client.get(f"/api/games/{g['id']}").status_code == 404


def test_madang_bots_and_eval(capsys):
    assert main(["bots", "pig"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[:2] for line in lines] == [["random", "any"], [OWN_BOT, "pig"]]
    assert main(["eval", "pig", "--bots", OWN_BOT, "random", "--games", "20", "--json"]) == 0
    t = json.loads(capsys.readouterr().out)
    assert t["game"] == "pig" and {b["bot"] for b in t["bots"]} == {OWN_BOT, "random"}
    assert main(["eval", "pig", "--bots", OWN_BOT, "--games", "2"]) == 2
    assert f"e.g. madang eval pig --bots {OWN_BOT} random" in capsys.readouterr().err


class SoloPig(Pig):
    """Pig under another name, for a descriptor that names a solitaire optimum."""

    name, env_id = "solo_pig", "madang/SoloPig-v0"


def pig_optimum() -> float:
    """A made-up optimum (the descriptor's ``solo_optimum`` of :class:`SoloPig`)."""
    return 12.5


def test_solve_serves_every_game_whose_descriptor_names_an_optimum(capsys, pig):
    from training.evaluate import solo_optimum

    envs.register_game(dataclasses.replace(pig, game_cls=SoloPig, solo_optimum=f"{__name__}:pig_optimum"))
    try:
        assert solo_optimum("solo_pig") == 12.5 and solo_optimum("pig") is None
        assert main(["solve", "solo_pig"]) == 0
        captured = capsys.readouterr()
        assert captured.out.splitlines() == ["12.5000"] and "solitaire Pig score" in captured.err
        assert main(["solve", "solo_pig", "--target", "10"]) == 2
        assert "Yacht only" in capsys.readouterr().err
    finally:
        envs.unregister_game("solo_pig")
    with pytest.raises(SystemExit):
        main(["solve", "pig"])  # no optimum: not a choice
