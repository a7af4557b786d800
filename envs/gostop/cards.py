"""The 48-card hwatu deck of docs/rules/gostop.md §2 as constants, and 48-bit card sets.

Card ids are month-major: month ``m`` (1..12) owns ids ``4(m-1) .. 4(m-1)+3``.  A set
of cards is a ``uint64`` whose bit ``id`` is set for each member (bits 48..63 are
always clear); the batched rules keep hands, layout and captured piles this way, so
membership, unions and counts are single integer operations per game.

Tables indexed by card id have 49 entries: entry 48 (also reachable as ``[-1]``)
stands for "no card" (bit 0, month index 12, no month mask), so the rules can index
them with ``-1`` for an absent card without branching.
"""

from __future__ import annotations

import numpy as np

NUM_CARDS = 48
NUM_MONTHS = 12
NO_CARD = -1

BRIGHT, ANIMAL, RIBBON, DOUBLE_JUNK, JUNK = range(5)
KIND_NAMES = ("bright", "animal", "ribbon", "double junk", "junk")

# docs/rules/gostop.md §2, one row per id: (kind, short name).
DECK = (
    (BRIGHT, "Jan crane"), (RIBBON, "Jan poem ribbon"), (JUNK, "Jan junk"), (JUNK, "Jan junk"),
    (ANIMAL, "Feb warbler"), (RIBBON, "Feb poem ribbon"), (JUNK, "Feb junk"), (JUNK, "Feb junk"),
    (BRIGHT, "Mar curtain"), (RIBBON, "Mar poem ribbon"), (JUNK, "Mar junk"), (JUNK, "Mar junk"),
    (ANIMAL, "Apr cuckoo"), (RIBBON, "Apr red ribbon"), (JUNK, "Apr junk"), (JUNK, "Apr junk"),
    (ANIMAL, "May bridge"), (RIBBON, "May red ribbon"), (JUNK, "May junk"), (JUNK, "May junk"),
    (ANIMAL, "Jun butterflies"), (RIBBON, "Jun blue ribbon"), (JUNK, "Jun junk"), (JUNK, "Jun junk"),
    (ANIMAL, "Jul boar"), (RIBBON, "Jul red ribbon"), (JUNK, "Jul junk"), (JUNK, "Jul junk"),
    (BRIGHT, "Aug moon"), (ANIMAL, "Aug geese"), (JUNK, "Aug junk"), (JUNK, "Aug junk"),
    (ANIMAL, "Sep cup"), (RIBBON, "Sep blue ribbon"), (JUNK, "Sep junk"), (JUNK, "Sep junk"),
    (ANIMAL, "Oct deer"), (RIBBON, "Oct blue ribbon"), (JUNK, "Oct junk"), (JUNK, "Oct junk"),
    (BRIGHT, "Nov phoenix"), (DOUBLE_JUNK, "Nov double junk"), (JUNK, "Nov junk"), (JUNK, "Nov junk"),
    (BRIGHT, "Dec rain man"), (ANIMAL, "Dec swallow"), (RIBBON, "Dec rain ribbon"),
    (DOUBLE_JUNK, "Dec double junk"),
)
KIND = np.array([k for k, _ in DECK], dtype=np.int8)
CARD_NAMES = tuple(name for _, name in DECK)

CUP = 32
RAIN_BRIGHT = 44
BRIGHTS = frozenset(np.flatnonzero(KIND == BRIGHT).tolist())
ANIMALS = frozenset(np.flatnonzero(KIND == ANIMAL).tolist())
GODORI = frozenset({4, 12, 29})
RIBBONS = frozenset(np.flatnonzero(KIND == RIBBON).tolist())
HONGDAN = frozenset({1, 5, 9})
CHEONGDAN = frozenset({21, 33, 37})
CHODAN = frozenset({13, 17, 25})
DOUBLE_JUNKS = frozenset({41, 47})
SINGLE_JUNK = frozenset(np.flatnonzero(KIND == JUNK).tolist())
TRANSFERABLE_JUNK = SINGLE_JUNK | DOUBLE_JUNKS
JUNK_UNITS = np.array([2 if c in DOUBLE_JUNKS else 1 if c in SINGLE_JUNK else 0 for c in range(48)])


def month_of(card: int) -> int:
    """The month (1..12) of a card id."""
    return card // 4 + 1


def mask_of(cards) -> int:
    """The 48-bit set (a Python int) of an iterable of card ids."""
    m = 0
    for c in cards:
        m |= 1 << int(c)
    return m


def ids_of(bits: int) -> list[int]:
    """The card ids (ascending) of a 48-bit set."""
    bits = int(bits)
    return [c for c in range(NUM_CARDS) if bits >> c & 1]


