"""Human-readable names of Go-Stop actions and a text picture of a deal."""

from __future__ import annotations

from . import cards as C
from .actions import CHOOSE_START, GO, PLAY_START, STOP
from .state import PHASE_NAMES


def card_name(card: int) -> str:
    """``"17 May red ribbon"``-style name of a card id."""
    return f"{card} {C.CARD_NAMES[card]}"


def describe_action(action: int) -> str:
    """A short name of a flat action id (spec §12)."""
    a = int(action)
    if PLAY_START <= a < CHOOSE_START:
        return f"play {card_name(a - PLAY_START)}"
    if CHOOSE_START <= a < GO:
        return f"take {card_name(a - CHOOSE_START)}"
    if a == GO:
        return "go"
    if a == STOP:
        return "stop"
    return f"out-of-range action {a}"


def _cards(ids) -> str:
    return " ".join(str(c) for c in ids) or "-"


def render(state, i: int) -> str:
    """A multi-line text picture of game ``i`` (every card shown: an analysis view)."""
    lines = []
    for s in range(2):
        mark = "*" if state.to_move[i] == s and not state.done[i] else " "
        lines.append(
            f"{mark}seat {s}: hand [{_cards(C.ids_of(state.hands[i, s]))}]  "
            f"captured [{_cards(C.ids_of(state.captured[i, s]))}]  "
            f"go {state.go_count[i, s]} (at {state.go_score[i, s]})  ppuk {state.ppuk_count[i, s]}"
        )
    piles = {m + 1: int(o) for m, o in enumerate(state.ppuk_owner[i]) if o >= 0}
    lines.append(f" layout [{_cards(C.ids_of(state.layout[i]))}]  ppuk stacks {piles or '-'}")
    lines.append(f" stock {int(state.stock_end[i]) - int(state.stock_top[i])} cards")
    if state.done[i]:
        from .position import result_of

        lines.append(f" result {result_of(state, i)}")
    else:
        extra = ""
        if state.played[i] >= 0:
            extra += f"  played {card_name(int(state.played[i]))}"
        if state.flipped[i] >= 0:
            extra += f"  flipped {card_name(int(state.flipped[i]))}"
        lines.append(f" pending {PHASE_NAMES[state.phase[i]]}{extra}")
    return "\n".join(lines)
