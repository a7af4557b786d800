"""``madang demo``: a game between bots, as a readable transcript and a final summary.

Yacht (the default) prints one line per turn: round, bot, the first roll, each reroll as
``keep [kept dice] -> new dice``, and the category scored with its points; then the final
sheets.  Every other game prints one line per turn: the turn number, the bot, its actions in
order and what the turn was worth to it, with what its descriptor adds (:mod:`envs.core.spec`):
``demo_text`` at the turn's start and after each move that changes it (Rainbow Dice: the
dice), ``demo_turn_end`` at its end (Go-Stop: the cards the turn captured); a turn ends when
the seat to move changes, the game ends, or the descriptor's ``demo_turn_over`` says so.
"""

from __future__ import annotations

import numpy as np
from rich.console import Console
from rich.table import Table

import agents
from envs.core.match import Match
from envs.core.rng import normalize_seed
from envs.registration import game_spec
from envs.yacht import CATEGORY_NAMES, SCORE_START, Yacht
from envs.yacht.rules import REROLL_BITS

from .games import demo_bots, hook




def _players(bots) -> tuple[list, list[str]]:
    """Bots (names are loaded) and the names the transcript shows."""
    players = [agents.load(b) if isinstance(b, str) else b for b in bots]
    return players, [b if isinstance(b, str) else b.name for b in bots]


def _dice(d) -> str:
    return " ".join(str(int(x)) for x in d)


def play_yacht_demo(bots=("yacht-ppo", "yacht-solver", "yacht-greedy"), seed: int = 0, console: Console | None = None) -> list[int]:
    """Play one game of Yacht between bots (names or instances, one seat each) and print it.

    Returns the final scores in seat order.
    """
    console = console or Console()
    players, bots = _players(bots)
    game = Yacht(num_players=len(players))
    state = game.init([seed])
    rng = np.random.default_rng(normalize_seed(seed))
    console.rule(f"[bold]Yacht[/bold]: {' vs '.join(bots)} (seed {seed})")
    line: list[str] = []
    round_, dice = int(state.round[0]), game.dice(state)[0]  # before each move

    def show(move) -> None:  # after each move
        nonlocal line, round_, dice
        seat, action = int(move.seats[0]), int(move.actions[0])
        if not line:
            line = [f"R{round_:>2} [cyan]{bots[seat]:>12}[/cyan]: {_dice(dice)}"]
        if action < SCORE_START:
            kept = dice[~REROLL_BITS[action]]
            line.append(f"keep [{_dice(kept)}] -> {_dice(game.dice(state)[0])}")
        else:
            cat = action - SCORE_START
            points = int(move.rewards[0, seat]) if game.reward == "score" else 0
            line.append(f"[bold]{CATEGORY_NAMES[cat]}[/bold] +{points}")
            console.print(" | ".join(line), soft_wrap=True)
            line = []
        round_, dice = int(state.round[0]), game.dice(state)[0]

    Match(game, players).play(state, rng, on_move=show)
    scores = game.result(state)["scores"]
    table = Table(title="Final sheets")
    table.add_column("category")
    for b in bots:
        table.add_column(b, justify="right")
    for c, name in enumerate(CATEGORY_NAMES):
        table.add_row(name, *[str(int(state.sheets[0, s, c])) for s in range(len(bots))])
    table.add_row("[bold]total[/bold]", *[f"[bold]{x}[/bold]" for x in scores])
    console.print(table)
    best = max(scores)
    winners = [bots[i] for i, x in enumerate(scores) if x == best]
    console.print(f"Winner: {', '.join(winners)} with {best} points")
    return scores


def play_demo(game_name: str, bots=None, seed: int = 0, console: Console | None = None) -> dict:
    """Play one game of ``game_name`` between bots (names or instances, one seat each) and print it.

    Returns the game's result (``{"scores": [...]}`` or ``{"winner", "payout", "reason"}``).
    """
    console = console or Console()
    bots = list(bots or demo_bots(game_name))
    if game_name == "yacht":
        return {"scores": play_yacht_demo(bots, seed, console)}
    spec = game_spec(game_name)
    text, turn_end, turn_over = hook(spec.demo_text), hook(spec.demo_turn_end), hook(spec.demo_turn_over)
    players, bots = _players(bots)
    game = spec.make(num_players=len(players))
    for p in players:
        p.check_game(game.name)
    state = game.init([seed])
    rng = np.random.default_rng(normalize_seed(seed))
    console.rule(f"[bold]{game_name}[/bold]: {' vs '.join(bots)} (seed {seed})")
    turn, worth, seat = 0, 0.0, None
    parts: list[str] = []
    before = last = game.to_position(state)  # positions: between turns, and between moves where read

    def show(move) -> None:  # after each move
        nonlocal turn, worth, seat, parts, before, last
        action = int(move.actions[0])
        if seat is None:
            seat = int(move.seats[0])
            parts = [] if text is None else [
                (f"round {before['round']}: " if "round" in before else "") + text(before)]
        worth += float(move.rewards[0, seat])
        now = None if text is None and turn_over is None else game.to_position(state)
        ended = bool(state.done[0]) or int(state.to_move[0]) != seat or (turn_over is not None and turn_over(last, now))
        changed = text is not None and not ended and text(now) != text(last)
        parts.append(game.describe_action(action) + (f" -> {text(now)}" if changed else ""))
        if ended:
            turn += 1
            after = game.to_position(state)
            if turn_end is not None:
                parts.append(turn_end(before, after, seat))
            console.print(f"T{turn:>2} [cyan]{bots[seat]:>14}[/cyan]: " + " | ".join(parts)
                          + f"  ({worth:+g})", soft_wrap=True)
            before, worth, seat = after, 0.0, None
        last = now

    Match(game, players).play(state, rng, on_move=show)
    result = game.result(state)
    if "scores" in result:
        best = max(result["scores"])
        for b, x in zip(bots, result["scores"]):
            console.print(f"{b}: {x} points")
        winners = [b for b, x in zip(bots, result["scores"]) if x == best]
        console.print(f"Winner: {', '.join(winners)} with {best} points")
    elif result["winner"] is None:
        console.print(f"Result: {result['reason']} (a draw, no payout)")
    else:
        console.print(f"Winner: {bots[result['winner']]}, paid {result['payout']} ({result['reason']})")
    return result