U64 = np.uint64
ALL_CARDS = U64((1 << NUM_CARDS) - 1)
M_BRIGHTS = U64(mask_of(BRIGHTS))
M_ANIMALS_NO_CUP = U64(mask_of(ANIMALS - {CUP}))
M_GODORI = U64(mask_of(GODORI))
M_RIBBONS = U64(mask_of(RIBBONS))
M_HONGDAN = U64(mask_of(HONGDAN))
M_CHEONGDAN = U64(mask_of(CHEONGDAN))
M_CHODAN = U64(mask_of(CHODAN))
M_SINGLE_JUNK = U64(mask_of(SINGLE_JUNK))
M_DOUBLE_JUNK = U64(mask_of(DOUBLE_JUNKS))
BIT_CUP, BIT_RAIN = U64(1 << CUP), U64(1 << RAIN_BRIGHT)
BIT_41, BIT_47 = U64(1 << 41), U64(1 << 47)

MONTH_MASKS = np.array([0xF << (4 * m) for m in range(NUM_MONTHS)], dtype=np.uint64)
"""(12,) uint64: the four cards of month index ``m`` (0 = January)."""
_NIBBLE_LOW = U64(sum(1 << (4 * m) for m in range(NUM_MONTHS)))

BIT = np.array([1 << c for c in range(NUM_CARDS)] + [0], dtype=np.uint64)
"""(49,) uint64: the one-card set of each id; ``BIT[-1] == 0`` (no card)."""
MONTH = np.array([c // 4 for c in range(NUM_CARDS)] + [NUM_MONTHS], dtype=np.int64)
"""(49,) month index 0..11 of each id; ``MONTH[-1] == 12`` (matches no card)."""
MONTH_MASK_OF = np.array([0xF << (4 * (c // 4)) for c in range(NUM_CARDS)] + [0], dtype=np.uint64)
"""(49,) uint64: the month of each id as a set; ``MONTH_MASK_OF[-1] == 0``."""


def _popcount_swar(x: np.ndarray) -> np.ndarray:
    x = x - ((x >> U64(1)) & U64(0x5555555555555555))
    x = (x & U64(0x3333333333333333)) + ((x >> U64(2)) & U64(0x3333333333333333))
    x = (x + (x >> U64(4))) & U64(0x0F0F0F0F0F0F0F0F)
    return ((x * U64(0x0101010101010101)) >> U64(56)).astype(np.uint8)


def popcount(x) -> np.ndarray:
    """Number of set bits of each uint64 (uint8 result); ``np.bitwise_count`` when available."""
    x = np.asarray(x, dtype=np.uint64)
    if hasattr(np, "bitwise_count"):
        return np.bitwise_count(x)
    return _popcount_swar(x)


def has_quad(x: np.ndarray) -> np.ndarray:
    """True where the set ``x`` holds all four cards of some month."""
    x = np.asarray(x, dtype=np.uint64)
    return (x & (x >> U64(1)) & (x >> U64(2)) & (x >> U64(3)) & _NIBBLE_LOW) != 0


_M5, _M3 = U64(0x5555555555555555), U64(0x3333333333333333)
_M7, _M8 = U64(0x7777777777777777), U64(0x8888888888888888)


def has_triple(x: np.ndarray) -> np.ndarray:
    """True where the set ``x`` holds exactly three cards of some month (bit arithmetic)."""
    x = np.asarray(x, dtype=np.uint64)
    c = x - ((x >> U64(1)) & _M5)
    c = (c & _M3) + ((c >> U64(2)) & _M3)  # each month's nibble now holds its card count
    z = c ^ _M3  # a nibble is 0 exactly where the count is 3
    nonzero = (((z & _M7) + _M7) | z) & _M8  # top bit of each nibble: nibble != 0
    return nonzero != _M8


def month_counts(x: np.ndarray) -> np.ndarray:
    """(..., 12) int64: how many cards of each month the sets ``x`` hold."""
    x = np.asarray(x, dtype=np.uint64)
    return popcount(x[..., None] & MONTH_MASKS).astype(np.int64)


def lowest_card(bits: np.ndarray) -> np.ndarray:
    """(B,) int64 id of the lowest card of each set, -1 for an empty set."""
    bits = np.asarray(bits, dtype=np.uint64)
    low = bits & (~bits + U64(1))  # the lowest set bit alone (exact as a float: below 2**48)
    return np.where(bits != 0, np.frexp(low.astype(np.float64))[1] - 1, -1).astype(np.int64)


def unpack(bits: np.ndarray) -> np.ndarray:
    """(B, 48) bool membership of (B,) card sets."""
    bits = np.ascontiguousarray(bits, dtype="<u8")
    flat = np.unpackbits(bits.view(np.uint8), bitorder="little")
    return flat.reshape(bits.shape[0], 64)[:, :NUM_CARDS].view(bool)


def pack(member: np.ndarray) -> np.ndarray:
    """(B,) uint64 card sets of (B, 48) bool membership (inverse of :func:`unpack`)."""
    member = np.asarray(member, dtype=bool)
    padded = np.zeros((member.shape[0], 64), dtype=bool)
    padded[:, :NUM_CARDS] = member
    return np.packbits(padded, axis=1, bitorder="little").view("<u8").reshape(-1).astype(np.uint64)
