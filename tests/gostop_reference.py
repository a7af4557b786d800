"""Plain-Python reference implementation of two-player Go-Stop (Matgo), one deal at a time.

Written directly from the rules (docs/rules/gostop.md, whose numbered sections the comments below cite) as a
test oracle for the batched engine.  Standard library only; it shares no code with the engine.
Places where the rules had to be interpreted are marked ``INTERPRETATION``.

Public API (used by the differential test):

* constants ``NUM_ACTIONS``, ``PLAY0``, ``CHOOSE0``, ``GO``, ``STOP`` (docs/rules/gostop.md §12.1);
* ``combination_score(ids)`` (docs/rules/gostop.md §7, with the September cup rule of docs/rules/gostop.md §7.2);
* ``transfer(captured_payer, captured_receiver, units)`` (docs/rules/gostop.md §6);
* ``settle(captured_winner, captured_loser, go_count)`` (docs/rules/gostop.md §9.1-9.2);
* ``RefDeal.from_order(order, first_player)`` / ``RefDeal.from_position(pos)``, then
  ``legal_actions()``, ``step(action)``, ``to_position()`` and the public fields described in the
  class docstring.
"""

from __future__ import annotations

import copy
import operator

# ---------------------------------------------------------------------------------------------
# docs/rules/gostop.md §12.1 action ids
# ---------------------------------------------------------------------------------------------

NUM_ACTIONS = 98
PLAY0 = 0  # 0..47: play the hand card with this id
CHOOSE0 = 48  # 48..95: choose the layout card id - 48
GO = 96
STOP = 97

# pending decision names (docs/rules/gostop.md §5.1)
PLAY = "PLAY"
HAND_CHOICE = "HAND_CHOICE"
STOCK_CHOICE = "STOCK_CHOICE"
GO_STOP = "GO_STOP"

# result reasons (docs/rules/gostop.md §12.6)
REASONS = ("stop", "chongtong", "three_ppuk", "nagari")

# ---------------------------------------------------------------------------------------------
# docs/rules/gostop.md §2 deck
# ---------------------------------------------------------------------------------------------

NUM_CARDS = 48
MONTHS = range(1, 13)

# The card table of docs/rules/gostop.md §2: id -> (month, kind).  Kinds: BRIGHT, ANIMAL, RIBBON, DOUBLE_JUNK, JUNK.
CARD_KIND = {
    0: "BRIGHT", 1: "RIBBON", 2: "JUNK", 3: "JUNK",  # 1 Jan pine
    4: "ANIMAL", 5: "RIBBON", 6: "JUNK", 7: "JUNK",  # 2 Feb plum
    8: "BRIGHT", 9: "RIBBON", 10: "JUNK", 11: "JUNK",  # 3 Mar cherry
    12: "ANIMAL", 13: "RIBBON", 14: "JUNK", 15: "JUNK",  # 4 Apr wisteria
    16: "ANIMAL", 17: "RIBBON", 18: "JUNK", 19: "JUNK",  # 5 May iris
    20: "ANIMAL", 21: "RIBBON", 22: "JUNK", 23: "JUNK",  # 6 Jun peony
    24: "ANIMAL", 25: "RIBBON", 26: "JUNK", 27: "JUNK",  # 7 Jul bush clover
    28: "BRIGHT", 29: "ANIMAL", 30: "JUNK", 31: "JUNK",  # 8 Aug pampas
    32: "ANIMAL", 33: "RIBBON", 34: "JUNK", 35: "JUNK",  # 9 Sep chrysanthemum (32 = cup)
    36: "ANIMAL", 37: "RIBBON", 38: "JUNK", 39: "JUNK",  # 10 Oct maple
    40: "BRIGHT", 41: "DOUBLE_JUNK", 42: "JUNK", 43: "JUNK",  # 11 Nov paulownia
    44: "BRIGHT", 45: "ANIMAL", 46: "RIBBON", 47: "DOUBLE_JUNK",  # 12 Dec rain
}

# Derived sets, from the card table of docs/rules/gostop.md §2.
BRIGHTS = frozenset({0, 8, 28, 40, 44})
RAIN_BRIGHT = 44
CUP = 32
ANIMALS = frozenset({4, 12, 16, 20, 24, 29, 32, 36, 45})
GODORI = frozenset({4, 12, 29})
RIBBONS = frozenset({1, 5, 9, 13, 17, 21, 25, 33, 37, 46})
HONGDAN = frozenset({1, 5, 9})
CHEONGDAN = frozenset({21, 33, 37})
CHODAN = frozenset({13, 17, 25})
DOUBLE_JUNK = frozenset({41, 47})
SINGLE_JUNK = frozenset({2, 3, 6, 7, 10, 11, 14, 15, 18, 19, 22, 23, 26, 27, 30, 31, 34, 35, 38,
                         39, 42, 43})
