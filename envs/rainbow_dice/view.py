"""What a Rainbow Dice player sees, for people: a seat view, its moves, a text picture, typed moves.

Everything in Rainbow Dice is public (docs/rules/rainbow_dice.md §9), so a seat's view is the whole table: the
six coloured dice, the turn's counters, every player's tokens, cards and score breakdown,
and the market with the copies left.  The functions follow the text protocol described in
:mod:`envs.yacht.view`.  Dice are named by colour letter (R O Y G B P).
"""

from __future__ import annotations

from ..core.text import (
    WIDTH, fit, match_name, move_by_id, move_lines, plural, require_legal, seat_label, tokens,
)
from .actions import (
    BUY_START, DECLINE, DOWN_START, REROLL_BITS, SECOND_CARD_PRICE, SECOND_START, STOP, TAKE,
    TOKEN_REROLL_START, UP_START,
)
from .hands import (
    DIE_COLOURS, HAND_IDS, HAND_NAMES, HAND_PROBS, HAND_RANKS, HAND_SCORES, NUM_DICE, NUM_HANDS,
    RANK_BASES, RANK_NAMES, satisfied_hands,
)
from .position import LATE_ROUND, NUM_ROUNDS, to_position
from .scoring import DUP_STEP, TOKEN_POINTS, card_gain, score_breakdown

LETTERS = tuple(c[0] for c in DIE_COLOURS)  # R O Y G B P
HAND_TEXTS = (
    "At least two dice show the same value.",
    "Two different values each appear on at least two dice.",
    "Red + Orange + Yellow total is greater than Green + Blue + Purple total.",
    "At least three dice show the same value.",
    "Exactly three dice show odd values and three show even values.",
    "Four consecutive values appear (1-2-3-4, 2-3-4-5 or 3-4-5-6).",
    "At least three dice show one value and at least two other dice show a different value.",
    "The Red die and the Purple die show the same value.",
    "The six dice total 26 or more.",
    "The Purple die shows a higher value than every other die (no ties).",
    "The six dice total exactly 21.",
    "Five consecutive values appear (1-2-3-4-5 or 2-3-4-5-6).",
    "At least four dice show the same value.",
    "Three different values each appear on two dice.",
    "Every warm die (Red, Orange, Yellow) shows a higher value than every cool die "
    "(Green, Blue, Purple).",
    "The Red, Yellow and Blue dice all show the same value.",
    "Each pair of neighbouring-colour dice (R-O, O-Y, Y-G, G-B, B-P) differs by at most 1.",
    "All six dice show even values.",
    "The six dice show 1, 2, 3, 4, 5 and 6 (in any colours).",
    "In rainbow order the dice never go down: Red <= Orange <= Yellow <= Green <= Blue <= Purple.",
    "At least four dice show one value and the other two dice show a different, matching value.",
    "Two different values each appear on three dice.",
    "The rainbow reads the same both ways: Red = Purple, Orange = Blue and Yellow = Green.",
    "At least five dice show the same value.",
    "The values climb to a shared peak and fall again: Red < Orange < Yellow = Green > Blue > Purple.",
    "Each pair of neighbouring-colour dice (R-O, O-Y, Y-G, G-B, B-P) differs by exactly 1.",
    "The three warm dice (Red, Orange, Yellow) show one value and the three cool dice "
    "(Green, Blue, Purple) show one value (the two values may be equal).",
    "Green, Blue and Purple repeat Red, Orange and Yellow (G = R, B = O, P = Y), and Red < Orange < Yellow.",
    "All six dice show the same value.",
    "Red 1, Orange 2, Yellow 3, Green 4, Blue 5, Purple 6.",
)
"""The condition printed on each hand card (docs/rules/rainbow_dice.md §3), catalog order."""
HAND_NAMES_KO = (
    "원 페어", "투 페어", "따뜻한 빛", "트리플", "홀짝 균형", "스몰 스트레이트", "풀 하우스", "무지개 양 끝",
    "밀물", "보랏빛 왕관", "스물하나", "라지 스트레이트", "포 카드", "쓰리 페어", "해돋이", "삼원색",
    "그러데이션", "모두 짝수", "풀 스트레이트", "오르막 무지개", "맨션", "투 트리플", "무지개 거울",
    "파이브 카드", "무지개 아치", "물결", "갈라진 무지개", "쌍무지개", "식스 카드", "완벽한 무지개",
)


