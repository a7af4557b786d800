"""Checks shared by the adapters: action types, config values and reset options."""

from __future__ import annotations

import inspect
import math
from collections.abc import Mapping

import numpy as np

ILLEGAL_MODES = ("raise", "lose")

MAX_ILLEGAL_PENALTY = 1e18
"""The largest ``illegal_penalty``.  Rewards are float32 (largest finite 3.4e38), so a penalty
up to this plus any reward a game pays stays finite, and a forfeit's payout (the penalty, an
int when it is whole) fits the int64 payout arrays of the infos (largest 9.2e18)."""


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
    """Validate the ``illegal_action`` mode and return the penalty as a float.

    The penalty is what the mover loses (and, in zero-sum games, the other seat wins), so it
    must be a positive number of at most :data:`MAX_ILLEGAL_PENALTY`.
    """
    if illegal_action not in ILLEGAL_MODES:
        raise ValueError(f"illegal_action must be one of {ILLEGAL_MODES}, got {illegal_action!r}")
    if isinstance(illegal_penalty, (bool, np.bool_, np.complexfloating)) \
            or not isinstance(illegal_penalty, (int, float, np.number)):
        raise ValueError(f"illegal_penalty must be a number, got {illegal_penalty!r}")
    try:
        penalty = float(illegal_penalty)
    except OverflowError:  # an int beyond any float
        penalty = math.inf
    if not math.isfinite(penalty) or penalty <= 0:
        raise ValueError(f"illegal_penalty must be a positive finite number, got {illegal_penalty!r}")
    if penalty > MAX_ILLEGAL_PENALTY:
        raise ValueError(f"illegal_penalty must be at most {MAX_ILLEGAL_PENALTY:g}, so that rewards stay "
                         f"finite in float32 and a payout fits in int64; got {illegal_penalty!r}")
    return penalty


def check_render_mode(render_mode, supported=("ansi",)):
    """``render_mode`` if supported; an unsupported one warns and is dropped (returns None).

    Tools such as stable-baselines3's ``make_vec_env`` pass ``render_mode="rgb_array"``
    to every env; madang envs then simply render nothing: ``render()`` returns None,
    also under ``gymnasium.make`` (whose checker accepts a ``render_mode`` of None).
    """
    if render_mode is not None and render_mode not in supported:
        import warnings

        warnings.warn(
            f"render_mode {render_mode!r} is not supported (supported: {list(supported)}); "
            "render() will return None",
            stacklevel=3,
        )
        return None
    return render_mode


def check_options(options) -> dict:
    """Reset ``options`` as a dict (None gives ``{}``); anything but a mapping is a ``ValueError``."""
    if options is None:
        return {}
    if not isinstance(options, Mapping):
        raise ValueError(f"reset options must be a dict (or None), got {type(options).__name__} {options!r}")
    return dict(options)


class UnknownKeywordError(ValueError, TypeError):
    """A config keyword no adapter or rules take: a ``ValueError`` (madang's rule for a bad
    config) that is also the ``TypeError`` Python raises for an unexpected keyword argument,
    which tools catch to drop options an env does not take (TorchRL's ``GymEnv`` passes
    ``frameskip`` to every env)."""


def make_game(game_cls, game_config: dict, adapter_keys=()):
    """``game_cls(**game_config)``, with unknown keywords an :class:`UnknownKeywordError` naming them.

    ``adapter_keys`` are the adapter's own options, listed among the accepted ones.
    """
    params = [n for n, p in inspect.signature(game_cls.__init__).parameters.items()
              if n != "self" and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
    unknown = sorted(k for k in game_config if k not in params)
    if unknown:
        what = f"argument {unknown[0]!r}" if len(unknown) == 1 else f"arguments {unknown}"
        raise UnknownKeywordError(
            f"unexpected keyword {what}: not a {game_cls.name} config keyword; "
            f"accepted: {sorted([*params, *adapter_keys])}"
        )
    return game_cls(**game_config)


def illegal_loss_rewards(game, num_players: int, mover: int, penalty: float) -> np.ndarray:
    """Per-seat rewards when ``mover`` loses by an illegal action (docs/interface.md §5)."""
    r = np.zeros(num_players, dtype=np.float32)
    if game.zero_sum:
        r[:] = penalty
    r[mover] = -penalty
    return r


def forfeit_message(seat: int) -> str:
    """How the adapters say that ``seat`` lost the game by an illegal action ("lose" mode)."""
    return f"seat {seat} forfeited the game by an illegal action (illegal_action='lose')"


def position_of(game, state, forfeited_by: int | None) -> dict:
    """An adapter's ``to_position()``: ``ValueError`` before ``reset`` and after a forfeit.

    A game lost by an illegal action ended outside the rules, so no position describes it.
    """
    if state is None:
        raise ValueError("call reset() before to_position()")
    if forfeited_by is not None:
        raise ValueError(forfeit_message(forfeited_by) + "; a forfeited game has no position")
    return game.to_position(state, 0)


def render_of(game, state, render_mode, forfeited_by: int | None, seat: int | None = None):
    """An adapter's ``render()``: in ``"ansi"`` mode the game's text as ``seat`` sees it (default:
    the seat to move), noting a forfeit; otherwise None."""
    if render_mode != "ansi" or state is None:
        return None
    text = game.render_text(state, 0, seat=seat)
    if forfeited_by is not None:
        text += f"\n(game over: {forfeit_message(forfeited_by)})"
    return text
