"""Combination score (docs/rules/gostop.md §7), junk transfer (docs/rules/gostop.md §6) and Stop settlement
(docs/rules/gostop.md §9), pure functions.

The batched functions take card sets as uint64 bitmasks (see :mod:`.cards`) and work
on any array shape (scores come from lookup tables built at import from the rules of
docs/rules/gostop.md §7); :func:`combination_score` and :func:`stop_settlement` are the
plain-Python entry points over card ids.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..core.validate import require_int
from . import cards as C
from .cards import U64, popcount

CHONGTONG_PAYOUT = 5
THREE_PPUK_PAYOUT = 5
GO_THRESHOLD = 7
GO_BUDGET = 48
"""Our bound on a seat's ``go_count`` plus the cards in its hand (positions and
:func:`stop_settlement` check it).  Every Go follows a turn that played a hand card, so
play never raises the sum: whatever the engine reaches loads again, and payouts stay
exact integers (below 2**56)."""


# ---------------------------------------------------------------------------------------
# Scoring by table lookup.  Each card adds to some of these counters, packed in one int:
#   bits  0-2 brights      3 rain man     | 4-7 ribbons, 8-9 hongdan, 10-11 cheongdan,
#   12-13 chodan           | 14-15 godori birds, 16-19 animals except the cup, 20 the cup,
#   21-25 junk units without the cup.
# Every counter fits its field, so the packed counts of a set are the sum of six per-byte
# table entries.  The score is then three lookups: the bright part (bits 0-3), the ribbon
# part (bits 4-13) and the rest (bits 14-25: godori, animals, cup and junk, where the cup
# choice of docs/rules/gostop.md §7.2 happens).
_FIELDS = {"brights": 0, "rain": 3, "ribbons": 4, "hongdan": 8, "cheongdan": 10, "chodan": 12,
           "godori": 14, "animals": 16, "cup": 20, "junk": 21}


def _card_increment(c: int) -> int:
    inc = 0
    for name, member in (("brights", c in C.BRIGHTS), ("rain", c == C.RAIN_BRIGHT),
                         ("ribbons", c in C.RIBBONS), ("hongdan", c in C.HONGDAN),
                         ("cheongdan", c in C.CHEONGDAN), ("chodan", c in C.CHODAN),
                         ("godori", c in C.GODORI), ("animals", c in C.ANIMALS and c != C.CUP),
                         ("cup", c == C.CUP)):
        inc += int(member) << _FIELDS[name]
    return inc + (int(C.JUNK_UNITS[c]) << _FIELDS["junk"])


_INC = [_card_increment(c) for c in range(48)]
_BYTE_TABLES = np.array(
    [[sum(_INC[8 * j + i] for i in range(8) if v >> i & 1) for v in range(256)] for j in range(6)],
    dtype=np.int32,
)


def _bright_points(key: int) -> int:
    b, rain = key & 7, key >> 3
    return 15 if b == 5 else 4 if b == 4 else (2 if rain else 3) if b == 3 else 0


def _ribbon_points(key: int) -> int:
    r, sets = key & 15, [(key >> s) & 3 for s in (4, 6, 8)]
    return max(0, r - 4) + sum(3 for n in sets if n == 3)


def _rest(key: int) -> tuple[int, bool, int, int]:
    """(points, cup_as_junk, animals, junk points) of the godori/animal/cup/junk counters."""
    g, a0, cup, u0 = key & 3, (key >> 2) & 15, (key >> 6) & 1, key >> 7
    godori = 5 if g == 3 else 0
    as_animal = max(0, a0 + cup - 4) + max(0, u0 - 9)
    as_junk = max(0, a0 - 4) + max(0, u0 + 2 * cup - 9)
    if as_junk > as_animal:  # a tie keeps the cup an animal
        return godori + as_junk, True, a0, max(0, u0 + 2 * cup - 9)
    return godori + as_animal, False, a0 + cup, max(0, u0 - 9)


_BRIGHT_PTS = np.array([_bright_points(k) for k in range(16)], dtype=np.int16)
_RIBBON_PTS = np.array([_ribbon_points(k) for k in range(1024)], dtype=np.int16)
_REST = [_rest(k) for k in range(4096)]
_REST_PTS = np.array([r[0] for r in _REST], dtype=np.int16)
_REST_CUP_JUNK = np.array([r[1] for r in _REST], dtype=bool)
_REST_ANIMALS = np.array([r[2] for r in _REST], dtype=np.int16)
_REST_JUNK_PTS = np.array([r[3] for r in _REST], dtype=np.int16)


def _packed_counts(captured) -> np.ndarray:
    x = np.ascontiguousarray(captured, dtype="<u8")
    b = x.view(np.uint8).reshape(x.shape + (8,))
    t = _BYTE_TABLES
    return t[0][b[..., 0]] + t[1][b[..., 1]] + t[2][b[..., 2]] + t[3][b[..., 3]] \
        + t[4][b[..., 4]] + t[5][b[..., 5]]


def scores(captured) -> np.ndarray:
    """Combination scores (int16) of uint64 card sets, any shape (docs/rules/gostop.md §7 with the cup rule)."""
    p = _packed_counts(captured)
    return _BRIGHT_PTS[p & 15] + _RIBBON_PTS[(p >> 4) & 1023] + _REST_PTS[p >> 14]


@dataclass(frozen=True)
class Breakdown:
    """Category points of captured sets under the September-cup rule (arrays, same shape).

    ``score`` is the combination score; ``cup_as_junk`` the chosen classification (False =
    animal, also when the cup is absent); ``bright_pts``, ``animals`` (count under the
    choice), ``junk_pts`` feed the bak rules.
    """

    score: np.ndarray
    cup_as_junk: np.ndarray
    bright_pts: np.ndarray
    animals: np.ndarray
    junk_pts: np.ndarray


def breakdown(captured) -> Breakdown:
    """Score the card sets ``captured`` (uint64 array) per docs/rules/gostop.md §7, the cup counted as in
    docs/rules/gostop.md §7.2."""
    p = _packed_counts(captured)
    bright, rest = _BRIGHT_PTS[p & 15], p >> 14
    return Breakdown(
        score=bright + _RIBBON_PTS[(p >> 4) & 1023] + _REST_PTS[rest],
        cup_as_junk=_REST_CUP_JUNK[rest],
        bright_pts=bright,
        animals=_REST_ANIMALS[rest],
        junk_pts=_REST_JUNK_PTS[rest],
    )


def _as_mask(ids, name: str = "captured_ids") -> int:
    try:
        items = list(ids)
    except TypeError:
        raise ValueError(f"{name} must be an iterable of card ids, got {ids!r}") from None
    for c in items:
        if isinstance(c, (bool, np.bool_)) or not isinstance(c, (int, np.integer)) or not 0 <= c < 48:
            raise ValueError(f"{name}: card ids are ints in 0..47, got {c!r}")
    return C.mask_of(items)


def combination_score(captured_ids) -> int:
    """The combination score (docs/rules/gostop.md §7, cup rule included) of an iterable of card ids.

    Repeated ids count once.  Raises ``ValueError`` for anything that is not an int in 0..47.
    """
    return int(scores(np.array([_as_mask(captured_ids)], dtype=np.uint64))[0])


def protective_units(captured) -> np.ndarray:
    """The loser's junk units for pi-bak (docs/rules/gostop.md §9.2): singles, doubles x2, and the cup always x2."""
    x = np.asarray(captured, dtype=np.uint64)
    return (
        popcount(x & C.M_SINGLE_JUNK).astype(np.int64)
        + 2 * popcount(x & C.M_DOUBLE_JUNK)
        + 2 * ((x & C.BIT_CUP) != 0)
    )