def seat_view(game, state, i: int, seat: int) -> dict:
    """The table as seat ``seat`` sees it (everything: Rainbow Dice has no hidden information)."""
    pos = to_position(state, i, game.copies_per_hand)
    parts = [score_breakdown(c, t) for c, t in zip(pos["cards"], pos["tokens"])]
    return {
        "game": "rainbow_dice",
        "seat": int(seat),
        "num_players": len(pos["tokens"]),
        "to_move": pos["to_move"],
        "over": pos["phase"] == "game_over",
        "round": pos["round"],
        "phase": pos["phase"],
        "dice": pos["dice"],
        "free_rerolls_left": pos["free_rerolls_left"],
        "die_actions_used": pos["die_actions_used"],
        "tokens": pos["tokens"],
        "cards": pos["cards"],
        "supply": pos["supply"],
        "satisfied": [int(h) for h in satisfied_hands(pos["dice"]).nonzero()[0]],
        "scores": [p["total"] for p in parts],
        "breakdown": parts,
        "take_tokens": 2 if pos["round"] >= LATE_ROUND else 1,
    }


def _letters(ids) -> str:
    return " ".join(LETTERS[i] for i in ids)


def _gain(view: dict, h: int) -> dict:
    """What one more card ``h`` adds to the mover's score, in parts (docs/rules/rainbow_dice.md §7)."""
    cards = view["cards"][view["to_move"]]
    rank = HAND_RANKS[h]
    rank_held = sum(n for k, n in enumerate(cards) if HAND_RANKS[k] == rank)
    gain = int(card_gain(cards[h], rank_held, h))
    duplicate = int((DUP_STEP[min(cards[h], 5)] - 1) * HAND_SCORES[h])
    return {"points": gain, "card_points": int(HAND_SCORES[h]), "duplicate_bonus": duplicate,
            "rank_bonus": gain - int(HAND_SCORES[h]) - duplicate}


def _gain_text(g: dict) -> str:
    parts = [f"card {g['card_points']}"]
    if g["duplicate_bonus"]:
        parts.append(f"duplicate bonus {g['duplicate_bonus']}")
    if g["rank_bonus"]:
        parts.append(f"same-rank bonus {g['rank_bonus']}")
    return f"+{g['points']}" + (f" = {' + '.join(parts)}" if len(parts) > 1 else "")


def move(view: dict, action: int) -> dict:
    """One move described from ``view`` (structured fields plus a short ``text``)."""
    a = int(action)
    dice = view["dice"]
    if 0 < a < UP_START:
        reroll = [i for i in range(NUM_DICE) if REROLL_BITS[a, i]]
        keep = [i for i in range(NUM_DICE) if not REROLL_BITS[a, i]]
        text = f"reroll {_letters(reroll)}" if keep else "reroll all"
        return {"id": a, "kind": "reroll", "reroll": reroll, "keep": keep, "text": text}
    if UP_START <= a < TOKEN_REROLL_START:
        up = a < DOWN_START
        d = a - (UP_START if up else DOWN_START)
        new = dice[d] + (1 if up else -1)
        return {"id": a, "kind": "adjust", "die": d, "delta": 1 if up else -1,
                "text": f"{LETTERS[d]} {'+' if up else '-'}1 ({dice[d]}->{new}, 1 token)"}
    if TOKEN_REROLL_START <= a < STOP:
        d = a - TOKEN_REROLL_START
        return {"id": a, "kind": "token_reroll", "die": d,
                "text": f"token reroll {LETTERS[d]} (1 token)"}
    if a == STOP:
        return {"id": a, "kind": "stop", "text": "stop rolling"}
    if BUY_START <= a < TAKE or SECOND_START <= a < DECLINE:
        second = a >= SECOND_START
        h = a - (SECOND_START if second else BUY_START)
        gain = _gain(view, h)
        what = f"second {HAND_NAMES[h]} for {SECOND_CARD_PRICE} tokens" if second else HAND_NAMES[h]
        return {"id": a, "kind": "second" if second else "buy", "hand": h, **gain,
                "text": f"buy {what} ({RANK_NAMES[HAND_RANKS[h]]} {HAND_SCORES[h]}, {_gain_text(gain)})"}
    if a == TAKE:
        n = view["take_tokens"]
        return {"id": a, "kind": "take", "tokens": n, "text": f"take {plural(n, 'token')}"}
    return {"id": a, "kind": "decline", "text": "decline the second card"}