TRANSFERABLE_JUNK = SINGLE_JUNK | DOUBLE_JUNK  # the cup 32 is never transferable


def month(card: int) -> int:
    """docs/rules/gostop.md §2: month(id) = id // 4 + 1."""
    return card // 4 + 1


def month_ids(m: int) -> range:
    """The four ids of month m (docs/rules/gostop.md §2)."""
    return range(4 * (m - 1), 4 * (m - 1) + 4)


# ---------------------------------------------------------------------------------------------
# docs/rules/gostop.md §7 combination score
# ---------------------------------------------------------------------------------------------

ANIMAL_CLASS = "animal"
JUNK_CLASS = "junk"


def score_breakdown(captured, cup_class: str = ANIMAL_CLASS) -> dict:
    """docs/rules/gostop.md §7.1 categories for captured set C and cup classification k in {animal, junk}."""
    c = set(captured)
    b = len(c & BRIGHTS)
    if b == 5:
        bright_pts = 15
    elif b == 4:
        bright_pts = 4  # docs/rules/gostop.md §7.1; the rain man does not lower four brights
    elif b == 3:
        bright_pts = 2 if RAIN_BRIGHT in c else 3
    else:
        bright_pts = 0
    a = len(c & (ANIMALS - {CUP})) + (1 if CUP in c and cup_class == ANIMAL_CLASS else 0)
    animal_pts = max(0, a - 4) + (5 if GODORI <= c else 0)
    r = len(c & RIBBONS)
    ribbon_pts = (max(0, r - 4) + 3 * (HONGDAN <= c) + 3 * (CHEONGDAN <= c)
                  + 3 * (CHODAN <= c))
    u = (len(c & SINGLE_JUNK) + 2 * len(c & DOUBLE_JUNK)
         + (2 if CUP in c and cup_class == JUNK_CLASS else 0))
    junk_pts = max(0, u - 9)
    return {
        "brights": b, "bright_pts": bright_pts,
        "animals": a, "animal_pts": animal_pts,
        "ribbons": r, "ribbon_pts": ribbon_pts,
        "junk_units": u, "junk_pts": junk_pts,
        "total": bright_pts + animal_pts + ribbon_pts + junk_pts,
    }


def cup_classification(captured) -> str:
    """The cup counts as whichever class gives the higher total; a tie (and no cup) -> animal
    (docs/rules/gostop.md §7.2)."""
    c = set(captured)
    if CUP not in c:
        return ANIMAL_CLASS
    as_animal = score_breakdown(c, ANIMAL_CLASS)["total"]
    as_junk = score_breakdown(c, JUNK_CLASS)["total"]
    return JUNK_CLASS if as_junk > as_animal else ANIMAL_CLASS


def combination_score(captured_ids) -> int:
    """docs/rules/gostop.md §7.2: max(total(C, animal), total(C, junk)) as a plain int (any iterable of ids)."""
    c = set(captured_ids)
    return int(score_breakdown(c, cup_classification(c))["total"])


# ---------------------------------------------------------------------------------------------
# docs/rules/gostop.md §6 junk transfer
# ---------------------------------------------------------------------------------------------

def junk_value(card: int) -> int:
    """Units a transferable junk card pays: 2 for the double junks 41/47, 1 for single junk."""
    return 2 if card in DOUBLE_JUNK else 1


def transfer(captured_payer: set, captured_receiver: set, units: int) -> list:
    """docs/rules/gostop.md §6: one greedy pass; moves cards between the two sets in place, returns the moved ids.

    Lowest value first, then lowest id (docs/rules/gostop.md §6); a double junk may over-pay (no change); an
    empty payer pays nothing (the remainder is forgiven); the cup 32 is never transferred.
    """
    moved = []
    while units > 0:
        cands = [c for c in captured_payer if c in TRANSFERABLE_JUNK]
        if not cands:
            break
        c = min(cands, key=lambda x: (junk_value(x), x))
        captured_payer.remove(c)
        captured_receiver.add(c)
        moved.append(c)
        units -= junk_value(c)
    return moved


# ---------------------------------------------------------------------------------------------
# docs/rules/gostop.md §9 settlement
# ---------------------------------------------------------------------------------------------