@dataclass(frozen=True)
class Settlement:
    """A Stop payout (docs/rules/gostop.md §9) and its parts (int64 / bool arrays of one shape; exact integers)."""

    payout: np.ndarray
    base: np.ndarray
    value: np.ndarray
    gwang_bak: np.ndarray
    meong_bak: np.ndarray
    pi_bak: np.ndarray


def settle(winner_captured, loser_captured, go_count) -> Settlement:
    """Stop settlement of docs/rules/gostop.md §9.1-9.2 for uint64 card sets and the winner's Go count.

    Integer arithmetic throughout; exact for Go counts up to
    :data:`GO_BUDGET` (what positions and play can reach).
    """
    w = breakdown(winner_captured)
    lose = np.asarray(loser_captured, dtype=np.uint64)
    g = np.asarray(go_count, dtype=np.int64)
    base = w.score.astype(np.int64)
    value = np.where(g <= 2, base + g, base << np.maximum(g - 2, 0))
    gwang = (w.bright_pts > 0) & ((lose & C.M_BRIGHTS) == 0)
    meong = w.animals >= 7
    pi = (w.junk_pts > 0) & (protective_units(lose) < 5)
    baks = gwang.astype(np.int64) + meong + pi
    return Settlement(
        payout=value << baks, base=base, value=value,
        gwang_bak=gwang, meong_bak=meong, pi_bak=pi,
    )


def stop_settlement(winner_ids, loser_ids, go_count: int) -> dict:
    """Plain-Python Stop settlement: ``{"payout", "base", "value", "gwang_bak", "meong_bak", "pi_bak"}``.

    ``go_count`` is an int in ``0..GO_BUDGET`` (48, the bound positions accept); anything
    else raises ``ValueError``.
    """
    g = require_int(go_count, "go_count", 0, GO_BUDGET)
    s = settle(
        np.array([_as_mask(winner_ids, "winner_ids")], dtype=np.uint64),
        np.array([_as_mask(loser_ids, "loser_ids")], dtype=np.uint64),
        np.array([g]),
    )
    return {
        "payout": int(s.payout[0]), "base": int(s.base[0]), "value": int(s.value[0]),
        "gwang_bak": bool(s.gwang_bak[0]), "meong_bak": bool(s.meong_bak[0]), "pi_bak": bool(s.pi_bak[0]),
    }


def transfer_cards(payer, debt) -> np.ndarray:
    """The junk the payer hands over for ``debt`` units in one greedy pass (docs/rules/gostop.md §6), as card sets.

    Lowest value first, then lowest id: single junk in id order, then 41, then 47; a double
    may overpay; the cup is never taken; a payer without junk pays nothing.  ``payer``
    (uint64) and ``debt`` (ints) broadcast together.
    """
    payer = np.asarray(payer, dtype=np.uint64)
    owed = np.broadcast_to(np.asarray(debt, dtype=np.int64), payer.shape).copy()
    singles = payer & C.M_SINGLE_JUNK
    taken = np.zeros(payer.shape, dtype=np.uint64)
    while True:
        take = (owed > 0) & (singles != 0)
        if not take.any():
            break
        low = np.where(take, singles & (~singles + U64(1)), U64(0))  # lowest set bit
        taken |= low
        singles ^= low
        owed -= take
    for bit in (C.BIT_41, C.BIT_47):
        take = (owed > 0) & ((payer & bit) != 0)
        taken |= np.where(take, bit, U64(0))
        owed -= 2 * take
    return taken
