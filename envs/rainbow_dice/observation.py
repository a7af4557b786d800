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
    gain          [275:305)  sqrt(g / 1296) per hand, g the final-score points (docs/rules/rainbow_dice.md §7)
                             the observing seat gains by one more card of the hand (0 when its pile is empty; 1296 is the
                             largest possible gain)
    reach         [305:335)  per hand, the probability of ending the dice phase with the hand
                             satisfied when playing for it alone from here: the current dice,
                             free rerolls left and die actions still affordable
                             (min(tokens, 3 - used)), in multiples of 1/255 (the
                             satisfied hands in the second-card phase and once the game is over;
                             piles are ignored); see :func:`.turn_dp.reach_probabilities`

The compiled kernel :func:`envs.rainbow_dice.kernels.observe` writes it (the gain slice reads
:data:`GAIN_TABLE`, the reach slice the reach table).  The clipping points lose nothing a
player needs: the duplicate bonus stops growing at 5 copies and the same-rank bonus at 10
cards (:func:`decode` relies on it).
"""

from __future__ import annotations

import numpy as np

from .hands import HAND_BASES, HAND_SCORES, NUM_DICE, NUM_HANDS
from .scoring import DUP_STEP, NUM_RANKS, RANK_STEP

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
_GAIN = DUP_STEP[:, None, None] * HAND_SCORES + RANK_STEP[None, :, None] * HAND_BASES  # (6, 11, 30)
GAIN_MAX = int(_GAIN.max())
GAIN_TABLE = np.sqrt(_GAIN / GAIN_MAX).astype(np.float32).reshape(-1, NUM_HANDS)
"""(66, 30) the gain entry of a hand for row ``copies held * 11 + cards of its rank`` (both capped
at 5 and 10, where the bonuses stop growing)."""


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
