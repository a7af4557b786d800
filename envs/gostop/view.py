"""What one Go-Stop player sees, for people: a seat view, its moves, a text picture, typed moves.

A seat sees its own hand, the layout (with its piles), both captured piles and scores, the
Go / ppuk counters, the opponent's hand *size*, the stock *size* and the cards played or
flipped in the turn in progress (docs/rules/gostop.md §11).  It never sees the opponent's hand or the stock
order, and neither does anything built from a seat view here: the text picture, the move
list, the one-line explanations of moves.  The functions follow the text protocol described
in :mod:`envs.yacht.view`.
"""

from __future__ import annotations

import numpy as np

from ..core.text import (
    fit, is_number, match_name, move_lines, plural, require_legal, seat_label, seat_name, tokens,
)
from . import cards as C
from .actions import CHOOSE_START, GO, STOP
from .position import result_of
from .scoring import breakdown, settle
from .state import PHASE_NAMES, PLAY
from .text import (
    MONTH_FLOWERS, MONTH_FLOWERS_KO, MONTHS, card_kind, card_label, card_picture, card_text,
)

GROUPS = (("brights", C.BRIGHTS), ("animals", C.ANIMALS), ("ribbons", C.RIBBONS),
          ("junk", C.TRANSFERABLE_JUNK))
"""Captured piles are shown in these groups (the cup with the animals)."""


def seat_view(game, state, i: int, seat: int) -> dict:
    """What seat ``seat`` sees of game ``i`` (its own hand; the other hand only as a count)."""
    me = int(seat)
    hand_sizes = [int(C.popcount(state.hands[i, s])) for s in range(2)]
    layout = C.ids_of(state.layout[i])
    counts = C.month_counts(np.array([state.layout[i]]))[0]
    piles = [{"month": m + 1, "owner": None if state.ppuk_owner[i, m] < 0 else int(state.ppuk_owner[i, m])}
             for m in range(12) if counts[m] == 3]
    captured = [C.ids_of(state.captured[i, s]) for s in range(2)]
    played, flipped = int(state.played[i]), int(state.flipped[i])
    phase, mover = int(state.phase[i]), int(state.to_move[i])
    view = {
        "game": "gostop",
        "seat": me,
        "num_players": 2,
        "to_move": mover,
        "over": bool(state.done[i]),
        "decision": PHASE_NAMES[phase],
        "last_turn": not state.done[i] and hand_sizes[mover] == (1 if phase == PLAY else 0),
        "hand": C.ids_of(state.hands[i, me]),
        "hand_sizes": hand_sizes,
        "layout": layout,
        "piles": piles,
        "played": None if played < 0 else played,
        "flipped": None if flipped < 0 else flipped,
        "stock_size": int(state.stock_end[i]) - int(state.stock_top[i]),
        "captured": captured,
        "scores": [int(x) for x in state.score[i]],
        "go_count": [int(x) for x in state.go_count[i]],
        "go_score": [int(x) for x in state.go_score[i]],
        "ppuk_count": [int(x) for x in state.ppuk_count[i]],
        "tallies": [tally(ids) for ids in captured],
        "result": None,
    }
    if state.done[i]:
        view["result"] = result_of(state, i)
        w = view["result"]["winner"]
        if view["result"]["reason"] == "stop":
            view["result"]["settlement"] = _settlement(view, w)
            # Go / Stop is never offered on a mover's last card (docs/rules/gostop.md §5.9): an empty hand
            # means the last card ended the deal and the Stop was automatic.
            view["result"]["last_card"] = hand_sizes[w] == 0
    return view


THRESHOLDS = {"brights": 3, "animals": 5, "ribbons": 5, "junk": 10, "meong_bak": 7, "pi_bak_safe": 5}
"""Counts where a captured pile starts to score (docs/rules/gostop.md §7.1: brights 3, animals 5, ribbons 5,
junk 10 units), the winner's animal count that doubles the payout (meong-bak, docs/rules/gostop.md §9.2) and the
loser's junk units (the cup as 2) that protect against pi-bak."""


