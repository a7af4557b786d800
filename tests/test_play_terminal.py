"""``madang play``: the terminal game driven by scripted input, bad input included."""

from __future__ import annotations

import io
import re
import subprocess
import sys

import pytest
from rich.console import Console

from envs.yacht import CATEGORY_NAMES
from frontends.play.session import Session
from frontends.play.terminal import play_game, run

pytestmark = [pytest.mark.slow, pytest.mark.integration]


def console():
    return Console(file=io.StringIO(), width=100, color_system=None)


def scripted(lines):
    """A ``read`` function that answers prompts from ``lines``, then reports end of input."""
    it = iter(lines)

    def read(prompt):
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None

    return read


def madang_play(args: list[str], lines: list[str]) -> str:
    """``madang play ARGS`` in a subprocess fed ``lines``: its output, with the terminal's line
    wrapping undone (it must exit 0, with no traceback)."""
    out = subprocess.run([sys.executable, "-m", "frontends.cli", "play", *args],
                         input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "Traceback" not in out.stderr
    return " ".join(out.stdout.split())


def test_yacht_from_scripted_stdin_with_bad_input():
    lines = ["hello", "keep 9", "score nothing", "keep 1 2 3 4 5", "help"] + \
            [f"score {name}" for name in CATEGORY_NAMES]
    text = madang_play(["yacht", "--bot", "yacht-greedy", "--seed", "3"], lines)
    assert "not a move: unknown move 'hello'" in text
    assert "not a move: dice are numbered 1..5, got '9'" in text
    assert "no category called 'nothing'" in text
    assert "to stop rolling, score a category" in text
    assert "type a move: 'keep 1 3 5' (dice by number), 'keep values 6 6' (dice by value)" in text
    assert re.search(r"yacht-greedy \(seat 1\): rolls [1-6 ]+; ", text) and "you: rolls 1 2 3 3 3; scores" in text
    assert "Yacht: result" in text and "winner" in text
    assert "seed 3: madang play yacht --bot yacht-greedy --seat 0 --seed 3 plays this game" in text


def test_yacht_repeated_dice_are_refused_and_dice_are_kept_by_value():
    # Seed 3 deals 1 2 3 3 3 first: 'keep 3 3 3' used to keep die 3 alone and reroll four.
    text = madang_play(["yacht", "--bot", "yacht-greedy", "--seed", "3"], ["keep 3 3 3", "keep values 3 3 3", "quit"])
    assert "not a move: die 3 is named twice" in text
    assert "you: rolls 1 2 3 3 3; keeps 3 3 3, rerolls 2:" in text


def test_yacht_words_that_are_not_commands_score_nothing():
    text = madang_play(["yacht", "--bot", "yacht-greedy", "--seed", "3"], ["-1", "y", "c", "b", "keep", "quit"])
    assert text.count("not a move: unknown move") == 4 and "you can score Ones (1)" in text
    assert "not a move: say which dice to keep" in text
    assert "you:" not in text and "2 rerolls left" in text  # nothing scored, no reroll spent


def test_gostop_verbs_and_hints_fit_the_decision():
    # Seed 0: playing card 11 (Mar junk) matches two Mar cards of the table (ids 9 and 10).
    text = madang_play(["gostop", "--bot", "gostop-greedy", "--seed", "0"],
                       ["take 11", "play 11", "9", "play 9", "help", "take 9", "quit"])
    assert "not a move: 'take' chooses a card of the table after a double match; now you play a card" in text
    assert "not a move: 9 is a card number, not a move id: type 'take 9' or the move id 57" in text
    assert "not a move: 'play' plays a card from your hand; now you choose a card of the table" in text
    assert "type a move: 'take CARD' with the card of the table to take: 'take 9'" in text
    assert "you: chooses Mar" in text


def test_rainbow_and_gostop_lines_read_well():
    text = madang_play(["rainbow_dice", "--bot", "rainbow-greedy", "--seed", "3"], ["take", "quit"])
    assert "you: takes 1 token, and 1 token for ending the turn (score 0 -> 6)" in text
    assert not re.search(r"\b1 (tokens|points)\b", text)
    session = Session("gostop", ["gostop-greedy"], seat=0, seed=0)
    con = console()
    play_game(session, con, lambda prompt: str(session.moves()[0]["id"]))
    out = con.file.getvalue()
    assert "seat 1 wins" not in out and "you plays" not in out
    assert re.search(r"(gostop-greedy wins|you win) \d+ points?|nagari", out)


@pytest.mark.parametrize("game, bot, bad", [
    ("rainbow_dice", "rainbow-simple", ["buy perfect rainbow", "+Z", "144"]),
    ("gostop", "gostop-greedy", ["play 99", "go", "zebra"]),
])
def test_whole_games_with_bad_input_between_moves(game, bot, bad):
    session = Session(game, [bot], seat=1, seed=5)
    errors = []

    def read(prompt):
        if len(errors) < len(bad):  # a bad line before each of the first moves
            errors.append(bad[len(errors)])
            return errors[-1]
        return str(session.moves()[0]["id"])

    con = console()
    assert play_game(session, con, read) == 0
    text = con.file.getvalue()
    assert session.over and text.count("not a move:") == len(bad)
    assert f"{bot} (seat 0):" in text and "result" in text and "Traceback" not in text


def test_end_of_input_quit_and_ctrl_c_leave_cleanly():
    con = console()
    assert run("gostop", None, 0, 1, console=con, read=scripted([])) == 0
    assert "end of input: leaving the game" in con.file.getvalue()
    con = console()
    assert run("yacht", ["random"], 0, 1, console=con, read=scripted(["quit"])) == 0
    assert "leaving the game" in con.file.getvalue()

    def interrupt(prompt):
        raise KeyboardInterrupt

    con = console()
    assert run("rainbow_dice", [], 0, 1, console=con, read=interrupt) == 130
    assert "interrupted" in con.file.getvalue()


def test_bad_options_print_an_error_and_exit_2(capsys):
    assert run("yacht", ["gostop-greedy"], 0, None, console=console()) == 2
    err = capsys.readouterr().err
    assert err.startswith("madang: error: unknown bot 'gostop-greedy' for yacht") and "hint:" in err
    assert run("gostop", None, 2, None, console=console()) == 2
    assert "seat must be an int in 0..1" in capsys.readouterr().err


def test_seeds_follow_the_one_seed_rule():
    """README: every API takes int seeds reduced modulo 2**64, negative ones too."""
    assert Session("yacht", ["random"], seed=-1).view() == Session("yacht", ["random"], seed=2**64 - 1).view()
    assert Session("gostop", ["random"], seed=2**70 + 3).view() == Session("gostop", ["random"], seed=3).view()
    for bad in (1.5, "3", True):
        with pytest.raises(ValueError, match="seed must be an int"):
            Session("yacht", ["random"], seed=bad)
    r = subprocess.run([sys.executable, "-m", "frontends.cli", "play", "yacht", "--seed", "-1"],
                       input="quit\n", capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and "leaving the game" in r.stdout and r.stderr == "", r.stderr


def test_bots_move_first_when_the_person_sits_later():
    con = console()
    session = Session("yacht", ["yacht-greedy", "random"], seat=2, seed=0)
    assert [e["seat"] for e in session.log][:1] == [0] and session.to_move == 2
    play_game(session, con, scripted([]))
    assert "yacht-greedy (seat 0):" in con.file.getvalue() and "random (seat 1):" in con.file.getvalue()
