"""Go-Stop observation encoding: a float32 vector from one seat's point of view.

Layout (named slices in :data:`OBS_SLICES`), every value in [0, 1]; "self" is the
observing seat, "opp" the other one::

    hand            [  0: 48)  own hand (one entry per card id)
    layout          [ 48: 96)  face-up layout cards (this turn's played and flipped cards are
                               not on it yet; the picked card still is)
    captured_self   [ 96:144)  own captured cards
    captured_opp    [144:192)  the opponent's captured cards
    unseen          [192:240)  cards this seat cannot see: the opponent's hand and the stock
    played          [240:288)  the card played in the turn in progress (one-hot; 0 at PLAY)
    flipped         [288:336)  the stock card flipped in the turn in progress (one-hot)
    picked          [336:384)  the layout card chosen for the played card at a HAND_CHOICE,
                               while the turn is in progress (one-hot)
    piles           [384:420)  per month (Jan..Dec): dealt triple | own ppuk stack | opp ppuk stack
    decision        [420:426)  pending decision one-hot (play, hand_choice, stock_choice,
                               go_stop; all 0 once the deal is over), the observer is the
                               mover, it is the mover's last turn
    stats_self      [426:435)  own numbers: hand size / 10, go_count / 10, go_score / 60,
                               ppuk_count / 3, combination score / 60, brights / 5,
                               animals / 9 (cup included), ribbons / 10, junk units / 28
                               (cup as 2 units)
    stats_opp       [435:444)  the same numbers for the opponent
    stock           [444:445)  stock size / 20

Nothing hidden from the seat enters: the opponent's hand and the stock order appear only
through their union (``unseen``) and sizes.  Everything else a state holds is here, so an
observation determines the state up to those hidden cards (what
:func:`envs.gostop.determinize.sample_states` relies on).  The scales are the largest values a
dealt game can reach (10 cards in a hand, 9 Gos since the last turn offers none, a
combination score of at most 58, 20 stock cards), so no number of a dealt game is clipped;
numbers of positions loaded for analysis that exceed a scale are clipped to 1.
"""

from __future__ import annotations

import numpy as np

from . import cards as C
from .cards import popcount
from .state import flat

_CARD_PARTS = ("hand", "layout", "captured_self", "captured_opp", "unseen", "played", "flipped",
               "picked")
_SIZES = [(name, 48) for name in _CARD_PARTS] + [
    ("piles", 36), ("decision", 6), ("stats_self", 9), ("stats_opp", 9), ("stock", 1),
]
OBS_SLICES: dict[str, slice] = {}
_start = 0
for _name, _size in _SIZES:
    OBS_SLICES[_name] = slice(_start, _start + _size)
    _start += _size
OBS_SIZE = _start
_CARDS_END = OBS_SLICES["picked"].stop

_M_ANIMALS = C.M_ANIMALS_NO_CUP | C.BIT_CUP
_M_TWO_UNITS = C.M_DOUBLE_JUNK | C.BIT_CUP
_PHASE_ONE_HOT = np.eye(5, 4, dtype=np.float32)  # phase -> decision one-hot (OVER -> zeros)
# stats_self / stats_opp: the per-seat numbers STAT_NAMES (see the layout above), scaled.
_STATS = OBS_SLICES["stats_self"].start
STAT_NAMES = ("hand", "go_count", "go_score", "ppuk_count", "score", "brights", "animals",
              "ribbons", "junk_units")
STAT_SCALES = (10, 10, 60, 3, 60, 5, 9, 10, 28)
"""The divisor of each of ``STAT_NAMES`` (the largest value a dealt game reaches, or above)."""
STOCK_SCALE = 20
_STATS_SCALE = np.tile(1 / np.array(STAT_SCALES, np.float32), 2)


