"""A plain-text picture of a Rainbow Dice position (``render_mode="ansi"`` and the demo)."""

from __future__ import annotations

import numpy as np

from .hands import DIE_COLOURS, HAND_NAMES, HAND_RANKS, RANK_NAMES, satisfied_hands
from .scoring import final_score


def render_text(pos: dict) -> str:
    """Render a position dict (spec §12) as a few lines of text."""
    dice = " ".join(f"{c[0]}{d}" for c, d in zip(DIE_COLOURS, pos["dice"]))
    lines = [
        f"Round {pos['round']}/12  seat {pos['to_move']} to move  phase {pos['phase']}  "
        f"free rerolls {pos['free_rerolls_left']}  die actions {pos['die_actions_used']}/3",
        f"Dice: {dice}",
    ]
    sat = np.flatnonzero(satisfied_hands(np.array(pos["dice"])))
    lines.append("Satisfies: " + ", ".join(HAND_NAMES[h] for h in sat))
    for seat, (cards, tokens) in enumerate(zip(pos["cards"], pos["tokens"])):
        held = [f"{HAND_NAMES[h]} x{n} ({RANK_NAMES[HAND_RANKS[h]]})" for h, n in enumerate(cards) if n]
        lines.append(
            f"Seat {seat}: {tokens} tokens, score {final_score(cards, tokens)}; "
            + (", ".join(held) if held else "no cards")
        )
    if pos["supply"] is not None:
        empty = [HAND_NAMES[h] for h, n in enumerate(pos["supply"]) if n == 0]
        lines.append("Empty piles: " + (", ".join(empty) if empty else "none"))
    return "\n".join(lines)