def protective_units(captured_loser) -> int:
    """docs/rules/gostop.md §9.2: the loser's junk units for pi-bak; the loser's cup always counts as 2 units."""
    c = set(captured_loser)
    return len(c & SINGLE_JUNK) + 2 * len(c & DOUBLE_JUNK) + (2 if CUP in c else 0)


def settle_breakdown(captured_winner, captured_loser, go_count: int) -> dict:
    """docs/rules/gostop.md §9.1-9.2 with all intermediate values (base, value, each bak, payout)."""
    w = set(captured_winner)
    lo = set(captured_loser)
    k = cup_classification(w)
    parts = score_breakdown(w, k)
    base = parts["total"]  # equals combination_score(w)
    g = go_count
    if g <= 2:
        value = base + g  # 0 Gos: base, 1 Go: +1, 2 Gos: +2
    else:
        value = base * 2 ** (g - 2)  # docs/rules/gostop.md §9.1: no +2 from the third Go on
    gwang_bak = parts["bright_pts"] > 0 and len(lo & BRIGHTS) == 0
    meong_bak = parts["animals"] >= 7  # under the winner's chosen classification
    pi_bak = parts["junk_pts"] > 0 and protective_units(lo) < 5  # 0 units is pi-bak too (docs/rules/gostop.md §9.2)
    baks = int(gwang_bak) + int(meong_bak) + int(pi_bak)
    return {
        "cup_class": k, "base": base, "value": value,
        "gwang_bak": gwang_bak, "meong_bak": meong_bak, "pi_bak": pi_bak,
        "payout": value * 2 ** baks,
    }


def settle(captured_winner, captured_loser, go_count: int) -> int:
    """docs/rules/gostop.md §9.1-9.2: the Stop payout the loser pays the winner."""
    return int(settle_breakdown(captured_winner, captured_loser, go_count)["payout"])


def eligible(score: int, go_count: int, go_score: int) -> bool:
    """docs/rules/gostop.md §8.1: >= 7 before the first Go, strictly above the last Go's score afterwards."""
    if go_count == 0:
        return score >= 7
    return score > go_score


# ---------------------------------------------------------------------------------------------
# helpers for validation
# ---------------------------------------------------------------------------------------------

POSITION_KEYS = ("to_move", "hands", "layout", "ppuk_owner", "stock", "captured", "go_count",
                 "go_score", "ppuk_count")


def _is_int(x) -> bool:
    # INTERPRETATION (docs/rules/gostop.md §12.5: a card id is an int): Python ints only; bool is not
    # accepted as an int.
    return isinstance(x, int) and not isinstance(x, bool)


def _as_list(x, what: str) -> list:
    if not isinstance(x, (list, tuple)):
        raise ValueError(f"position: {what} must be a list, got {type(x).__name__}")
    return list(x)


def _pair_of_lists(x, what: str) -> list:
    outer = _as_list(x, what)
    if len(outer) != 2:
        raise ValueError(f"position: {what} must hold exactly 2 lists, got {len(outer)}")
    return [_as_list(inner, f"{what}[{i}]") for i, inner in enumerate(outer)]


def _pair_of_ints(x, what: str) -> list:
    vals = _as_list(x, what)
    if len(vals) != 2:
        raise ValueError(f"position: {what} must hold exactly 2 values, got {len(vals)}")
    for i, v in enumerate(vals):
        if not _is_int(v):
            raise ValueError(f"position: {what}[{i}] must be an int, got {v!r}")
    return vals


def _parse_month_key(key) -> int:
    if _is_int(key):
        m = key
    elif isinstance(key, str) and key.strip().isdigit():
        m = int(key.strip())
    else:
        raise ValueError(f"position: ppuk_owner key {key!r} is not a month number")
    if m not in MONTHS:
        raise ValueError(f"position: ppuk_owner month {key!r} is not in 1..12")
    return m


# ---------------------------------------------------------------------------------------------
# the deal
# ---------------------------------------------------------------------------------------------

