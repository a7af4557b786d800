"""Rainbow Dice observation encoding: one fixed-size float32 vector for 1..4 players.

Layout (named slices in :data:`OBS_SLICES`), every value in [0, 1]::

    dice          [  0: 36)  one-hot of each die's value, die i (R O Y G B P) -> entries 6i..6i+5
    satisfied     [ 36: 66)  satisfied_hands(dice): the 30 hands the dice satisfy now
    phase         [ 66: 69)  one-hot rolling, final, second_card (all zero once the game is over)
    free_rerolls  [ 69: 72)  one-hot of free rerolls left (0, 1, 2)
    die_actions   [ 72: 76)  one-hot of die-token actions used this turn (0..3)
    round         [ 76: 77)  (round - 1) / 11
    supply        [ 77:107)  min(copies left, 10) / 10 per hand (1 for an unlimited supply)
    seats         [107:275)  4 blocks of 42, the observing seat first, then the next seats in
                             turn order; absent seats (fewer than 4 players) are all zero.
                             Block: present (1), min(tokens, 40) / 40 (1), tokens >= 1, 2, 3 (3),
                             min(score, 4000) / 4000 (1), min(cards, 10) / 10 per hand (30),
                             min(cards of the rank, 10) / 10 per rank (6)
    gain          [275:305)  sqrt(g / 1296) per hand, g the §7 points the observing seat gains by
                             one more card of the hand (0 when its pile is empty; 1296 is the
                             largest possible gain)
    reach         [305:335)  per hand, the probability of ending the dice phase with the hand
                             satisfied when playing for it alone from here: the current dice,
                             free rerolls left and die actions still affordable
                             (min(tokens, 3 - used)), in multiples of 1/255 (the
                             satisfied hands in the second-card phase and once the game is over;
                             piles are ignored); see :func:`.turn_dp.reach_probabilities`

The dice, satisfied, phase, free_rerolls, die_actions, gain and reach slices come from
table lookups.  The clipping points lose nothing a player needs: the duplicate bonus
stops growing at 5 copies and the same-rank bonus at 10 cards (:func:`decode` relies on it).
"""

from __future__ import annotations

import numpy as np

from .hands import (
    ALL_DICE, HAND_BASES, HAND_RANKS, HAND_SCORES, NUM_DICE, NUM_HANDS, NUM_OUTCOMES, SATISFIED,
)
from .scoring import DUP_STEP, NUM_RANKS, RANK_STEP
from .turn_dp import MAX_BUDGET, REACH_LEVELS, reach_table

MAX_SEATS = 4
TOKEN_SCALE = 40
SCORE_SCALE = 4000
COUNT_SCALE = 10
SEAT_BLOCK = 1 + 1 + 3 + 1 + NUM_HANDS + NUM_RANKS
OBS_SLICES = {
    "dice": slice(0, 36),
    "satisfied": slice(36, 66),
    "phase": slice(66, 69),
    "free_rerolls": slice(69, 72),
    "die_actions": slice(72, 76),
    "round": slice(76, 77),
    "supply": slice(77, 107),
    "seats": slice(107, 107 + MAX_SEATS * SEAT_BLOCK),
    "gain": slice(275, 305),
    "reach": slice(305, 335),
}
OBS_SIZE = OBS_SLICES["reach"].stop
# Inside one seat block:
SEAT_PRESENT = 0
SEAT_TOKENS = 1
SEAT_TOKENS_AT_LEAST = slice(2, 5)
SEAT_SCORE = 5
SEAT_CARDS = slice(6, 6 + NUM_HANDS)
SEAT_RANKS = slice(6 + NUM_HANDS, SEAT_BLOCK)

_SEATS0 = OBS_SLICES["seats"].start
_DICE_TABLE = np.concatenate(
    [np.eye(6, dtype=bool)[ALL_DICE.astype(np.int64) - 1].reshape(-1, 6 * NUM_DICE), SATISFIED], axis=1,
)
"""(46656, 66) bool dice one-hot and satisfied hands of every dice code (bool: a smaller table)."""


def _turn_table() -> np.ndarray:
    """(4 * 3 * 4, 10) phase, free-rerolls and die-actions one-hots; row (phase * 3 + F) * 4 + U."""
    rows = []
    for phase in range(4):  # 3 = game over: no phase bit
        for f in range(3):
            for u in range(4):
                row = np.zeros(10, np.float32)
                if phase < 3:
                    row[phase] = 1
                row[3 + f] = 1
                row[6 + u] = 1
                rows.append(row)
    return np.array(rows)


