"""Go-Stop (two-player Matgo, CARDAVIA rules; ``docs/rules/gostop.md``).

Public names: :class:`GoStop` (batched rules), :func:`combination_score` (docs/rules/gostop.md §7),
:func:`stop_settlement`, the action offsets, the observation slices, and :func:`env`
(the PettingZoo AEC constructor).
"""

from .actions import ACTION_SLICES, CHOOSE_START, GO, NUM_ACTIONS, PLAY_START, STOP
from .observation import OBS_SIZE, OBS_SLICES
from .rules import GoStop
from .scoring import combination_score, stop_settlement
from .state import GoStopState


def env(**config):
    """PettingZoo AEC env of Go-Stop (agents ``player_0``, ``player_1``); adapter options as usual."""
    from ..adapters.pettingzoo_env import make_aec_env

    return make_aec_env(GoStop, **config)


__all__ = [
    "ACTION_SLICES", "CHOOSE_START", "GO", "NUM_ACTIONS", "OBS_SIZE", "OBS_SLICES", "PLAY_START", "STOP",
    "GoStop", "GoStopState", "combination_score", "env", "stop_settlement",
]
