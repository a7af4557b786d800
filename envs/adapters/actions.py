"""Checks shared by the adapters: action types and config values."""

from __future__ import annotations

import numpy as np

ILLEGAL_MODES = ("raise", "lose")


def parse_action(action, num_actions: int) -> int:
    """Return ``action`` as an int, or raise ``ValueError`` for a wrong type.

    Accepted: a Python int, a numpy integer, or a 0-d integer array, in
    ``0..num_actions-1``.  Rejected: bools, floats, other shapes, out-of-range ids.
    """
    if isinstance(action, np.ndarray):
        if action.shape != () or action.dtype == bool or not np.issubdtype(action.dtype, np.integer):
            raise ValueError(
                f"action must be an int or a 0-d integer array, got array of shape "
                f"{action.shape} and dtype {action.dtype}"
            )
        action = action.item()
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        raise ValueError(f"action must be an int, got {type(action).__name__} {action!r}")
    action = int(action)
    if not 0 <= action < num_actions:
        raise ValueError(f"action {action} out of range 0..{num_actions - 1}")
    return action


def check_illegal_config(illegal_action: str, illegal_penalty) -> float:
    """Validate the ``illegal_action`` mode and return the penalty as a float."""
    if illegal_action not in ILLEGAL_MODES:
        raise ValueError(f"illegal_action must be one of {ILLEGAL_MODES}, got {illegal_action!r}")
    if isinstance(illegal_penalty, bool) or not isinstance(illegal_penalty, (int, float, np.number)):
        raise ValueError(f"illegal_penalty must be a number, got {illegal_penalty!r}")
    return float(illegal_penalty)


def check_render_mode(render_mode, supported=("ansi",)):
    """Return ``render_mode``; an unsupported one only warns (as ``gymnasium.make`` does).

    Tools such as stable-baselines3's ``make_vec_env`` pass ``render_mode="rgb_array"``
    to every env; madang envs then simply render nothing (``render()`` returns None).
    """
    if render_mode is not None and render_mode not in supported:
        import warnings

        warnings.warn(
            f"render_mode {render_mode!r} is not supported (supported: {list(supported)}); "
            "render() will return None",
            stacklevel=3,
        )
    return render_mode


def illegal_loss_rewards(game, num_players: int, mover: int, penalty: float) -> np.ndarray:
    """Per-seat rewards when ``mover`` loses by an illegal action (interface.md)."""
    r = np.zeros(num_players, dtype=np.float32)
    if game.zero_sum:
        r[:] = penalty
    r[mover] = -penalty
    return r
