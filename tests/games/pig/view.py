"""What a Pig player sees, for people: the text protocol of every game's ``view`` module
(see :mod:`envs.yacht.view`).  Pig hides nothing."""

from __future__ import annotations

from envs.core.text import fit, move_by_id, move_lines, seat_label, seat_name, tokens

_KINDS = ("roll", "hold")


def seat_view(game, state, i: int, seat: int) -> dict:
    """The table as seat ``seat`` sees it."""
    pos = game.to_position(state, i)
    return {"game": "pig", "seat": int(seat), "num_players": game.num_players, "target": game.target,
            "to_move": pos["to_move"], "over": pos["game_over"], "scores": pos["scores"],
            "turn_total": pos["turn_total"], "last_roll": pos["last_roll"]}


def move(view: dict, action: int) -> dict:
    """One move: roll (what is at stake) or hold (what it banks)."""
    if action == 0:
        return {"id": 0, "kind": "roll", "text": f"roll (turn total {view['turn_total']} at stake)"}
    return {"id": 1, "kind": "hold", "text": f"hold: bank {view['turn_total']}"}


def moves(view: dict, actions) -> list[dict]:
    """:func:`move` for each legal action id."""
    return [move(view, int(a)) for a in actions]


def render(view: dict, moves: list[dict] | None = None, names: list[str] | None = None) -> str:
    """The scores, the turn total, the last roll, and the moves when given."""
    lines = [f"Pig to {view['target']}: " + ", ".join(
        f"{seat_label(view, s, names)} {v}" for s, v in enumerate(view["scores"]))]
    if not view["over"]:
        lines.append(f"{seat_label(view, view['to_move'], names)} to move: turn total {view['turn_total']}, "
                     f"last roll {view['last_roll'] or '-'}")
    if moves:
        lines += move_lines(moves)
    return fit(lines)


def explain(before: dict, action: int, after: dict, names: list[str] | None = None) -> dict:
    """One line about ``action`` taken at ``before``."""
    who = seat_name(before, before["to_move"], names)
    if action == 1 or (after["over"] and action == 0 and after["last_roll"] != 1):
        text = f"{who} banked and has {after['scores'][before['to_move']]}"
    elif after["last_roll"] == 1:
        text = f"{who} rolled 1 and lost the turn total {before['turn_total']}"
    else:
        text = f"{who} rolled {after['last_roll']}: turn total {after['turn_total']}"
    return {"text": text}


def parse(text: str, view: dict, moves: list[dict]) -> int:
    """A typed move: an id, ``roll`` / ``r`` or ``hold`` / ``h``; ``ValueError`` otherwise."""
    words = tokens(text)
    if len(words) != 1:
        raise ValueError("type roll, hold or a move id")
    by_id = move_by_id(words[0], moves)
    if by_id is not None:
        return by_id
    for m in moves:
        if m["kind"].startswith(words[0]):
            return m["id"]
    raise ValueError(f"{words[0]!r} is not a legal move now; legal: {', '.join(m['kind'] for m in moves)}")


def hint(view: dict, moves: list[dict]) -> str:
    """What may be typed now."""
    return " or ".join(m["kind"] for m in moves)


def stake_text(position: dict) -> str:
    """What a demo shows at a turn's start and after each roll (the descriptor's ``demo_text``)."""
    return f"turn total {position['turn_total']}"


def reference() -> dict:
    """The fixed names a front-end needs."""
    return {"moves": list(_KINDS)}