def moves(view: dict, actions) -> list[dict]:
    """:func:`move` for each legal action id."""
    return [move(view, a) for a in actions]


def _dice_line(dice) -> str:
    return " ".join(f"{LETTERS[i]}{d}" for i, d in enumerate(dice))


def dice_text(position: dict) -> str:
    """The dice of a position dict as people read them (``R1 O4 Y2 G6 B3 P5``): what a demo
    shows at the start of a turn (the game's ``demo_text``)."""
    return _dice_line(position["dice"])


def turn_over(before: dict, after: dict) -> bool:
    """Whether the move from position ``before`` to ``after`` ended the mover's turn (the
    game's ``demo_turn_over``): the game ended, or a new turn's throw is up (rolling, both
    free rerolls left, no die action), which solitaire play reaches with the same seat."""
    return after["phase"] == "game_over" or (after["phase"] == "rolling" and after["free_rerolls_left"] == 2
                                  and after["die_actions_used"] == 0)


def render(view: dict, moves: list[dict] | None = None, names: list[str] | None = None) -> str:
    """The view as plain text: dice, what they satisfy, every player, the market, the moves."""
    me = view["seat"]
    if view["over"]:
        lines = ["Rainbow Dice: game over"]
    else:
        free = plural(view["free_rerolls_left"], "free reroll")
        mover = seat_label(view, view["to_move"], names)
        lines = [f"Rainbow Dice, round {view['round']}/{NUM_ROUNDS}: {mover} to move, "
                 f"{view['phase'].replace('_', ' ')} phase, {free} left, "
                 f"die actions {view['die_actions_used']}/3",
                 "die    " + "  ".join(f"{c:>2}" for c in LETTERS),
                 "value  " + "  ".join(f"{d:>2}" for d in view["dice"]),
                 "satisfies: " + ", ".join(HAND_NAMES[h] for h in view["satisfied"])]
    for s in range(view["num_players"]):
        b = view["breakdown"][s]
        held = [f"{HAND_NAMES[h]} x{n}" for h, n in enumerate(view["cards"][s]) if n]
        mark = "*" if s == me else " "
        lines.append(
            f"{mark}{seat_label(view, s, names) if names else f'seat {s}'}: {plural(b['total'], 'point')} "
            f"(cards {b['base']} + duplicates {b['duplicate']} + "
            f"same rank {b['same_rank']} + tokens {b['tokens']}), {plural(view['tokens'][s], 'token')}; "
            + (", ".join(held) if held else "no cards"))
    lines.append("market (score [copies left]):")
    supply = view["supply"]
    for r, rank in enumerate(RANK_NAMES):
        cells = [f"{HAND_NAMES[h]} {HAND_SCORES[h]}" + ("" if supply is None else f" [{supply[h]}]")
                 for h in range(NUM_HANDS) if HAND_RANKS[h] == r]
        row = f"  {rank:<7}"
        for k, cell in enumerate(cells):
            if k and len(row) + len(cell) + 3 > WIDTH:
                lines.append(row + " |")
                row = " " * 9
            elif k:
                row += " | "
            row += cell
        lines.append(row)
    if moves:
        lines.append("moves:")
        lines.extend(move_lines(moves))
    return fit(lines)