def tally(ids: list[int]) -> dict:
    """A captured pile counted as it scores now (docs/rules/gostop.md §7): brights, animals and ribbons, junk
    units, and how the sake cup counts (``"animal"``, ``"junk"`` as 2 units, or None if absent),
    plus ``protection``: the junk units that count against pi-bak (the cup always as 2)."""
    b = breakdown(np.array([C.mask_of(ids)], np.uint64))
    has_cup, cup_junk = C.CUP in ids, bool(b.cup_as_junk[0])
    units = int(C.JUNK_UNITS[ids].sum()) if ids else 0
    return {"brights": sum(c in C.BRIGHTS for c in ids), "animals": int(b.animals[0]),
            "ribbons": sum(c in C.RIBBONS for c in ids),
            "junk": units + (2 if has_cup and cup_junk else 0),
            "cup": None if not has_cup else "junk" if cup_junk else "animal",
            "protection": units + (2 if has_cup else 0), "points": int(b.score[0])}


def _settlement(view: dict, winner: int) -> dict:
    """The Stop payout of ``winner`` from the public captured piles and Go count (docs/rules/gostop.md §9)."""
    s = settle(np.array([C.mask_of(view["captured"][winner])], np.uint64),
               np.array([C.mask_of(view["captured"][1 - winner])], np.uint64),
               np.array([view["go_count"][winner]]))
    return {"base": int(s.base[0]), "value": int(s.value[0]), "payout": int(s.payout[0]),
            "go_count": view["go_count"][winner], "gwang_bak": bool(s.gwang_bak[0]),
            "meong_bak": bool(s.meong_bak[0]), "pi_bak": bool(s.pi_bak[0])}


def _layout_of_month(view: dict, month: int) -> list[int]:
    return [c for c in view["layout"] if C.month_of(c) == month]


def _match_note(view: dict, card: int) -> str:
    same = _layout_of_month(view, C.month_of(card))
    if not same:
        return "no match"
    if len(same) == 3:
        return "takes the pile of 3"
    if len(same) == 2:
        return "2 matches: choose one"
    return f"matches {card_label(same[0])}"


def move(view: dict, action: int) -> dict:
    """One move described from ``view`` (structured fields plus a short ``text``)."""
    a = int(action)
    me = view["to_move"]
    if a < CHOOSE_START:
        return {"id": a, "kind": "play", "card": a,
                "text": f"play {card_text(a)}: {_match_note(view, a)}"}
    if a < GO:
        c = a - CHOOSE_START
        return {"id": a, "kind": "choose", "card": c, "text": f"take {card_text(c)}"}
    if a == GO:
        n = view["go_count"][me] + 1
        return {"id": a, "kind": "go", "text": f"go (Go #{n} at score {view['scores'][me]})"}
    payout = _settlement(view, me)["payout"]
    return {"id": a, "kind": "stop", "payout": payout, "text": f"stop and collect {payout}"}


def moves(view: dict, actions) -> list[dict]:
    """:func:`move` for each legal action id."""
    return [move(view, a) for a in actions]


