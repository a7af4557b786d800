"""Yacht: five dice, twelve categories, 1..4 players (``docs/rules/yacht.md``).

Public names: :class:`Yacht` (batched rules), :func:`category_scores`, the
action offsets, the observation slices, and :func:`env` (the PettingZoo AEC
constructor).
"""

from .observation import OBS_SIZE, OBS_SLICES
from .rules import ACTION_SLICES, NUM_ACTIONS, REROLL_START, SCORE_START, Yacht, YachtState
from .scoring import CATEGORY_NAMES, category_scores


def env(**config):
    """PettingZoo AEC env of Yacht (agents ``player_0``..); config as for ``Yacht`` plus adapter options."""
    from ..adapters.pettingzoo_env import make_aec_env

    return make_aec_env(Yacht, **config)


__all__ = [
    "ACTION_SLICES", "CATEGORY_NAMES", "NUM_ACTIONS", "OBS_SIZE", "OBS_SLICES", "REROLL_START", "SCORE_START",
    "Yacht", "YachtState", "category_scores", "env",
]
