"""Rainbow Dice: six coloured dice, 30 hand cards, a shared market and tokens (``docs/rules/rainbow_dice.md``).

Public names: :class:`RainbowDice` (batched rules), :func:`satisfied_hands`,
:func:`final_score` and :func:`score_breakdown`, the hand catalog, the action offsets,
the observation slices, and :func:`env` (the PettingZoo AEC constructor).
"""

from .actions import (
    ACTION_SLICES, BUY_START, DECLINE, DOWN_START, NUM_ACTIONS, REROLL_START, SECOND_START, STOP, TAKE,
    TOKEN_REROLL_START, UP_START,
)
from .hands import (
    HAND_COUNTS, HAND_IDS, HAND_NAMES, HAND_PROBS, HAND_RANKS, HAND_SCORES, RANK_BASES,
    RANK_NAMES, satisfied_hands,
)
from .observation import OBS_SIZE, OBS_SLICES
from .rules import RainbowDice, RainbowState
from .scoring import final_score, score_breakdown


def env(**config):
    """PettingZoo AEC env of Rainbow Dice (agents ``player_0``..).

    Config as for :class:`RainbowDice` plus the adapter options (``illegal_action``, ...).
    """
    from ..adapters.pettingzoo_env import make_aec_env

    return make_aec_env(RainbowDice, **config)


__all__ = [
    "ACTION_SLICES", "BUY_START", "DECLINE", "DOWN_START", "HAND_COUNTS", "HAND_IDS", "HAND_NAMES", "HAND_PROBS",
    "HAND_RANKS", "HAND_SCORES", "NUM_ACTIONS", "OBS_SIZE", "OBS_SLICES", "RANK_BASES", "RANK_NAMES",
    "REROLL_START", "RainbowDice", "RainbowState", "SECOND_START", "STOP", "TAKE",
    "TOKEN_REROLL_START", "UP_START", "env", "final_score", "satisfied_hands", "score_breakdown",
]