def _group_line(ids: list[int]) -> str:
    """A captured pile by groups: ``brights Mar Aug | animals Feb(godori) | junk 5 units: ...``."""
    parts = []
    for name, members in GROUPS:
        cards = [c for c in ids if c in members]
        if not cards:
            continue
        words = []
        for c in cards:
            tag = "(2)" if c in C.DOUBLE_JUNKS else "(cup)" if c == C.CUP else ""
            words.append(MONTHS[c // 4] + tag)
        units = int(C.JUNK_UNITS[cards].sum()) if name == "junk" else len(cards)
        parts.append(f"{name} {units}: {' '.join(words)}")
    return " | ".join(parts) or "nothing yet"


def _layout_line(view: dict) -> str:
    piles = {p["month"]: p["owner"] for p in view["piles"]}
    groups = []
    for m in sorted({C.month_of(c) for c in view["layout"]}):
        cards = ", ".join(f"{card_label(c).split(' ', 1)[1]}" for c in _layout_of_month(view, m))
        pile = ""
        if m in piles:
            pile = " [dealt pile]" if piles[m] is None else f" [ppuk of seat {piles[m]}]"
        groups.append(f"{MONTHS[m - 1]}: {cards}{pile}")
    return " | ".join(groups) or "empty"


def _decision_line(view: dict) -> str:
    d = view["decision"]
    if d == "play":
        return "play a card" + (" (your last card)" if view["last_turn"] else "")
    if d in ("hand_choice", "stock_choice"):
        card, did = (view["played"], "played") if d == "hand_choice" else (view["flipped"], "flipped")
        return f"{did} {card_text(card)}: choose which {MONTHS[card // 4]} card to take"
    return f"score {view['scores'][view['to_move']]}: go or stop?"


def result_line(view: dict, names: list[str] | None = None) -> str:
    """The end of the deal in words (``view["result"]`` set); ``names`` as in :func:`explain`."""
    r = view["result"]
    if r["winner"] is None:
        return "nagari: nobody stopped before the cards ran out (a draw, 0 points)"
    name = seat_name(view, r["winner"], names)
    who = f"{name} {'win' if name == 'you' else 'wins'} {plural(r['payout'], 'point')}"
    if r["reason"] != "stop":
        return f"{who} by {r['reason'].replace('_', ' ')}"
    s = r["settlement"]
    baks = [b.replace("_", "-") for b in ("gwang_bak", "meong_bak", "pi_bak") if s[b]]
    gos = f", {s['go_count']} Go -> {s['value']}" if s["go_count"] else ""
    bak = f", {' + '.join(baks)} x{2 ** len(baks)}" if baks else ""
    how = "when the last card ended the deal " if r.get("last_card") else ""
    return f"{who} {how}(score {s['base']}{gos}{bak})"


def captured_text(before: dict, after: dict, seat: int) -> str:
    """The cards ``seat`` captured between positions ``before`` and ``after`` (the game's
    ``demo_turn_end``): ``captured [ids]`` or ``captured nothing``."""
    new = sorted(set(after["captured"][seat]) - set(before["captured"][seat]))
    return f"captured {new}" if new else "captured nothing"


def render(view: dict, moves: list[dict] | None = None, names: list[str] | None = None) -> str:
    """The view as plain text: the other player's pile and hand size, the layout, your side."""
    me, opp = view["seat"], 1 - view["seat"]
    if view["over"]:
        head = "Go-Stop: the deal is over: " + result_line(view, names)
    else:
        head = f"Go-Stop: {seat_label(view, view['to_move'], names)} to move: {_decision_line(view)}"

    def side(s: int) -> str:
        gos = f", {view['go_count'][s]} Go at {view['go_score'][s]}" if view["go_count"][s] else ""
        ppuk = f", {view['ppuk_count'][s]} ppuk" if view["ppuk_count"][s] else ""
        return f"score {view['scores'][s]}{gos}{ppuk}; captured {_group_line(view['captured'][s])}"

    lines = [head,
             f"{seat_label(view, opp, names) if names else f'seat {opp}'}: "
             f"{plural(view['hand_sizes'][opp], 'card')} in hand, {side(opp)}",
             f"layout: {_layout_line(view)}",
             f"stock: {plural(view['stock_size'], 'card')}"]
    if view["played"] is not None:
        lines.append(f"played this turn: {card_text(view['played'])}")
    if view["flipped"] is not None:
        lines.append(f"flipped this turn: {card_text(view['flipped'])}")
    lines.append(f"seat {me} (you): {side(me)}")
    lines.append("your hand: " + (", ".join(f"{c} {card_text(c)}" for c in view["hand"]) or "empty"))
    if moves:
        lines.append("moves:")
        lines.extend(move_lines(moves))
    return fit(lines)


def _table(view: dict) -> set[int]:
    """Every face-up card: layout, both captured piles, the cards of the turn in progress."""
    cards = set(view["layout"]) | set(view["captured"][0]) | set(view["captured"][1])
    return cards | {c for c in (view["played"], view["flipped"]) if c is not None}


def explain(before: dict, action: int, after: dict, names: list[str] | None = None) -> dict:
    """One line about ``action`` taken at ``before`` (which led to ``after``), from public cards.

    ``played``/``flipped``/``captured`` list the cards involved, for front-ends to highlight.
    ``names`` (what to call each seat) names the other seat and the winner; by default
    ``you`` and ``seat N``.
    """
    a, m = int(action), before["to_move"]
    out: dict = {"played": None, "flipped": None, "captured": []}
    parts = []
    if a == GO:
        parts.append(f"calls Go #{after['go_count'][m]} at score {after['scores'][m]}")
    elif a == STOP:
        parts.append(f"stops at score {before['scores'][m]}")
    else:
        card = a if a < CHOOSE_START else a - CHOOSE_START
        if a < CHOOSE_START:
            out["played"] = card
            parts.append(f"plays {card_text(card)}")
        else:
            parts.append(f"chooses {card_text(card)}")
        flipped = sorted(_table(after) - _table(before) - {card})
        if flipped:
            out["flipped"] = flipped[0]
            parts.append(f"flips {card_text(flipped[0])}")
        if after["ppuk_count"][m] > before["ppuk_count"][m]:
            parts.append(f"ppuk! (ppuk #{after['ppuk_count'][m]})")
        gained = sorted(set(after["captured"][m]) - set(before["captured"][m]))
        lost = sorted(set(before["captured"][1 - m]) - set(after["captured"][1 - m]))
        won = [c for c in gained if c not in lost]
        if won:
            out["captured"] = won
            parts.append("captures " + ", ".join(card_label(c) for c in won))
        if lost:
            units = int(C.JUNK_UNITS[lost].sum())
            parts.append(f"takes {units} junk from {seat_name(before, 1 - m, names)}")
        choosing = after["decision"] in ("hand_choice", "stock_choice")
        if not after["over"] and after["to_move"] == m and choosing:
            parts.append("must choose which card to take")
        elif after["scores"][m] != before["scores"][m]:
            parts.append(f"score {before['scores'][m]} -> {after['scores'][m]}")
    if after["over"]:
        parts.append(result_line(after, names))
    out["text"] = "; ".join(parts)
    return out


def _card_names(card: int) -> list[str]:
    month, kind = MONTHS[card // 4], card_kind(card)
    names = [card_label(card), f"{month} {kind}", C.CARD_NAMES[card],
             f"{MONTH_FLOWERS[card // 4]} {kind}", f"{MONTH_FLOWERS_KO[card // 4]} {kind}"]
    picture = card_picture(card).split(",")[0].split(":")[0]
    if picture:
        names.append(f"{month} {picture}")
    return names


PLAY_VERBS = ("play", "p")
TAKE_VERBS = ("take", "choose", "t", "c")


def hint(view: dict, moves: list[dict]) -> str:
    """What may be typed now, for a prompt: the words that fit the decision, with examples
    from the cards and move ids of ``moves``."""
    cards = sorted(mv["card"] for mv in moves if "card" in mv)
    d = view["decision"]
    if view["over"] or not moves:
        return "the deal is over"
    if d == "go_stop":
        return f"'go' or 'stop' (or the move ids {GO}, {STOP})"
    if d == "play":
        return (f"'play CARD', a card of your hand by its number ('play {cards[0]}') or name "
                f"('play {_short_name(cards[0])}'), or its number alone")
    choices = " or ".join(f"'take {c}' ({card_label(c)}, move id {c + CHOOSE_START})" for c in cards)
    return f"'take CARD' with the card of the table to take: {choices}"


def _short_name(card: int) -> str:
    return f"{MONTHS[card // 4].lower()} {card_kind(card).split('/')[0]}"


def parse(text: str, view: dict, moves: list[dict]) -> int:
    """The move a person typed: an id, ``go``, ``stop``, or a card: ``play mar bright`` or
    ``play 8`` (card id 8) from the hand, ``take jun ribbon`` or ``take 44`` when choosing a
    card of the table, or just the card's name (``mar junk``).

    A verb must fit the decision: ``play`` only plays a card from the hand, ``take`` only
    chooses.  A name that fits two interchangeable cards (two junk of a month) takes the
    lower id.  Raises ``ValueError`` with the reason (and what may be typed) when the text
    names no legal move.
    """
    words = tokens(text)
    if not words:
        raise ValueError(f"type a move: {hint(view, moves)}")
    legal = {mv["id"] for mv in moves}
    if len(words) == 1 and is_number(words[0]):
        a = int(words[0])
        if a in legal:
            return a
        raise ValueError(_not_a_move_id(a, view, moves))
    verb = words[0]
    if verb in ("go", "stop") and len(words) == 1:
        a = GO if verb == "go" else STOP
        return require_legal(a, moves, f"'{verb}' is possible only when you are asked to go or stop; "
                                       f"type {hint(view, moves)}")
    cards = {mv["card"]: mv["id"] for mv in moves if "card" in mv}
    if not cards:
        raise ValueError(f"you are asked to go or stop: type {hint(view, moves)}")
    playing = view["decision"] == "play"
    if verb in TAKE_VERBS and playing:
        raise ValueError(f"'{verb}' chooses a card of the table after a double match; now you play a "
                         f"card from your hand: type {hint(view, moves)}")
    if verb in PLAY_VERBS and not playing:
        raise ValueError(f"'{verb}' plays a card from your hand; now you choose a card of the table: "
                         f"type {hint(view, moves)}")
    rest = words[1:] if verb in PLAY_VERBS + TAKE_VERBS else words
    if len(rest) == 1 and is_number(rest[0]):
        c = int(rest[0])
        if c in cards:
            return cards[c]
        where = "in your hand" if playing else "to choose"
        raise ValueError(f"card {c} is not {where}; cards {where}: "
                         + ", ".join(f"{k} {card_text(k)}" for k in cards))
    names: dict[str, int] = {}
    for c in sorted(cards):
        for n in _card_names(c):
            names.setdefault(n.replace("★", "").replace("/", " "), c)
    c = match_name(" ".join(rest).replace("★", ""), names, "card",
                   shown=[f"{k} {card_label(k)}" for k in sorted(cards)])
    return cards[c]


def _not_a_move_id(a: int, view: dict, moves: list[dict]) -> str:
    """Why the number ``a`` is no move now, and what may be typed instead."""
    cards = {mv["card"] for mv in moves if "card" in mv}
    if view["decision"] in ("hand_choice", "stock_choice") and a in cards:
        return f"{a} is a card number, not a move id: type 'take {a}' or the move id {a + CHOOSE_START}"
    if view["decision"] == "play" and a < C.NUM_CARDS:
        return (f"card {a} is not in your hand; your hand: "
                + ", ".join(f"{k} {card_text(k)}" for k in sorted(cards)))
    return f"move {a} is not legal now; type {hint(view, moves)}"


def reference() -> dict:
    """The fixed deck table a front-end draws cards with: month, kind, label and picture per id,
    and the :data:`THRESHOLDS` of the captured piles."""
    return {
        "cards": [
            {"id": c, "month": C.month_of(c), "month_name": MONTHS[c // 4],
             "flower": MONTH_FLOWERS[c // 4], "flower_ko": MONTH_FLOWERS_KO[c // 4],
             "kind": card_kind(c), "label": card_label(c), "picture": card_picture(c)}
            for c in range(C.NUM_CARDS)
        ],
        "months": list(MONTHS),
        "thresholds": dict(THRESHOLDS),
    }