_TURN_TABLE = _turn_table()
_DUP_CAP, _RANK_CAP = DUP_STEP.size - 1, RANK_STEP.size - 1  # the bonuses stop growing at 5 copies, 10 cards
_GAIN = DUP_STEP[:, None, None] * HAND_SCORES + RANK_STEP[None, :, None] * HAND_BASES  # (6, 11, 30)
GAIN_MAX = int(_GAIN.max())
_GAIN_TABLE = np.sqrt(_GAIN / GAIN_MAX).astype(np.float32).reshape(-1, NUM_HANDS)
"""(66, 30) gain feature of a hand for row ``copies held * 11 + cards of its rank`` (both capped)."""
_FROUND = np.float32(1 / 11)
_HANDS = np.arange(NUM_HANDS)
_REACH_SCALE = np.float32(1 / REACH_LEVELS)
_SUPPLY0 = OBS_SLICES["supply"].start
_GAIN, _REACH = OBS_SLICES["gain"], OBS_SLICES["reach"]
# Supply and seat-block columns: value -> min(value, cap) / cap.
_BLOCK_CAP = np.full(SEAT_BLOCK, COUNT_SCALE, np.float32)
_BLOCK_CAP[[SEAT_PRESENT, 2, 3, 4]] = 1
_BLOCK_CAP[SEAT_TOKENS], _BLOCK_CAP[SEAT_SCORE] = TOKEN_SCALE, SCORE_SCALE
_CAPS = [np.concatenate([np.full(NUM_HANDS, COUNT_SCALE, np.float32), np.tile(_BLOCK_CAP, p)])
         for p in range(MAX_SEATS + 1)]
_SCALES = [(1 / c).astype(np.float32) for c in _CAPS]
_TOKEN_TABLE = np.concatenate(
    [np.arange(TOKEN_SCALE + 1)[:, None], np.arange(TOKEN_SCALE + 1)[:, None] >= np.arange(1, 4)], axis=1
).astype(np.float32)
"""(41, 4) raw token columns of a seat block: min(tokens, 40) and tokens >= 1, 2, 3."""


def encode(code, phase, free_rerolls, die_actions, round_, supply, tokens, scores, cards, rank_cards,
           seats) -> np.ndarray:
    """Encode B games from ``seats``' points of view; a fresh (B, OBS_SIZE) float32 array.

    ``code`` (B,) dice codes; ``phase`` (B,) 0 rolling, 1 final, 2 second card, 3 over;
    ``free_rerolls``, ``die_actions``, ``round_`` (B,); ``supply`` (B, 30) copies left (an
    unlimited supply is stored as a large constant); ``tokens``, ``scores`` (B, P);
    ``cards`` (B, P, 30); ``rank_cards`` (B, P, 6) cards held per rank; ``seats`` (B,)
    observing seat.
    """
    B, P = tokens.shape
    obs = np.zeros((B, OBS_SIZE), dtype=np.float32)  # zeroed pages beat a strided fill of absent seats
    obs[:, :66] = _DICE_TABLE.take(code, axis=0)
    turn = (phase.astype(np.int64) * 3 + free_rerolls) * 4 + die_actions
    obs[:, 66:76] = _TURN_TABLE.take(turn, axis=0)
    obs[:, 76] = (round_ - 1) * _FROUND
    if P == 1:
        tok, sc, cd, rk = tokens, scores, cards, rank_cards
    else:
        # Row gathers over (B * P) flattened seats (take_along_axis is far slower here).
        rel = (np.arange(B)[:, None] * P + (seats.astype(np.int64)[:, None] + np.arange(P)) % P).ravel()
        tok = tokens.reshape(B * P).take(rel).reshape(B, P)
        sc = scores.reshape(B * P).take(rel).reshape(B, P)
        cd = cards.reshape(B * P, NUM_HANDS).take(rel, axis=0).reshape(B, P, NUM_HANDS)
        rk = rank_cards.reshape(B * P, NUM_RANKS).take(rel, axis=0).reshape(B, P, NUM_RANKS)
    # Raw supply and seat values in one contiguous buffer, then one clip-and-scale pass into obs.
    raw = np.empty((B, NUM_HANDS + P * SEAT_BLOCK), dtype=np.float32)
    raw[:, :NUM_HANDS] = supply
    blocks = raw[:, NUM_HANDS:].reshape(B, P, SEAT_BLOCK)
    blocks[:, :, SEAT_PRESENT] = 1.0
    blocks[:, :, SEAT_TOKENS : SEAT_TOKENS_AT_LEAST.stop] = _TOKEN_TABLE.take(np.minimum(tok, TOKEN_SCALE), axis=0)
    blocks[:, :, SEAT_SCORE] = sc
    blocks[:, :, SEAT_CARDS] = cd
    blocks[:, :, SEAT_RANKS] = rk
    np.minimum(raw, _CAPS[P], out=raw)
    np.multiply(raw, _SCALES[P], out=obs[:, _SUPPLY0 : _SEATS0 + P * SEAT_BLOCK])
    # The observing seat's marginal gains and the reach of every hand.
    copies = np.minimum(cd[:, 0], _DUP_CAP).astype(np.int64)
    in_rank = np.minimum(rk[:, 0], _RANK_CAP).astype(np.int64)[:, HAND_RANKS]
    gain = _GAIN_TABLE.reshape(-1).take((copies * (_RANK_CAP + 1) + in_rank) * NUM_HANDS + _HANDS)
    obs[:, _GAIN] = np.where(supply > 0, gain, np.float32(0))
    budget = np.minimum(np.minimum(tok[:, 0], MAX_BUDGET), MAX_BUDGET - die_actions.astype(np.int64))
    dice_phase = phase < 2  # later phases: the dice are final, reach = satisfied (F = L = 0)
    level = np.where(dice_phase, free_rerolls.astype(np.int64) * (MAX_BUDGET + 1) + budget, 0)
    np.multiply(reach_table().take(level * NUM_OUTCOMES + code, axis=0), _REACH_SCALE, out=obs[:, _REACH])
    return obs


