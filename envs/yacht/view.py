"""What a Yacht player sees, for people: a seat view, its moves, a text picture, typed moves.

Yacht hides nothing, so a seat's view is the whole table: the round, the five dice (sorted,
shown as dice 1..5), the rerolls left and every sheet.  The functions here are the game's
part of the text protocol that every game's ``view`` module follows:

* ``seat_view(game, state, i, seat) -> dict`` (JSON-compatible);
* ``move(view, action) -> dict`` / ``moves(view, actions)``: ``{"id", "kind", "text", ...}``;
* ``render(view, moves=None, names=None) -> str``: the view (and moves) as plain text;
* ``explain(before, action, after, names=None) -> dict``: ``{"text", ...}`` one line about a
  move made (``names``: what to call each seat, ``"you"`` for the viewer, as in
  :func:`envs.core.text.seat_label`);
* ``parse(text, view, moves) -> int``: a typed move (``"keep 1 3 5"``, ``"score choice"``, an id);
* ``hint(view, moves) -> str``: what may be typed now;
* ``reference() -> dict``: the fixed names a front-end draws with.

Dice are numbered 1..5 for people (die ``i`` of the actions and observations is die ``i + 1``
here).
"""

from __future__ import annotations

from ..core.text import (
    fit, is_number, match_name, move_by_id, move_lines, plural, require_legal, seat_label, tokens,
)
from .dice import NUM_REROLL_IDS, REROLL_BITS
from .kernels import ROLLS_PER_TURN
from .position import to_position
from .scoring import CATEGORY_NAMES, NUM_CATEGORIES, NUM_DICE, category_scores

SCORE_START = NUM_REROLL_IDS  # ids 32..43 score a category (as in .rules)
SHORT_NAMES = {"4k": 7, "4 of a kind": 7, "fh": 8, "ls": 9, "small straight": 9, "bs": 10,
               "large straight": 10, "1s": 0, "2s": 1, "3s": 2, "4s": 3, "5s": 4, "6s": 5}
"""Extra names people type for categories (besides the names themselves)."""
NUM_ROUNDS = 12


def seat_view(game, state, i: int, seat: int) -> dict:
    """The table as seat ``seat`` sees it (everything: Yacht has no hidden information)."""
    pos = to_position(state, i)
    sheets = pos["sheets"]
    return {
        "game": "yacht",
        "seat": int(seat),
        "num_players": len(sheets),
        "to_move": pos["to_move"],
        "over": bool(pos.get("game_over", False)),
        "round": pos["round"],
        "rolls_left": pos["rolls_left"],
        "dice": pos["dice"],
        "dice_scores": [int(x) for x in category_scores(pos["dice"])],
        "sheets": sheets,
        "totals": [sum(v or 0 for v in sheet) for sheet in sheets],
    }


def _dice_numbers(ids) -> str:
    return " ".join(str(i + 1) for i in ids)


def move(view: dict, action: int) -> dict:
    """One move described from ``view``: a reroll (which dice stay) or a category and its points."""
    a = int(action)
    if 0 < a < SCORE_START:
        reroll = [i for i in range(NUM_DICE) if REROLL_BITS[a, i]]
        keep = [i for i in range(NUM_DICE) if not REROLL_BITS[a, i]]
        text = f"keep {_dice_numbers(keep)}" if keep else "reroll all"
        return {"id": a, "kind": "reroll", "reroll": reroll, "keep": keep, "text": text}
    c = a - SCORE_START
    points = view["dice_scores"][c]
    return {"id": a, "kind": "score", "category": c, "points": points,
            "text": f"score {CATEGORY_NAMES[c]} ({points})"}


def moves(view: dict, actions) -> list[dict]:
    """:func:`move` for each legal action id."""
    return [move(view, a) for a in actions]


def render(view: dict, moves: list[dict] | None = None, names: list[str] | None = None) -> str:
    """The view as plain text: dice, every sheet with totals, and the moves when given."""
    P, me = view["num_players"], view["seat"]
    who = "game over" if view["over"] else (
        f"{seat_label(view, view['to_move'], names)} to move, "
        f"{plural(view['rolls_left'], 'reroll')} left")
    lines = [f"Yacht, round {view['round']}/{NUM_ROUNDS}: {who}"]
    if not view["over"]:
        lines.append("die    " + " ".join(f"{i + 1:>2}" for i in range(NUM_DICE)))
        lines.append("value  " + " ".join(f"{d:>2}" for d in view["dice"]))
    head = "".join(f"{'seat ' + str(s) + ('*' if s == me else ''):>9}" for s in range(P))
    lines.append(f"{'category':<16}{head}   now")
    mover = view["to_move"]
    for c, name in enumerate(CATEGORY_NAMES):
        cells = "".join(f"{'.' if sh[c] is None else sh[c]:>9}" for sh in view["sheets"])
        now = "" if view["over"] or view["sheets"][mover][c] is not None else f"{view['dice_scores'][c]:>6}"
        lines.append(f"{name:<16}{cells}{now}")
    lines.append(f"{'total':<16}" + "".join(f"{t:>9}" for t in view["totals"]))
    if moves:
        lines.append("moves:")
        lines.extend(move_lines(moves))
    return fit(lines)


