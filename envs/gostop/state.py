"""The batched Go-Stop state (one structure of arrays, leading batch axis)."""

from __future__ import annotations

import dataclasses

import numpy as np

from ..core.state import BatchState

# Pending decision of a game (``phase``).
PLAY, HAND_CHOICE, STOCK_CHOICE, GO_STOP, OVER = range(5)
PHASE_NAMES = ("play", "hand_choice", "stock_choice", "go_stop", None)

# Result reasons (``reason``); index 0 while the deal is running.
REASONS = (None, "stop", "chongtong", "three_ppuk", "nagari")
STOP, CHONGTONG, THREE_PPUK, NAGARI = 1, 2, 3, 4

FIELDS = (  # name, dtype, shape after the batch axis (the check's and the buffer's layout)
    ("to_move", np.int8, ()), ("done", np.bool_, ()), ("rng_key", np.uint64, ()),
    ("rng_counter", np.uint64, ()), ("hands", np.uint64, (2,)), ("layout", np.uint64, ()),
    ("captured", np.uint64, (2,)), ("stock", np.int8, (48,)), ("stock_top", np.int8, ()),
    ("stock_end", np.int8, ()), ("ppuk_owner", np.int8, (12,)), ("go_count", np.int16, (2,)),
    ("go_score", np.int16, (2,)), ("ppuk_count", np.int8, (2,)), ("score", np.int16, (2,)),
    ("phase", np.int8, ()), ("played", np.int8, ()), ("hand_pick", np.int8, ()), ("flipped", np.int8, ()),
    ("winner", np.int8, ()), ("payout", np.int64, ()), ("reason", np.int8, ()), ("redeals", np.int16, ()),
    ("skipped", np.int16, (2,)),
)


@dataclasses.dataclass
class GoStopState(BatchState):
    """B Go-Stop deals; card sets are uint64 bitmasks over ids 0..47 (see :mod:`.cards`).

    * ``hands`` (B, 2), ``captured`` (B, 2): per seat; ``layout`` (B,): face-up cards
      (the card played or flipped in the current turn is on neither until the turn resolves);
    * ``stock`` (B, 48) int8: the stock order, cards ``stock[stock_top:stock_end]`` left, top first;
    * ``ppuk_owner`` (B, 12) int8: seat owning the ppuk stack of each month, -1 for none
      (a 3-card month with -1 is a dealt triple);
    * ``go_count``, ``go_score`` (B, 2) int16, ``ppuk_count`` (B, 2) int8: per seat;
    * ``score`` (B, 2) int16: each seat's current combination score (kept equal to
      ``scores(captured)``; the rules update it whenever a captured set changes);
    * ``phase`` (B,) int8: the pending decision (PLAY .. GO_STOP, OVER once done);
    * ``played``, ``hand_pick``, ``flipped`` (B,) int8: this turn's hand card, its chosen
      layout card, the flipped stock card (-1 when none);
    * ``winner`` (B,) int8 (-1 for none), ``payout`` (B,) int64, ``reason`` (B,) int8 (``REASONS``);
    * ``redeals`` (B,) int16 and ``skipped`` (B, 2) int16: the redeals, and the deals decided
      before any decision (chongtong; won by each seat), that ``reset`` went through to
      reach this deal.
    """

    to_move: np.ndarray
    done: np.ndarray
    rng_key: np.ndarray
    rng_counter: np.ndarray
    hands: np.ndarray
    layout: np.ndarray
    captured: np.ndarray
    stock: np.ndarray
    stock_top: np.ndarray
    stock_end: np.ndarray
    ppuk_owner: np.ndarray
    go_count: np.ndarray
    go_score: np.ndarray
    ppuk_count: np.ndarray
    score: np.ndarray
    phase: np.ndarray
    played: np.ndarray
    hand_pick: np.ndarray
    flipped: np.ndarray
    winner: np.ndarray
    payout: np.ndarray
    reason: np.ndarray
    redeals: np.ndarray
    skipped: np.ndarray

    FIELDS = FIELDS


def flat(a: np.ndarray) -> np.ndarray:
    """A flat view of a (B, k) field: game ``g``'s entry ``j`` is ``k g + j``.

    One flat fancy index is several times faster than a (rows, columns) pair, so the rules
    address per-seat fields as ``flat(field)[2 g + seat]``.
    """
    if not a.flags.c_contiguous:
        raise ValueError("Go-Stop state arrays must be C-contiguous")
    return a.reshape(-1)


def empty_state(batch: int) -> GoStopState:
    """A state of ``batch`` blank games (every field zero / none) for builders to fill."""
    B = batch
    return GoStopState(
        to_move=np.zeros(B, np.int8),
        done=np.zeros(B, bool),
        rng_key=np.zeros(B, np.uint64),
        rng_counter=np.zeros(B, np.uint64),
        hands=np.zeros((B, 2), np.uint64),
        layout=np.zeros(B, np.uint64),
        captured=np.zeros((B, 2), np.uint64),
        stock=np.full((B, 48), -1, np.int8),
        stock_top=np.zeros(B, np.int8),
        stock_end=np.zeros(B, np.int8),
        ppuk_owner=np.full((B, 12), -1, np.int8),
        go_count=np.zeros((B, 2), np.int16),
        go_score=np.zeros((B, 2), np.int16),
        ppuk_count=np.zeros((B, 2), np.int8),
        score=np.zeros((B, 2), np.int16),
        phase=np.zeros(B, np.int8),
        played=np.full(B, -1, np.int8),
        hand_pick=np.full(B, -1, np.int8),
        flipped=np.full(B, -1, np.int8),
        winner=np.full(B, -1, np.int8),
        payout=np.zeros(B, np.int64),
        reason=np.zeros(B, np.int8),
        redeals=np.zeros(B, np.int16),
        skipped=np.zeros((B, 2), np.int16),
    )