def explain(before: dict, action: int, after: dict, names: list[str] | None = None) -> dict:
    """One line about ``action`` taken at ``before`` (which led to ``after``).

    A die action says the token it costs; a move that ends the turn says the end-of-turn
    token (docs/rules/rainbow_dice.md §6 step 5), so the score change adds up.  ``names`` is part of the text
    protocol; these lines name no seat, so it is not needed here.
    """
    m = move(before, action)
    seat = before["to_move"]
    kind = m["kind"]
    if kind == "reroll":
        text = f"rerolls {_letters(m['reroll'])}: {_dice_line(after['dice'])}"
    elif kind == "adjust":
        d = m["die"]
        text = f"adjusts {LETTERS[d]} {'+' if m['delta'] > 0 else '-'}1 for 1 token: {_dice_line(after['dice'])}"
    elif kind == "token_reroll":
        text = f"token-rerolls {LETTERS[m['die']]} for 1 token: {_dice_line(after['dice'])}"
    elif kind == "stop":
        text = f"stops rolling at {_dice_line(before['dice'])}"
    elif kind in ("buy", "second"):
        extra = f" for {SECOND_CARD_PRICE} tokens" if kind == "second" else ""
        text = f"buys {'a second ' if kind == 'second' else ''}{HAND_NAMES[m['hand']]}{extra} " \
               f"with {_dice_line(before['dice'])}"
        if m["duplicate_bonus"] or m["rank_bonus"]:
            text += f" ({_gain_text(m)})"
    elif kind == "take":
        text = f"takes {plural(m['tokens'], 'token')}"
    else:
        text = "declines a second card"
    if kind in ("buy", "second", "take", "decline") and after["phase"] != "second_card":
        text += ", and 1 token for ending the turn"
    old, new = before["scores"][seat], after["scores"][seat]
    if new != old:
        text += f" (score {old} -> {new})"
    out = {"text": text, "dice": after["dice"]}
    if "hand" in m:
        out["hand"] = m["hand"]
    return out


def _dice_named(words: list[str]) -> list[int]:
    """Die indices named by colour words or letters (``red``, ``r``, ``roy``)."""
    full = {c.lower(): i for i, c in enumerate(DIE_COLOURS)}
    dice: list[int] = []
    for w in words:
        if w in full:
            dice.append(full[w])
        elif all(ch in "roygbp" for ch in w):
            dice.extend("roygbp".index(ch) for ch in w)
        else:
            raise ValueError(f"dice are named R O Y G B P (or red ... purple), got {w!r}")
    return dice


