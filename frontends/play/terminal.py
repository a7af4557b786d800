"""``madang play GAME``: a game against bots in the terminal (rich for the styling).

The board and the moves are the game's own plain-text seat view; each bot move is one line;
the end shows a result table and the seed that replays the game.  Moves are typed by id or
by a short name (``keep 1 3 5``, ``keep values 6 6``, ``score choice``, ``buy ripple``,
``play mar bright``, ``take 44``, ``go``); a bad one re-prompts with the reason.  ``help``
shows the board again with what may be typed now; ``quit`` (or end of input, or Ctrl-C) leaves.
"""

from __future__ import annotations

import sys

from rich.console import Console
from rich.table import Table
from rich.text import Text

from envs.registration import GAMES, game_spec

from ..games import default_bot, game_bots
from .session import Session, user_bots


def _event_line(event: dict) -> Text:
    who = "you" if event["human"] else f"{event['player']} (seat {event['seat']})"
    line = Text(f"{who}: ", style="bold" if event["human"] else "bold cyan")
    line.append(event["text"])
    return line


def _results(session: Session) -> Table:
    spec = game_spec(session.game_name)
    table = Table(title=f"{spec.title}: result")
    table.add_column("seat", justify="right")
    table.add_column("player")
    table.add_column(spec.score_label, justify="right")
    table.add_column("")
    for row in session.standings():
        table.add_row(str(row["seat"]), row["player"], str(row["points"]), "winner" if row["winner"] else "")
    return table


def play_game(session: Session, console: Console, read=input) -> int:
    """Play ``session`` with moves read by ``read(prompt)``; return the exit status (0, or 130 on Ctrl-C)."""
    try:
        return _play(session, console, read)
    except KeyboardInterrupt:
        console.print("\ninterrupted: leaving the game")
        return 130


def _play(session: Session, console: Console, read) -> int:
    names = ", ".join(f"seat {p['seat']}: {p['name']}" for p in session.players)
    console.rule(f"[bold]{game_spec(session.game_name).title}[/bold]  ({names})")
    for event in session.log:
        console.print(_event_line(event))
    while not session.over:
        console.print(Text(session.render()))
        while True:
            try:
                line = read("your move> ")
            except EOFError:
                console.print("\nend of input: leaving the game")
                return 0
            word = line.strip().lower()
            if word in ("quit", "exit", "q"):
                console.print("leaving the game")
                return 0
            if word in ("help", "?", "board"):
                console.print(Text(session.render()))
                console.print(Text(f"type a move: {session.hint()}; 'quit' leaves"))
                continue
            try:
                action = session.parse(line)
            except ValueError as e:
                console.print(Text(f"not a move: {e}", style="red"))
                continue
            break
        for event in session.play(action):
            console.print(_event_line(event))
    console.print(Text(session.text.render(session.view(), None, session.names)))
    console.print(_results(session))
    console.print(Text(f"seed {session.seed}: {_replay_line(session)} plays this game again"))
    return 0


def _replay_line(session: Session) -> str:
    bots = " ".join(f"--bot {p['name']}" for p in session.players if not p["human"])
    return f"madang play {session.game_name} {bots} --seat {session.seat} --seed {session.seed}"


def run(game: str, bots: list[str] | None, seat: int, seed: int | None, console: Console | None = None,
        read=input) -> int:
    """``madang play``: check the options, play one game, return the exit status (2 for a bad option)."""
    console = console or Console()
    try:
        bots = bots or [default_bot(game)]
        session = Session(game, bots, seat=seat, seed=seed, extra_bots=user_bots(bots))
    except ValueError as e:
        print(f"madang: error: {e}", file=sys.stderr)
        if game in GAMES:
            print(f"hint: bots for {game}: {', '.join(game_bots(game))}, or your own policy by path or "
                  f"module:attr (docs/bots.md); repeat --bot for more seats", file=sys.stderr)
        return 2
    return play_game(session, console, read)