def explain(before: dict, action: int, after: dict, names: list[str] | None = None) -> dict:
    """One line about ``action`` taken at ``before`` (which led to ``after``).

    The first decision of a turn starts with the roll it was made on (``rolls 1 2 3 3 5;``).
    ``names`` (how a front-end calls each seat) is part of the text protocol; Yacht's lines
    name no seat, so it is not needed here.
    """
    m = move(before, action)
    first = f"rolls {_values(before['dice'])}; " if before["rolls_left"] == ROLLS_PER_TURN else ""
    if m["kind"] == "reroll":
        kept = [before["dice"][i] for i in m["keep"]]
        now = _values(after["dice"])
        text = (f"keeps {_values(kept)}, rerolls {len(m['reroll'])}: {now}" if kept
                else f"rerolls all: {now}")
        return {"text": first + text, "dice": after["dice"]}
    seat = before["to_move"]
    return {"text": f"{first}scores {m['points']} in {CATEGORY_NAMES[m['category']]} "
                    f"(total {after['totals'][seat]})",
            "category": m["category"], "points": m["points"]}


def _values(dice) -> str:
    return " ".join(str(d) for d in dice)


HOW_TO_TYPE = "'keep 1 3 5' (dice by number), 'keep values 6 6' (dice by value), 'reroll', 'score NAME' or an id"


def hint(view: dict, moves: list[dict]) -> str:
    """What may be typed now, for a prompt."""
    if view["rolls_left"] == 0:
        return "no rerolls left: 'score NAME' (e.g. 'score choice') or an id"
    return HOW_TO_TYPE


def parse(text: str, view: dict, moves: list[dict]) -> int:
    """The move a person typed: an id; ``keep 1 3 5`` / ``reroll 2 4`` (dice by their number
    1..5, each once); ``keep values 6 6`` / ``reroll values 1 2`` (dice by the value they
    show); ``reroll`` (all five); or ``score NAME`` (a category's whole name or short name).

    Nothing scores without ``score`` or an id, and a bare ``keep`` is refused.  Raises
    ``ValueError`` with the reason when the text names no legal move.
    """
    words = tokens(text)
    if not words:
        raise ValueError(f"type a move: {HOW_TO_TYPE}")
    if len(words) == 1 and (a := move_by_id(words[0], moves)) is not None:
        return a
    verb, rest = words[0], words[1:]
    if verb in ("keep", "k", "reroll", "r", "roll"):
        return _parse_reroll(verb in ("keep", "k"), rest, view, moves)
    if verb in ("score", "s"):
        return _parse_score(rest, view, moves)
    raise ValueError(f"unknown move {text!r}: type {HOW_TO_TYPE}; {_legal_summary(view, moves)}")


def _legal_summary(view: dict, moves: list[dict]) -> str:
    scores = ", ".join(f"{CATEGORY_NAMES[m['category']]} ({m['points']})" for m in moves if m["kind"] == "score")
    rerolls = f"{plural(view['rolls_left'], 'reroll')} left" if view["rolls_left"] else "no rerolls left"
    return f"you can score {scores}; {rerolls}"


def _parse_score(rest: list[str], view: dict, moves: list[dict]) -> int:
    names = {n: c for c, n in enumerate(CATEGORY_NAMES)} | SHORT_NAMES
    query = " ".join(rest)
    try:
        c = match_name(query, names, "category", shown=list(CATEGORY_NAMES), prefix=False)
    except ValueError as e:
        raise ValueError(f"{e} (type the whole name, e.g. 'score choice')") from None
    seat = view["to_move"]
    return require_legal(SCORE_START + c, moves,
                         f"{CATEGORY_NAMES[c]} is already scored ({view['sheets'][seat][c]})")


def _parse_reroll(keeping: bool, rest: list[str], view: dict, moves: list[dict]) -> int:
    if view["rolls_left"] == 0:
        raise ValueError("no rerolls left this turn: score a category")
    if rest[:1] in (["values"], ["value"], ["v"]):
        named = _dice_with_values(rest[1:], view["dice"])
    else:
        named = _dice_numbered(rest)
    if keeping and not named:
        raise ValueError("say which dice to keep, e.g. 'keep 1 3 5' or 'keep values 6 6' "
                         "('reroll' rerolls all five)")
    keep = named if keeping else set(range(NUM_DICE)) - (named or set(range(NUM_DICE)))
    reroll_id = sum(1 << i for i in range(NUM_DICE) if i not in keep)
    if reroll_id == 0:
        raise ValueError("that keeps all five dice: to stop rolling, score a category")
    return require_legal(reroll_id, moves, f"reroll {reroll_id} is not legal now")


def _dice_numbered(words: list[str]) -> set[int]:
    dice: set[int] = set()
    for w in words:
        if not is_number(w) or not 1 <= int(w) <= NUM_DICE:
            raise ValueError(f"dice are numbered 1..{NUM_DICE}, got {w!r} "
                             "(to name dice by value, type 'keep values 6 6')")
        if int(w) - 1 in dice:
            raise ValueError(f"die {w} is named twice: dice are numbered 1..{NUM_DICE} left to right "
                             "(to keep dice by value, type 'keep values 3 3 3')")
        dice.add(int(w) - 1)
    return dice


def _dice_with_values(words: list[str], dice: list[int]) -> set[int]:
    if not words:
        raise ValueError("name the values, e.g. 'keep values 6 6'")
    free = list(range(NUM_DICE))
    chosen: set[int] = set()
    for w in words:
        if not is_number(w) or not 1 <= int(w) <= 6:
            raise ValueError(f"dice show values 1..6, got {w!r}")
        i = next((i for i in free if dice[i] == int(w)), None)
        if i is None:
            have = sum(d == int(w) for d in dice)
            want = sum(is_number(x) and int(x) == int(w) for x in words)
            raise ValueError(f"the dice show {_values(dice)}: {have} {'die' if have == 1 else 'dice'} "
                             f"with {w}, not {want}")
        free.remove(i)
        chosen.add(i)
    return chosen


def reference() -> dict:
    """The fixed names a front-end needs: the 12 categories in order."""
    return {"categories": list(CATEGORY_NAMES), "num_dice": NUM_DICE, "rounds": NUM_ROUNDS,
            "num_categories": NUM_CATEGORIES}
