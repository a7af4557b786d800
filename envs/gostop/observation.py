"""Go-Stop observation encoding: a float32 vector from one seat's point of view.

Layout (named slices in :data:`OBS_SLICES`), every value in [0, 1]; "self" is the
observing seat, "opp" the other one::

    hand            [  0: 48)  own hand (one entry per card id)
    layout          [ 48: 96)  face-up layout cards (this turn's played/flipped cards excluded)
    captured_self   [ 96:144)  own captured cards
    captured_opp    [144:192)  the opponent's captured cards
    unseen          [192:240)  cards this seat cannot see: the opponent's hand and the stock
    played          [240:288)  the card played in the turn in progress (one-hot; 0 at PLAY)
    flipped         [288:336)  the stock card flipped in the turn in progress (one-hot)
    piles           [336:372)  per month (Jan..Dec): dealt triple | own ppuk stack | opp ppuk stack
    decision        [372:378)  pending decision one-hot (play, hand_choice, stock_choice,
                               go_stop; all 0 once the deal is over), the observer is the
                               mover, it is the mover's last turn
    counts          [378:381)  own hand size / 10, opp hand size / 10, stock size / 20
    go              [381:385)  go_count self, opp (/ 5); go_score self, opp (/ 30)
    ppuk            [385:387)  ppuk_count self, opp (/ 3)
    scores          [387:389)  combination score self, opp (/ 30)
    categories      [389:397)  self then opp: brights / 5, animals / 9 (cup included),
                               ribbons / 10, junk units / 28 (cup as 2 units)

Counts and scores are clipped to 1 (only positions loaded for analysis exceed the scales).
Nothing hidden from the seat enters: the opponent's hand and the stock order appear only
through their union (``unseen``) and sizes.
"""

from __future__ import annotations

import numpy as np

from . import cards as C
from .cards import popcount

_CARD_PARTS = ("hand", "layout", "captured_self", "captured_opp", "unseen", "played", "flipped")
_SIZES = [(name, 48) for name in _CARD_PARTS] + [
    ("piles", 36), ("decision", 6), ("counts", 3), ("go", 4), ("ppuk", 2), ("scores", 2),
    ("categories", 8),
]
OBS_SLICES: dict[str, slice] = {}
_start = 0
for _name, _size in _SIZES:
    OBS_SLICES[_name] = slice(_start, _start + _size)
    _start += _size
OBS_SIZE = _start
_CARDS_END = OBS_SLICES["flipped"].stop

_M_ANIMALS = C.M_ANIMALS_NO_CUP | C.BIT_CUP
_M_TWO_UNITS = C.M_DOUBLE_JUNK | C.BIT_CUP
_PHASE_ONE_HOT = np.eye(5, 4, dtype=np.float32)  # phase -> decision one-hot (OVER -> zeros)
# The counts .. categories slices, built from the (self, opp) per-seat numbers
# [hand, go_count, go_score, ppuk_count, score, brights, animals, ribbons, junk units]
# (self at 0..8, opp at 9..17) and the stock size (18).
_TAIL_START = OBS_SLICES["counts"].start
_TAIL_ORDER = np.array([0, 9, 18, 1, 10, 2, 11, 3, 12, 4, 13, 5, 6, 7, 8, 14, 15, 16, 17])
_TAIL_SCALE = np.array(
    [1 / 10, 1 / 10, 1 / 20, 1 / 5, 1 / 5, 1 / 30, 1 / 30, 1 / 3, 1 / 3, 1 / 30, 1 / 30]
    + [1 / 5, 1 / 9, 1 / 10, 1 / 28] * 2,
    dtype=np.float32,
)