def parse(text: str, view: dict, moves: list[dict]) -> int:
    """The move a person typed: an id, ``reroll R O`` / ``keep Y G B P``, ``+B`` / ``-R``,
    ``token G``, ``stop``, ``take``, ``buy NAME``, ``decline``.

    Raises ``ValueError`` with the reason when the text names no legal move.
    """
    words = tokens(text)
    if not words:
        raise ValueError("type a move: an id, 'reroll R O', 'keep Y G', '+B', 'token G', 'stop', "
                         "'take', 'buy NAME' or 'decline'")
    if len(words) == 1 and (a := move_by_id(words[0], moves)) is not None:
        return a
    verb, rest = words[0], words[1:]
    phase, rolling = view["phase"], view["phase"] == "rolling"
    if verb in ("reroll", "keep", "roll", "lock"):
        if not rolling:
            raise ValueError("no free rerolls left this turn (use 'token R' for a token reroll)")
        named = set(_dice_named([w for w in rest if w != "all"]))
        keep = named if verb in ("keep", "lock") else set(range(NUM_DICE)) - named
        if verb in ("reroll", "roll") and not named:
            keep = set()
        a = sum(1 << i for i in range(NUM_DICE) if i not in keep)
        if a == 0:
            raise ValueError("that rerolls no die: say 'stop' to stop rolling")
        return require_legal(a, moves, f"free reroll {a} is not legal now")
    if verb in ("+", "-", "up", "down", "adjust") or (verb in ("r", "o", "y", "g", "b", "p")
                                                    and rest[:1] in (["+"], ["-"])):
        up = "+" in words or "up" in words
        down = "-" in words or "down" in words
        if up == down:
            raise ValueError("say which way: '+B' raises the Blue die by 1, '-B' lowers it")
        named = _dice_named([w for w in words if w not in ("+", "-", "up", "down", "adjust", "1")])
        if len(named) != 1:
            raise ValueError("name exactly one die to adjust, e.g. '+B' or '-R'")
        d = named[0]
        a = (UP_START if up else DOWN_START) + d
        return require_legal(a, moves, _why_no_die_action(view, d, up))
    if verb in ("token", "treroll"):
        named = _dice_named([w for w in rest if w != "reroll"])
        if len(named) != 1:
            raise ValueError("name exactly one die for a token reroll, e.g. 'token G'")
        if rolling:
            raise ValueError("token rerolls come after the free rerolls: use them or say 'stop' first")
        return require_legal(TOKEN_REROLL_START + named[0], moves, _why_no_die_action(view, named[0], None))
    if verb == "stop":
        return require_legal(STOP, moves, "you can stop rolling only while free rerolls are left")
    if verb in ("take", "tokens"):
        return require_legal(TAKE, moves, "taking tokens ends the dice phase; it is not possible now")
    if verb in ("decline", "no", "pass"):
        return require_legal(DECLINE, moves, "there is no second card to decline now")
    buying = verb in ("buy", "second")
    names = {n: k for k, n in enumerate(HAND_NAMES)} | {i.lower(): k for k, i in enumerate(HAND_IDS)}
    try:
        h = match_name(" ".join(rest if buying else words), names, "hand",
                       shown=[HAND_NAMES[k] for k in view["satisfied"]])
    except ValueError as e:
        if buying:
            raise
        raise ValueError(f"unknown move {text!r}: type an id, 'reroll R O', 'keep Y G', '+B', "
                         f"'token G', 'stop', 'take', 'buy NAME' or 'decline' ({e})") from None
    a = (SECOND_START if phase == "second_card" else BUY_START) + h
    if h not in view["satisfied"]:
        raise ValueError(f"the dice {_dice_line(view['dice'])} do not satisfy {HAND_NAMES[h]}")
    if view["supply"] is not None and view["supply"][h] == 0:
        raise ValueError(f"no {HAND_NAMES[h]} card is left in the market")
    return require_legal(a, moves, f"you cannot buy {HAND_NAMES[h]} now")


def hint(view: dict, moves: list[dict]) -> str:
    """What may be typed now, for a prompt (the words that fit the phase)."""
    phase = view["phase"]
    if phase == "second_card":
        return f"'buy NAME' (a second card for {SECOND_CARD_PRICE} tokens), 'decline' or an id"
    die = "'+B' / '-R' (1 token each)"
    if phase == "rolling":
        return f"'reroll R O' or 'keep Y G B P' (free), {die}, 'stop', 'buy NAME', 'take' or an id"
    return f"{die}, 'token G' (reroll one die for 1 token), 'buy NAME', 'take' or an id"


def _why_no_die_action(view: dict, d: int, up: bool | None) -> str:
    seat = view["to_move"]
    if view["phase"] == "second_card":
        return "the dice phase is over"
    if view["tokens"][seat] < 1:
        return "die actions cost 1 token and you have none"
    if view["die_actions_used"] >= 3:
        return "at most 3 die actions per turn"
    if up is not None:
        return f"{DIE_COLOURS[d]} shows {view['dice'][d]}: it cannot go {'up' if up else 'down'}"
    return "not possible now"


def reference() -> dict:
    """The fixed tables a front-end needs: dice colours, ranks and the 30-hand catalog."""
    return {
        "dice": list(DIE_COLOURS),
        "ranks": [{"name": n, "base": int(b)} for n, b in zip(RANK_NAMES, RANK_BASES)],
        "hands": [
            {"id": HAND_IDS[h], "name": HAND_NAMES[h], "name_ko": HAND_NAMES_KO[h],
             "rank": int(HAND_RANKS[h]), "score": int(HAND_SCORES[h]),
             "probability": float(HAND_PROBS[h]), "text": HAND_TEXTS[h]}
            for h in range(NUM_HANDS)
        ],
        "rounds": NUM_ROUNDS,
        "second_card_price": SECOND_CARD_PRICE,
        "token_points": TOKEN_POINTS,
    }
