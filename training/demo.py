"""``madang demo``: a game of Yacht between bots, as a readable transcript and a final table."""

from __future__ import annotations

import numpy as np
from rich.console import Console
from rich.table import Table

import agents
from envs.yacht import CATEGORY_NAMES, SCORE_START, Yacht
from envs.yacht.rules import REROLL_BITS

def _dice(d) -> str:
    return " ".join(str(int(x)) for x in d)


def play_yacht_demo(bots=("yacht-ppo", "yacht-solver", "yacht-greedy"), seed: int = 0, console: Console | None = None) -> list[int]:
    """Play one game of Yacht between the named bots (one seat each) and print it.

    Returns the final scores in seat order.
    """
    console = console or Console()
    players = [agents.load(b) for b in bots]
    game = Yacht(num_players=len(players))
    state = game.init([seed])
    rng = np.random.default_rng(seed)
    console.rule(f"[bold]Yacht[/bold]: {' vs '.join(bots)} (seed {seed})")
    line: list[str] = []
    while not state.done[0]:
        seat = int(state.to_move[0])
        if not line:
            line = [f"R{int(state.round[0]):>2} [cyan]{bots[seat]:>12}[/cyan]: {_dice(game.dice(state)[0])}"]
        obs, mask = game.observe(state), game.legal_mask(state)
        action = int(players[seat].act(obs, mask, rng)[0])
        if action < SCORE_START:
            kept = game.dice(state)[0][~REROLL_BITS[action]]
            game.step(state, np.array([action]))
            line.append(f"keep [{_dice(kept)}] -> {_dice(game.dice(state)[0])}")
        else:
            cat = action - SCORE_START
            points = int(game.step(state, np.array([action]))[0, seat]) if game.reward == "score" else 0
            line.append(f"[bold]{CATEGORY_NAMES[cat]}[/bold] +{points}")
            console.print(" | ".join(line), soft_wrap=True)
            line = []
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