def decode(obs: np.ndarray) -> dict[str, np.ndarray]:
    """Recover what a bot needs from a batch of observations ``(B, OBS_SIZE)``.

    Returns int64 arrays: ``dice`` (B, 6), ``phase`` (B,) (3 once over), ``free_rerolls``,
    ``die_actions``, ``round``, ``tokens`` (B,) of the observing seat (exact up to 40),
    ``cards`` (B, 30) of the observing seat (exact up to 10 copies), ``supply`` (B, 30)
    (exact up to 10 copies; 10 also stands for more or unlimited), ``num_players`` (B,).
    """
    obs = np.asarray(obs, dtype=np.float32)
    B = obs.shape[0]
    own = obs[:, _SEATS0 : _SEATS0 + SEAT_BLOCK]
    phase_bits = obs[:, OBS_SLICES["phase"]]
    seats = obs[:, _SEATS0 : _SEATS0 + MAX_SEATS * SEAT_BLOCK].reshape(B, MAX_SEATS, SEAT_BLOCK)
    return {
        "dice": obs[:, :36].reshape(B, NUM_DICE, 6).argmax(axis=2).astype(np.int64) + 1,
        "phase": np.where(phase_bits.any(axis=1), phase_bits.argmax(axis=1), 3).astype(np.int64),
        "free_rerolls": obs[:, OBS_SLICES["free_rerolls"]].argmax(axis=1).astype(np.int64),
        "die_actions": obs[:, OBS_SLICES["die_actions"]].argmax(axis=1).astype(np.int64),
        "round": np.rint(obs[:, 76] * 11).astype(np.int64) + 1,
        "tokens": np.rint(own[:, SEAT_TOKENS] * TOKEN_SCALE).astype(np.int64),
        "cards": np.rint(own[:, SEAT_CARDS] * COUNT_SCALE).astype(np.int64),
        "supply": np.rint(obs[:, OBS_SLICES["supply"]] * COUNT_SCALE).astype(np.int64),
        "num_players": (seats[:, :, SEAT_PRESENT] > 0.5).sum(axis=1).astype(np.int64),
    }


def position_of(observation: np.ndarray, num_players: int, copies_per_hand: int | None) -> tuple[dict, int]:
    """The position dict one (OBS_SIZE,) observation of the seat to move shows, and that seat.

    Exact up to the observation's clip points (40 tokens and 10 copies of a hand per seat;
    with more than 10 copies per hand a clipped supply is recovered from the cards held).
    The observation does not say which seat number the observer has; with two or more
    players it is placed at seat 0, so the round ends and the game ends as if the observer
    were the first seat of the round.  ``ValueError`` when the present seats differ from
    ``num_players``.
    """
    obs = np.asarray(observation, dtype=np.float32)
    blocks = obs[OBS_SLICES["seats"]].reshape(MAX_SEATS, SEAT_BLOCK)
    present = int((blocks[:, SEAT_PRESENT] > 0.5).sum())
    if present != num_players:
        raise ValueError(f"the observation shows {present} seats, the game has {num_players}")
    blocks = blocks[:num_players]
    d = decode(obs[None])
    cards = np.rint(blocks[:, SEAT_CARDS] * COUNT_SCALE).astype(np.int64)
    if copies_per_hand is None:
        supply = None
    else:
        seen = d["supply"][0]
        supply = np.where(seen < COUNT_SCALE, seen, copies_per_hand - cards.sum(axis=0)).tolist()
    phase = int(d["phase"][0])
    pos = {
        "round": int(d["round"][0]),
        "to_move": 0,
        "phase": ("rolling", "final", "second_card", "game_over")[phase],
        "dice": d["dice"][0].tolist(),
        "free_rerolls_left": int(d["free_rerolls"][0]),
        "die_actions_used": int(d["die_actions"][0]),
        "tokens": np.rint(blocks[:, SEAT_TOKENS] * TOKEN_SCALE).astype(np.int64).tolist(),
        "cards": cards.tolist(),
        "supply": supply,
    }
    return pos, 0
