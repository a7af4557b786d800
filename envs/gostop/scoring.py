"""Combination score (§7), junk transfer (§6) and Stop settlement (§9), pure functions.

The batched functions take card sets as uint64 bitmasks (see :mod:`.cards`) and work
on any array shape; :func:`combination_score` and :func:`stop_settlement` are the
plain-Python entry points over card ids.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import cards as C
from .cards import U64, popcount

ANIMAL_CUP, JUNK_CUP = 0, 1  # cup classification (§7.2)
CHONGTONG_PAYOUT = 5
THREE_PPUK_PAYOUT = 5
GO_THRESHOLD = 7


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
    """Score the card sets ``captured`` (uint64 array) per spec §7 with the §7.2 cup choice."""
    x = np.asarray(captured, dtype=np.uint64)
    b = popcount(x & C.M_BRIGHTS).astype(np.int64)
    rain = (x & C.BIT_RAIN) != 0
    bright = np.where(b == 5, 15, np.where(b == 4, 4, np.where(b == 3, np.where(rain, 2, 3), 0)))
    cup = ((x & C.BIT_CUP) != 0).astype(np.int64)
    a0 = popcount(x & C.M_ANIMALS_NO_CUP).astype(np.int64)
    godori = np.where((x & C.M_GODORI) == C.M_GODORI, 5, 0)
    r = popcount(x & C.M_RIBBONS).astype(np.int64)
    ribbon = np.maximum(r - 4, 0)
    for m in (C.M_HONGDAN, C.M_CHEONGDAN, C.M_CHODAN):
        ribbon = ribbon + np.where((x & m) == m, 3, 0)
    u0 = popcount(x & C.M_SINGLE_JUNK).astype(np.int64) + 2 * popcount(x & C.M_DOUBLE_JUNK)
    animal_if_animal = a0 + cup
    junk_if_animal = np.maximum(u0 - 9, 0)
    junk_if_junk = np.maximum(u0 + 2 * cup - 9, 0)
    base = bright + ribbon + godori
    total_animal = base + np.maximum(animal_if_animal - 4, 0) + junk_if_animal
    total_junk = base + np.maximum(a0 - 4, 0) + junk_if_junk
    as_junk = total_junk > total_animal  # a tie keeps the cup an animal
    return Breakdown(
        score=np.maximum(total_animal, total_junk),
        cup_as_junk=as_junk,
        bright_pts=bright,
        animals=np.where(as_junk, a0, animal_if_animal),
        junk_pts=np.where(as_junk, junk_if_junk, junk_if_animal),
    )


def scores(captured) -> np.ndarray:
    """Combination scores (int64) of uint64 card sets, any shape."""
    return breakdown(captured).score


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
    """The combination score (spec §7, cup rule included) of an iterable of card ids.

    Repeated ids count once.  Raises ``ValueError`` for anything that is not an int in 0..47.
    """
    return int(scores(np.array([_as_mask(captured_ids)], dtype=np.uint64))[0])


def protective_units(captured) -> np.ndarray:
    """The loser's junk units for pi-bak (§9.2): singles, doubles x2, and the cup always x2."""
    x = np.asarray(captured, dtype=np.uint64)
    return (
        popcount(x & C.M_SINGLE_JUNK).astype(np.int64)
        + 2 * popcount(x & C.M_DOUBLE_JUNK)
        + 2 * ((x & C.BIT_CUP) != 0)
    )


@dataclass(frozen=True)
class Settlement:
    """A Stop payout (§9) and its parts (arrays of one shape)."""

    payout: np.ndarray  # float64: exact below 2**53
    base: np.ndarray
    value: np.ndarray
    gwang_bak: np.ndarray
    meong_bak: np.ndarray
    pi_bak: np.ndarray


def settle(winner_captured, loser_captured, go_count) -> Settlement:
    """Stop settlement of §9.1-9.2 for uint64 card sets and the winner's Go count."""
    w = breakdown(winner_captured)
    lose = np.asarray(loser_captured, dtype=np.uint64)
    g = np.asarray(go_count, dtype=np.int64)
    base = w.score
    value = np.where(g <= 2, base + g, base * np.exp2(np.maximum(g - 2, 0)))
    gwang = (w.bright_pts > 0) & ((lose & C.M_BRIGHTS) == 0)
    meong = w.animals >= 7
    pi = (w.junk_pts > 0) & (protective_units(lose) < 5)
    baks = gwang.astype(np.int64) + meong + pi
    return Settlement(
        payout=value * np.exp2(baks), base=base, value=value.astype(np.float64),
        gwang_bak=gwang, meong_bak=meong, pi_bak=pi,
    )


def stop_settlement(winner_ids, loser_ids, go_count: int) -> dict:
    """Plain-Python Stop settlement: ``{"payout", "base", "value", "gwang_bak", "meong_bak", "pi_bak"}``."""
    s = settle(
        np.array([_as_mask(winner_ids, "winner_ids")], dtype=np.uint64),
        np.array([_as_mask(loser_ids, "loser_ids")], dtype=np.uint64),
        np.array([go_count]),
    )
    return {
        "payout": int(s.payout[0]), "base": int(s.base[0]), "value": int(s.value[0]),
        "gwang_bak": bool(s.gwang_bak[0]), "meong_bak": bool(s.meong_bak[0]), "pi_bak": bool(s.pi_bak[0]),
    }


def transfer_cards(payer, debt) -> np.ndarray:
    """The junk the payer hands over for ``debt`` units in one greedy pass (§6), as card sets.

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