class RefDeal:
    """One deal of two-player Go-Stop.

    Public fields (read them, do not write them):

    * ``hands``: [set, set] by seat; ``layout``: set of face-up ids; ``ppuk_owner``: {month: seat}
      for 3-card layout piles that are ppuk stacks (a 3-card month not in it is a dealt triple);
      ``stock``: list, top first; ``captured``: [set, set]; ``go_count``, ``go_score``,
      ``ppuk_count``: two-element lists by seat.
    * ``to_move``: seat of the mover (after the end: the last mover); ``pending``: "PLAY",
      "HAND_CHOICE", "STOCK_CHOICE", "GO_STOP" or None (terminal, or a redeal from ``from_order``);
      ``flipped``: the card flipped this turn during STOCK_CHOICE / GO_STOP, else None;
      ``result``: None or {"winner", "payout", "reason"}; ``setup``: "play", "redeal" or
      "chongtong" (positions: "play").
    * ``in_flight``: cards of the current, unfinished turn that are in none of the sets above
      (pending captures during STOCK_CHOICE, and the flipped card while it is being matched).
      Card accounting: hands + layout + stock + captured + in_flight = all 48 ids at every step.
    * ``turns``: number of PLAY decisions taken so far; ``last_turn``: a dict describing the last
      completed turn (captures, bonuses, triples, debt, transferred cards), for debugging diffs.

    INTERPRETATION -- mid-turn state (an internal choice of this implementation, following the order of
    docs/rules/gostop.md §5.10): at PLAY the hand card leaves the hand.  During HAND_CHOICE
    nothing else has changed yet (no flip).  After the flip the hand step is applied to the layout
    in that order (a placed card is on the layout; a pending pair / triple capture has left the
    layout and waits in ``in_flight``), the flipped card leaves the stock; captures move to
    ``captured`` only at resolution (docs/rules/gostop.md §5.4).
    """

    # ---------------- construction ----------------

    def __init__(self):
        self.hands = [set(), set()]
        self.layout = set()
        self.ppuk_owner = {}
        self.stock = []
        self.captured = [set(), set()]
        self.go_count = [0, 0]
        self.go_score = [0, 0]
        self.ppuk_count = [0, 0]
        self.to_move = 0
        self.first_player = None
        self.pending = None
        self.flipped = None
        self.result = None
        self.setup = "play"
        self.turns = 0
        self.last_turn = None
        self._t = None  # partial turn state (dict) while a turn is in progress

    @classmethod
    def from_order(cls, order, first_player: int) -> "RefDeal":
        """Deal the 48-id permutation ``order`` (docs/rules/gostop.md §12.4) and apply the checks of
        docs/rules/gostop.md §3.3 in order."""
        order = list(order)
        if len(order) != NUM_CARDS or not all(_is_int(c) for c in order) \
                or sorted(order) != list(range(NUM_CARDS)):
            raise ValueError("order must be a permutation of the ids 0..47")
        if not _is_int(first_player) or first_player not in (0, 1):
            raise ValueError(f"first_player must be 0 or 1, got {first_player!r}")
        d = cls()
        p0, p1 = first_player, 1 - first_player
        d.first_player = first_player
        d.hands[p0] = set(order[0:10])
        d.hands[p1] = set(order[10:20])
        d.layout = set(order[20:28])
        d.stock = list(order[28:48])  # stock[0] = order[28] is the top
        d.to_move = p0

        def has_quad(cards):
            return any(all(c in cards for c in month_ids(m)) for m in MONTHS)

        # docs/rules/gostop.md §3.3, checked in this order before any turn
        if has_quad(d.layout):  # 1. layout quad -> redeal (docs/rules/gostop.md §3.3)
            d.setup = "redeal"
            d.pending = None
            return d
        quad_seats = [seat for seat in (p0, p1) if has_quad(d.hands[seat])]
        if len(quad_seats) == 2:  # 2. both hands hold a quad -> redeal
            d.setup = "redeal"
            d.pending = None
            return d
        if len(quad_seats) == 1:  # 3. chongtong: immediate win, flat 5 (docs/rules/gostop.md §3.3)
            d.setup = "chongtong"
            d.pending = None
            # INTERPRETATION: no turn was played; to_move stays P0 (the first player) in the export.
            d.result = {"winner": quad_seats[0], "payout": 5, "reason": "chongtong"}
            return d
        d.setup = "play"  # 4. play starts with P0
        d.pending = PLAY
        return d

    @classmethod
    def from_position(cls, pos) -> "RefDeal":
        """Load a position dict, validated exactly as docs/rules/gostop.md §12.5 lists (ValueError otherwise)."""
        if not isinstance(pos, dict):
            raise ValueError("position must be a dict")
        missing = [k for k in POSITION_KEYS if k not in pos]
        if missing:
            raise ValueError(f"position: missing key(s) {missing}")
        # INTERPRETATION (docs/rules/gostop.md §12.5: a key or list length is wrong): keys other than the
        # shown ones and the optional "result" are rejected.
        unknown = [k for k in pos if k not in POSITION_KEYS and k != "result"]
        if unknown:
            raise ValueError(f"position: unknown key(s) {unknown}")

        hands = _pair_of_lists(pos["hands"], "hands")
        captured = _pair_of_lists(pos["captured"], "captured")
        layout = _as_list(pos["layout"], "layout")
        stock = _as_list(pos["stock"], "stock")
        go_count = _pair_of_ints(pos["go_count"], "go_count")
        go_score = _pair_of_ints(pos["go_score"], "go_score")
        ppuk_count = _pair_of_ints(pos["ppuk_count"], "ppuk_count")
        to_move = pos["to_move"]

        # ids are ints in 0..47, each at most once across all lists
        named_lists = [("hands[0]", hands[0]), ("hands[1]", hands[1]), ("layout", layout),
                       ("stock", stock), ("captured[0]", captured[0]),
                       ("captured[1]", captured[1])]
        seen = {}
        for name, ids in named_lists:
            for c in ids:
                if not _is_int(c):
                    raise ValueError(f"position: {name} holds a non-int id {c!r}")
                if not 0 <= c < NUM_CARDS:
                    raise ValueError(f"position: {name} holds id {c} outside 0..47")
                if c in seen:
                    raise ValueError(f"position: id {c} appears more than once "
                                     f"({seen[c]} and {name})")
                seen[c] = name

        # a month holds at most 3 layout cards
        per_month = {m: [c for c in layout if month(c) == m] for m in MONTHS}
        for m, cards in per_month.items():
            if len(cards) > 3:
                raise ValueError(f"position: layout holds {len(cards)} cards of month {m} "
                                 f"(at most 3)")

        # every ppuk_owner month holds exactly 3 layout cards and its owner is 0 or 1
        raw_owner = pos["ppuk_owner"]
        if not isinstance(raw_owner, dict):
            raise ValueError("position: ppuk_owner must be a dict month -> owner")
        ppuk_owner = {}
        for key, owner in raw_owner.items():
            m = _parse_month_key(key)
            if m in ppuk_owner:
                raise ValueError(f"position: ppuk_owner lists month {m} twice")
            if not _is_int(owner) or owner not in (0, 1):
                raise ValueError(f"position: ppuk_owner owner of month {m} must be 0 or 1, "
                                 f"got {owner!r}")
            if len(per_month[m]) != 3:
                raise ValueError(f"position: ppuk_owner month {m} holds {len(per_month[m])} "
                                 f"layout cards, not 3")
            ppuk_owner[m] = owner

        has_result = "result" in pos
        result = None
        if has_result:
            # INTERPRETATION: docs/rules/gostop.md §12.6 only gives the result's fields; we check that shape
            # (keys winner/payout/reason, winner seat or None, payout int >= 0, a known reason).
            r = pos["result"]
            if not isinstance(r, dict) or set(r) != {"winner", "payout", "reason"}:
                raise ValueError("position: result must be a dict with keys winner, payout, "
                                 "reason")
            if not (r["winner"] is None or (_is_int(r["winner"]) and r["winner"] in (0, 1))):
                raise ValueError(f"position: result winner must be 0, 1 or None, "
                                 f"got {r['winner']!r}")
            if not _is_int(r["payout"]) or r["payout"] < 0:
                raise ValueError(f"position: result payout must be an int >= 0, "
                                 f"got {r['payout']!r}")
            if r["reason"] not in REASONS:
                raise ValueError(f"position: result reason {r['reason']!r} is not one of "
                                 f"{REASONS}")
            result = {"winner": r["winner"], "payout": r["payout"], "reason": r["reason"]}

        # to_move is 0 or 1 and that seat holds at least one card (unless a result is given)
        if not _is_int(to_move) or to_move not in (0, 1):
            raise ValueError(f"position: to_move must be 0 or 1, got {to_move!r}")
        if not has_result and not hands[to_move]:
            raise ValueError(f"position: to_move seat {to_move} holds no hand card")

        for seat in (0, 1):
            if go_count[seat] < 0:
                raise ValueError(f"position: go_count[{seat}] = {go_count[seat]} is negative")
            if go_score[seat] < 0:
                raise ValueError(f"position: go_score[{seat}] = {go_score[seat]} is negative")
            if go_count[seat] == 0 and go_score[seat] != 0:
                raise ValueError(f"position: go_score[{seat}] = {go_score[seat]} must be 0 "
                                 f"when go_count[{seat}] is 0")
            # INTERPRETATION: docs/rules/gostop.md §12.5 says a ppuk count is in 0..2 (3 ends the deal); a terminal
            # position (with "result", e.g. the export of a three-ppuk end) may hold 3.
            top = 3 if has_result else 2
            if not 0 <= ppuk_count[seat] <= top:
                raise ValueError(f"position: ppuk_count[{seat}] = {ppuk_count[seat]} is not in "
                                 f"0..{top}")

        d = cls()
        d.hands = [set(hands[0]), set(hands[1])]
        d.layout = set(layout)
        d.ppuk_owner = ppuk_owner
        # docs/rules/gostop.md §4: cards in no list go to the bottom of the stock in ascending id order
        d.stock = list(stock) + [c for c in range(NUM_CARDS) if c not in seen]
        d.captured = [set(captured[0]), set(captured[1])]
        d.go_count = list(go_count)
        d.go_score = list(go_score)
        d.ppuk_count = list(ppuk_count)
        d.to_move = to_move
        d.setup = "play"  # positions never run the docs/rules/gostop.md §3.3 checks
        if has_result:
            d.result = result
            d.pending = None
        else:
            d.pending = PLAY
        return d

    def clone(self) -> "RefDeal":
        return copy.deepcopy(self)

    # ---------------- export ----------------

    def to_position(self) -> dict:
        """Position export (docs/rules/gostop.md §12.5); defined at PLAY decisions and at the end of a deal
        (ValueError elsewhere)."""
        if self.result is None and self.pending != PLAY:
            if self.pending is None:
                raise ValueError("to_position: the deal was redealt (no position)")
            raise ValueError(f"to_position is only defined at a PLAY decision or at the end of a "
                             f"deal, not at {self.pending}")
        pos = {
            "to_move": self.to_move,
            "hands": [sorted(self.hands[0]), sorted(self.hands[1])],
            "layout": sorted(self.layout),
            "ppuk_owner": {str(m): self.ppuk_owner[m] for m in sorted(self.ppuk_owner)},
            "stock": list(self.stock),
            "captured": [sorted(self.captured[0]), sorted(self.captured[1])],
            "go_count": list(self.go_count),
            "go_score": list(self.go_score),
            "ppuk_count": list(self.ppuk_count),
        }
        if self.result is not None:
            pos["result"] = dict(self.result)
        return pos

    # ---------------- queries ----------------

    @property
    def terminal(self) -> bool:
        return self.result is not None

    @property
    def in_flight(self) -> list:
        t = self._t
        if t is None:
            return []
        if self.pending == HAND_CHOICE:
            return [t["h"]]  # left the hand, not yet matched
        if self.pending == STOCK_CHOICE:
            cards = [c for group in t["groups"] for c in group]
            return sorted(cards + [t["s"]])  # pending captures and the flipped card
        return []  # GO_STOP: everything is resolved

    def layout_month(self, m: int) -> list:
        return sorted(c for c in self.layout if month(c) == m)

    def score(self, seat: int) -> int:
        return combination_score(self.captured[seat])

    def legal_actions(self) -> list:
        if self.result is not None or self.pending is None:
            return []
        if self.pending == PLAY:
            return sorted(PLAY0 + c for c in self.hands[self.to_move])
        if self.pending in (HAND_CHOICE, STOCK_CHOICE):
            return sorted(CHOOSE0 + c for c in self._t["candidates"])
        if self.pending == GO_STOP:
            return [GO, STOP]
        raise AssertionError(self.pending)

    # ---------------- stepping ----------------

    def step(self, action) -> None:
        """Apply one decision; ValueError (state unchanged) for an illegal or wrong-typed action."""
        if self.result is not None or self.pending is None:
            raise ValueError(f"step({action!r}): no decision is pending (the deal is over or "
                             f"was redealt)")
        # INTERPRETATION (docs/interface.md §4): any integer with __index__ (int, numpy integer,
        # 0-d integer array) is accepted; bool, float, str, None are wrong types.
        if isinstance(action, bool):
            raise ValueError(f"step: action {action!r} is a bool, not an action id")
        try:
            a = operator.index(action)
        except TypeError:
            raise ValueError(f"step: action {action!r} is not an integer action id") from None
        legal = self.legal_actions()
        if a not in legal:
            raise ValueError(f"step: action {a} is illegal at {self.pending}; legal: {legal}")
        if self.pending == PLAY:
            self._play(a - PLAY0)
        elif self.pending == HAND_CHOICE:
            self._hand_choice(a - CHOOSE0)
        elif self.pending == STOCK_CHOICE:
            self._stock_choice(a - CHOOSE0)
        else:
            self._go_stop(a)

    # docs/rules/gostop.md §5.2 play step
    def _play(self, h: int) -> None:
        p = self.to_move
        last = len(self.hands[p]) == 1  # docs/rules/gostop.md §5.9, measured at the start of the turn
        self.turns += 1
        self.hands[p].remove(h)
        mh = month(h)
        L = self.layout_month(mh)
        n = len(L)
        t = {
            "p": p, "o": 1 - p, "last": last, "h": h, "mh": mh, "L": L, "n": n,
            "mode": None, "pair": None, "pair_committed": False, "hand_choice": None,
            "s": None, "stock_choice": None, "candidates": None,
            "groups": [], "triples": [], "bonus": [], "made_ppuk": False,
        }
        self._t = t
        if n == 0:
            self.layout.add(h)  # placed
            t["mode"] = "placed"
        elif n == 1:
            t["pair"] = [h, L[0]]  # pending pair
            t["mode"] = "pair"
        elif n == 2:
            t["mode"] = "two"  # HAND_CHOICE before the flip (docs/rules/gostop.md §5.1 step 2)
            t["candidates"] = list(L)
            self.pending = HAND_CHOICE
            return
        else:  # n == 3: dealt triple or ppuk stack -> pending capture of 4 cards
            t["groups"].append([h] + L)
            t["triples"].append(self.ppuk_owner.pop(mh, None))  # None = dealt triple
            self.layout.difference_update(L)
            t["mode"] = "triple"
        self._flip()

    def _hand_choice(self, c: int) -> None:
        t = self._t
        t["hand_choice"] = c
        t["pair"] = [t["h"], c]
        t["candidates"] = None
        self._flip()

    # docs/rules/gostop.md §5.3 flip step
    def _flip(self) -> None:
        t = self._t
        p, h, mh, mode, L = t["p"], t["h"], t["mh"], t["mode"], t["L"]
        if not self.stock:
            # INTERPRETATION: docs/rules/gostop.md §5.8 promises a stock card for every turn of a real deal,
            # but a loaded position may list all 48 cards with a short stock.  Then there is no flip: the hand
            # step resolves on its own (as in case B with nothing to match).
            self._commit_hand_step()
            self._resolve()
            return
        s = self.stock.pop(0)
        t["s"] = s
        self.flipped = s
        ms = month(s)
        if ms == mh:  # case A
            if mode == "placed":  # chok
                t["groups"].append([h, s])
                self.layout.discard(h)
                t["bonus"].append("chok")
            elif mode == "pair":  # ppuk: h, the layout card and s stay as a ppuk stack
                self.layout.add(h)
                self.layout.add(s)
                self.ppuk_owner[mh] = p
                self.ppuk_count[p] += 1
                t["made_ppuk"] = True
                t["pair_committed"] = True  # the pending pair is cancelled
            elif mode == "two":  # ttadak: all four
                t["groups"].append([h, s] + L)
                self.layout.difference_update(L)
                t["bonus"].append("ttadak")
            else:
                raise AssertionError("case A with a triple is impossible")
            self._resolve()
            return
        # case B: the hand step stands; match s like the play step
        self._commit_hand_step()
        M = self.layout_month(ms)
        if len(M) == 0:
            self.layout.add(s)
        elif len(M) == 1:
            t["groups"].append([s, M[0]])
            self.layout.discard(M[0])
        elif len(M) == 2:
            t["candidates"] = list(M)
            self.pending = STOCK_CHOICE
            return
        else:
            t["groups"].append([s] + M)
            t["triples"].append(self.ppuk_owner.pop(ms, None))
            self.layout.difference_update(M)
        self._resolve()

    def _commit_hand_step(self) -> None:
        """A pending pair from the hand step leaves the layout into the captures once the flipped
        card turns out to be of another month (docs/rules/gostop.md §5.3)."""
        t = self._t
        if t["mode"] in ("pair", "two") and not t["pair_committed"]:
            t["groups"].append(list(t["pair"]))
            self.layout.discard(t["pair"][1])
            t["pair_committed"] = True

    def _stock_choice(self, c: int) -> None:
        t = self._t
        t["stock_choice"] = c
        t["candidates"] = None
        t["groups"].append([t["s"], c])
        self.layout.discard(c)
        self._resolve()

    # docs/rules/gostop.md §5.4-5.7
    def _resolve(self) -> None:
        t = self._t
        p, o = t["p"], t["o"]
        self.pending = None
        # docs/rules/gostop.md §5.6 three ppuks (a ppuk turn captures nothing, so nothing is lost by ending here)
        if t["made_ppuk"] and self.ppuk_count[p] == 3:
            self._record_turn(debt=0, moved=[])
            self._end(p, 5, "three_ppuk")
            return
        # docs/rules/gostop.md §5.4 resolution
        for group in t["groups"]:
            self.captured[p].update(group)
        # docs/rules/gostop.md §5.5 junk bonuses
        if t["groups"] and not self.layout:
            # docs/rules/gostop.md §5.5: sseul, the layout is empty after the turn's captures
            t["bonus"].append("sseul")
        if t["last"]:
            # docs/rules/gostop.md §5.9: no junk for ttadak, chok, sseul on the mover's last turn
            t["bonus"] = [b for b in t["bonus"] if b not in ("chok", "ttadak", "sseul")]
        debt = len(t["bonus"]) + sum(2 if owner == p else 1 for owner in t["triples"])
        moved = transfer(self.captured[o], self.captured[p], debt) if debt > 0 else []
        self._record_turn(debt=debt, moved=moved)
        # docs/rules/gostop.md §5.7 Go / Stop check, only for the mover; per docs/rules/gostop.md §5.10 it runs after every
        # turn that did not end the deal (also after a ppuk turn that captured nothing).
        if eligible(self.score(p), self.go_count[p], self.go_score[p]):
            if t["last"]:
                self._stop()  # docs/rules/gostop.md §8.3: forced Stop on the last turn
                return
            self.pending = GO_STOP
            return
        self._end_turn()

    def _record_turn(self, debt: int, moved: list) -> None:
        t = self._t
        self.last_turn = {
            "mover": t["p"], "hand_card": t["h"], "hand_choice": t["hand_choice"],
            "flipped": t["s"], "stock_choice": t["stock_choice"],
            "captured": sorted(c for g in t["groups"] for c in g) if not t["made_ppuk"] else [],
            "bonus": list(t["bonus"]), "triples": list(t["triples"]),
            "made_ppuk": t["made_ppuk"], "last": t["last"], "debt": debt,
            "transferred": list(moved),
        }

    def _go_stop(self, a: int) -> None:
        p = self._t["p"]
        if a == GO:  # docs/rules/gostop.md §8.2
            self.go_count[p] += 1
            self.go_score[p] = self.score(p)
            self._end_turn()
        else:  # docs/rules/gostop.md §8.3
            self._stop()

    def _stop(self) -> None:
        p = self._t["p"]
        o = 1 - p
        payout = settle(self.captured[p], self.captured[o], self.go_count[p])
        self._end(p, payout, "stop")

    # docs/rules/gostop.md §5.8 end of turn
    def _end_turn(self) -> None:
        p, o = self._t["p"], self._t["o"]
        self.flipped = None
        self._t = None
        if not self.hands[0] and not self.hands[1]:
            self.to_move = p  # the last mover
            self._set_result(None, 0, "nagari")
            return
        # docs/rules/gostop.md §5.8: the turn passes to the other seat if it holds a card, else the
        # mover moves again when the other seat holds no card (loaded positions only).
        self.to_move = o if self.hands[o] else p
        self.pending = PLAY

    def _end(self, winner, payout: int, reason: str) -> None:
        self.to_move = self._t["p"]
        self.flipped = None
        self._t = None
        self._set_result(winner, payout, reason)

    def _set_result(self, winner, payout: int, reason: str) -> None:
        self.pending = None
        self.result = {"winner": winner, "payout": int(payout), "reason": reason}

    # ---------------- convenience ----------------

    def rewards(self) -> list:
        """Per-seat terminal rewards: +payout winner, -payout loser (0/0 on nagari)."""
        if self.result is None or self.result["winner"] is None:
            return [0, 0]
        w = self.result["winner"]
        r = [0, 0]
        r[w] = self.result["payout"]
        r[1 - w] = -self.result["payout"]
        return r

    def all_cards(self) -> list:
        """Every card id exactly where it is (for the 48-card accounting check)."""
        cards = list(self.hands[0]) + list(self.hands[1]) + list(self.layout) + list(self.stock)
        cards += list(self.captured[0]) + list(self.captured[1]) + self.in_flight
        return cards