def encode(state, seats: np.ndarray) -> np.ndarray:
    """(B, OBS_SIZE) float32 observations of ``state`` from ``seats`` ((B,) ints)."""
    B = state.batch_size
    ar = np.arange(B)
    me = np.asarray(seats, dtype=np.int64)
    mine = 2 * ar + me  # flat per-seat indices (see state.flat); the opponent's is mine ^ 1
    hands, captured = flat(state.hands), flat(state.captured)
    hand = hands[mine]
    cap_me, cap_op = captured[mine], captured[mine ^ 1]
    played, flipped, picked = C.BIT[state.played], C.BIT[state.flipped], C.BIT[state.hand_pick]
    visible = hand | state.layout | cap_me | cap_op | played | flipped
    boards = np.empty((B, 8), dtype="<u8")
    boards[:, 0] = hand
    boards[:, 1] = state.layout
    boards[:, 2] = cap_me
    boards[:, 3] = cap_op
    boards[:, 4] = ~visible & C.ALL_CARDS
    boards[:, 5] = played
    boards[:, 6] = flipped
    boards[:, 7] = picked
    bits = np.unpackbits(boards.view(np.uint8), bitorder="little").reshape(B, 8, 64)
    obs = np.empty((B, OBS_SIZE), dtype=np.float32)
    obs_cards = obs[:, :_CARDS_END].reshape(B, 8, 48)  # a view: splits one contiguous axis
    obs_cards[...] = bits[:, :, :48]

    piles = OBS_SLICES["piles"]
    obs[:, piles] = 0.0
    rows = np.flatnonzero(C.has_triple(state.layout))  # every pile is a 3-card month
    if rows.size:
        owner, m = state.ppuk_owner[rows], me[rows, None]
        obs[rows, piles] = np.concatenate(
            [(C.month_counts(state.layout[rows]) == 3) & (owner < 0), owner == m, owner == 1 - m],
            axis=1,
        )

    done = state.done
    dec = obs[:, OBS_SLICES["decision"]]
    dec[:, :4] = _PHASE_ONE_HOT[state.phase]
    dec[:, 4] = (state.to_move == me) & ~done
    left = popcount(hands[2 * ar + state.to_move])
    dec[:, 5] = ~done & (left == (state.phase == 0))

    # Per-seat numbers in seat order, gathered into (self, opp) order, scaled and clipped.
    cap = state.captured
    per_seat = np.stack(
        [popcount(state.hands), state.go_count, state.go_score, state.ppuk_count, state.score,
         popcount(cap & C.M_BRIGHTS), popcount(cap & _M_ANIMALS), popcount(cap & C.M_RIBBONS),
         popcount(cap & C.M_SINGLE_JUNK) + 2 * popcount(cap & _M_TWO_UNITS)],
        axis=2,
    ).astype(np.float32).reshape(2 * B, 9)
    rel = np.take(per_seat, np.stack([mine, mine ^ 1], axis=1).reshape(-1), axis=0).reshape(B, 18)
    np.minimum(rel * _STATS_SCALE, np.float32(1.0), out=obs[:, _STATS:_STATS + 18])
    stock_left = (state.stock_end - state.stock_top).astype(np.float32)
    obs[:, OBS_SLICES["stock"].start] = np.minimum(stock_left * np.float32(1 / STOCK_SCALE), np.float32(1.0))
    return obs


class View:
    """What a bot reads back from (B, OBS_SIZE) observations: card sets as uint64, flags, counts.

    Attributes: ``hand``, ``layout``, ``captured_self``, ``captured_opp``, ``unseen`` (uint64
    sets); ``played``, ``flipped``, ``picked`` (card ids, -1 for none); ``decision`` (B,) int
    (0 play, 1 hand choice, 2 stock choice, 3 go/stop, -1 none); ``observer_moves`` and
    ``last_turn`` (bool); ``hand_size_opp``, ``stock_size`` (int); ``piles`` (B, 3, 12) bool
    (dealt triple, own ppuk stack, opp ppuk stack); ``go_count``, ``go_score``,
    ``ppuk_count``, ``score`` (B, 2) int (self, opp).
    """

    def __init__(self, observation: np.ndarray):
        obs = np.asarray(observation, dtype=np.float32)
        B = obs.shape[0]
        parts = len(_CARD_PARTS)
        packed = np.zeros((B * parts, 8), np.uint8)  # 6 bytes of card bits per set, 2 zero bytes
        packed[:, :6] = np.packbits(obs[:, :_CARDS_END].reshape(B * parts, 48) > 0.5, axis=1,
                                    bitorder="little")
        sets = packed.view("<u8").reshape(B, parts).astype(np.uint64)
        self.hand, self.layout, self.captured_self, self.captured_opp, self.unseen = (
            sets[:, i] for i in range(5)
        )
        self.played, self.flipped, self.picked = (C.lowest_card(sets[:, j]) for j in (5, 6, 7))
        dec = obs[:, OBS_SLICES["decision"]] > 0.5
        self.decision = np.where(dec[:, :4].any(axis=1), dec[:, :4].argmax(axis=1), -1)
        self.observer_moves = dec[:, 4]
        self.last_turn = dec[:, 5]
        stats = obs[:, _STATS:_STATS + 18].reshape(B, 2, 9) / _STATS_SCALE[:9]
        self.hand_size_opp = np.rint(stats[:, 1, 0]).astype(np.int64)
        self.stock_size = np.rint(obs[:, OBS_SLICES["stock"].start] * STOCK_SCALE).astype(np.int64)
        self.piles = obs[:, OBS_SLICES["piles"]].reshape(B, 3, 12) > 0.5
        self.go_count = np.rint(stats[:, :, 1]).astype(np.int64)
        self.go_score = np.rint(stats[:, :, 2]).astype(np.int64)
        self.ppuk_count = np.rint(stats[:, :, 3]).astype(np.int64)
        self.score = np.rint(stats[:, :, 4]).astype(np.int64)