def encode(state, seats: np.ndarray) -> np.ndarray:
    """(B, OBS_SIZE) float32 observations of ``state`` from ``seats`` ((B,) ints)."""
    B = state.batch_size
    ar = np.arange(B)
    me = np.asarray(seats, dtype=np.int64)
    op = 1 - me
    hand = state.hands[ar, me]
    cap_me, cap_op = state.captured[ar, me], state.captured[ar, op]
    played, flipped = C.BIT[state.played], C.BIT[state.flipped]
    visible = hand | state.layout | cap_me | cap_op | played | flipped
    boards = np.empty((B, 8), dtype="<u8")
    boards[:, 0] = hand
    boards[:, 1] = state.layout
    boards[:, 2] = cap_me
    boards[:, 3] = cap_op
    boards[:, 4] = ~visible & C.ALL_CARDS
    boards[:, 5] = played
    boards[:, 6] = flipped
    boards[:, 7] = 0
    bits = np.unpackbits(boards.view(np.uint8), bitorder="little").reshape(B, 8, 64)
    obs = np.empty((B, OBS_SIZE), dtype=np.float32)
    obs_cards = obs[:, :_CARDS_END].reshape(B, 7, 48)  # a view: splits one contiguous axis
    obs_cards[...] = bits[:, :7, :48]

    per_month = C.month_counts(state.layout)
    owner = state.ppuk_owner
    obs[:, OBS_SLICES["piles"]] = np.concatenate(
        [(per_month == 3) & (owner < 0), owner == me[:, None], owner == op[:, None]], axis=1
    )

    done = state.done
    dec = obs[:, OBS_SLICES["decision"]]
    dec[:, :4] = _PHASE_ONE_HOT[state.phase]
    dec[:, 4] = (state.to_move == me) & ~done
    left = popcount(state.hands[ar, state.to_move])
    dec[:, 5] = ~done & (left == (state.phase == 0))

    # Per-seat numbers in seat order, then turned to (self, opp) order and scaled.
    cap = state.captured
    per_seat = np.stack(
        [popcount(state.hands), state.go_count, state.go_score, state.ppuk_count, state.score,
         popcount(cap & C.M_BRIGHTS), popcount(cap & _M_ANIMALS), popcount(cap & C.M_RIBBONS),
         popcount(cap & C.M_SINGLE_JUNK) + 2 * popcount(cap & _M_TWO_UNITS)],
        axis=2,
    ).astype(np.float32)  # (B, 2, 9)
    rel = np.where((me == 1)[:, None, None], per_seat[:, ::-1], per_seat).reshape(B, 18)
    stock_left = (state.stock_end - state.stock_top).astype(np.float32)
    tail = np.concatenate([rel, stock_left[:, None]], axis=1)[:, _TAIL_ORDER]
    np.minimum(tail * _TAIL_SCALE, np.float32(1.0), out=obs[:, _TAIL_START:])
    return obs


class View:
    """What a bot reads back from (B, OBS_SIZE) observations: card sets as uint64, flags, counts.

    Attributes: ``hand``, ``layout``, ``captured_self``, ``captured_opp``, ``unseen`` (uint64
    sets); ``played``, ``flipped`` (card ids, -1 for none); ``decision`` (B,) int (0 play,
    1 hand choice, 2 stock choice, 3 go/stop, -1 none); ``last_turn`` (bool);
    ``hand_size_opp`` (int); ``piles`` (B, 3, 12) bool; ``go_count``, ``ppuk_count`` (B, 2)
    int (self, opp); ``score`` (B, 2) int (self, opp).
    """

    def __init__(self, observation: np.ndarray):
        obs = np.asarray(observation, dtype=np.float32)
        B = obs.shape[0]
        cards = obs[:, :_CARDS_END].reshape(B, 7, 48) > 0.5
        sets = C.pack(cards.reshape(B * 7, 48)).reshape(B, 7)
        self.hand, self.layout, self.captured_self, self.captured_opp, self.unseen = (
            sets[:, i] for i in range(5)
        )
        self.played = np.where(cards[:, 5].any(axis=1), cards[:, 5].argmax(axis=1), -1)
        self.flipped = np.where(cards[:, 6].any(axis=1), cards[:, 6].argmax(axis=1), -1)
        dec = obs[:, OBS_SLICES["decision"]] > 0.5
        self.decision = np.where(dec[:, :4].any(axis=1), dec[:, :4].argmax(axis=1), -1)
        self.last_turn = dec[:, 5]
        self.hand_size_opp = np.rint(obs[:, OBS_SLICES["counts"]][:, 1] * 10).astype(np.int64)
        self.piles = obs[:, OBS_SLICES["piles"]].reshape(B, 3, 12) > 0.5
        self.go_count = np.rint(obs[:, OBS_SLICES["go"]][:, :2] * 5).astype(np.int64)
        self.ppuk_count = np.rint(obs[:, OBS_SLICES["ppuk"]] * 3).astype(np.int64)
        self.score = np.rint(obs[:, OBS_SLICES["scores"]] * 30).astype(np.int64)
