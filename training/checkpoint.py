"""Reading a training checkpoint (``RUN_DIR/checkpoint.pt``): every part is checked before any is used.

A checkpoint is a dict of tensors and plain values written by :meth:`training.ppo.PPOTrainer.save`
and read with ``torch.load(weights_only=True)``.  :func:`read_checkpoint` checks what can be
checked from the file alone (its config and counters, the random states); :func:`check_state`
checks the tensors against the trainer about to take them (the network, the optimizer, the
opponent pool's snapshots).  A file that is damaged or tampered with raises
:class:`CheckpointError` naming it, before anything is restored or written.
"""

from __future__ import annotations

import dataclasses
import json
import math
from pathlib import Path

import numpy as np
import torch

from agents.policy_files import MAX_LAYERS, MAX_NESTING, MAX_PARAMETERS, MAX_WIDTH, expected_shapes, nesting_depth
from envs.registration import game_class


class CheckpointError(ValueError):
    """A checkpoint that cannot be resumed; the message names the file and what is wrong."""


def _json(path, key: str, text, kind: type):
    """The JSON value of ``text`` (the checkpoint's ``key``), which must be a ``kind``."""
    if not isinstance(text, str):
        raise CheckpointError(f"{path}: {key!r} must be a JSON string, got {type(text).__name__}")
    try:
        value = json.loads(text)
    except RecursionError:
        raise CheckpointError(f"{path}: {key!r} nests deeper than {MAX_NESTING} levels") from None
    except ValueError as e:
        raise CheckpointError(f"{path}: {key!r} is not valid JSON ({e})") from None
    if not isinstance(value, kind):
        raise CheckpointError(f"{path}: {key!r} must be a JSON {kind.__name__}, got {type(value).__name__}")
    if nesting_depth(value) > MAX_NESTING:
        raise CheckpointError(f"{path}: {key!r} nests deeper than {MAX_NESTING} levels")
    return value


def _count(path, ckpt: dict, key: str) -> int:
    value = ckpt.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise CheckpointError(f"{path}: {key!r} must be a non-negative int, got {value!r}")
    return value


def _check_config(path, config: dict) -> None:
    """The checkpoint's own config: known fields that pass ``PPOConfig.validate``, a bounded network."""
    from .ppo import PPOConfig

    names = {f.name for f in dataclasses.fields(PPOConfig)}
    unknown = sorted(set(config) - names)
    if unknown:
        raise CheckpointError(f"{path}: its config has unknown fields {unknown}")
    cfg = PPOConfig.from_dict(config)
    try:
        cfg.validate()
    except ValueError as e:
        raise CheckpointError(f"{path}: its config is invalid: {e}") from None
    cls = game_class(cfg.game)
    shapes = expected_shapes(cls.obs_size, cls.num_actions, cfg.hidden)
    if (len(cfg.hidden) > MAX_LAYERS or any(h > MAX_WIDTH for h in cfg.hidden)
            or sum(math.prod(s) for s in shapes.values()) > MAX_PARAMETERS):
        raise CheckpointError(f"{path}: its network {list(cfg.hidden)} is bigger than a policy file may hold "
                              f"({MAX_LAYERS} layers of {MAX_WIDTH}, {MAX_PARAMETERS:,} parameters)")


def read_checkpoint(path: str | Path) -> dict:
    """The contents of the checkpoint file at ``path``, with its config, counters and random states checked.

    Raises :class:`CheckpointError` naming the file when it is unreadable (truncated,
    corrupted, not a checkpoint) or any of those parts is missing or malformed.  torch's own
    message is left out because it suggests ``weights_only=False``, which would run the
    file's code.
    """
    try:
        ckpt = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as e:  # torch raises many types here (UnpicklingError, RuntimeError, EOFError ...)
        raise CheckpointError(f"{path}: not a readable madang training checkpoint ({type(e).__name__})") from None
    if not isinstance(ckpt, dict) or not isinstance(ckpt.get("config"), str):
        raise CheckpointError(f"{path}: not a madang training checkpoint (no config)")
    _check_config(path, _json(path, "config", ckpt["config"], dict))
    _count(path, ckpt, "global_step")
    _count(path, ckpt, "update")
    if not isinstance(ckpt.get("bc_done", False), bool):
        raise CheckpointError(f"{path}: 'bc_done' must be true or false, got {ckpt['bc_done']!r}")
    _json(path, "bc_stats", ckpt.get("bc_stats", "{}"), dict)
    rng = ckpt.get("torch_rng")
    fresh = torch.get_rng_state()
    if not isinstance(rng, torch.Tensor) or rng.dtype != fresh.dtype or rng.shape != fresh.shape:
        what = f"{rng.dtype} {tuple(rng.shape)}" if isinstance(rng, torch.Tensor) else type(rng).__name__
        raise CheckpointError(f"{path}: 'torch_rng' must be torch's {fresh.dtype} {tuple(fresh.shape)} "
                              f"random state, got {what}")
    state = _json(path, "np_rng", ckpt.get("np_rng"), dict)
    try:
        np.random.PCG64().state = state
    except (ValueError, TypeError, KeyError, OverflowError) as e:
        raise CheckpointError(f"{path}: 'np_rng' is not a PCG64 random state ({type(e).__name__}: {e})") from None
    for key in ckpt:
        if key.startswith("snapshot_") and not key[len("snapshot_"):].isdigit():
            raise CheckpointError(f"{path}: unexpected entry {key!r} (snapshots are snapshot_0, snapshot_1, ...)")
    return ckpt


def _check_tensors(path, key: str, tensors, shapes: dict) -> None:
    """``tensors`` (the checkpoint's ``key``) holds exactly ``shapes``: finite float tensors."""
    if not isinstance(tensors, dict) or set(tensors) != set(shapes):
        got = sorted(map(str, tensors)) if isinstance(tensors, dict) else type(tensors).__name__
        raise CheckpointError(f"{path}: {key!r} does not hold the network of its config (got {got})")
    for name, shape in shapes.items():
        t = tensors[name]
        if not isinstance(t, torch.Tensor) or not t.is_floating_point() or tuple(t.shape) != tuple(shape):
            what = f"{t.dtype} {tuple(t.shape)}" if isinstance(t, torch.Tensor) else type(t).__name__
            raise CheckpointError(f"{path}: {key!r} tensor {name} is {what}, a float tensor of shape "
                                  f"{tuple(shape)} expected (the network of the config)")
        if not torch.isfinite(t).all():
            raise CheckpointError(f"{path}: {key!r} tensor {name} holds NaN or infinite values")


def _check_optimizer(path, saved, optimizer: torch.optim.Optimizer, shapes: list) -> None:
    """``saved`` is a state dict of ``optimizer`` (Adam over parameters of ``shapes``, in order)."""
    fresh = optimizer.state_dict()
    if not isinstance(saved, dict) or set(saved) != {"state", "param_groups"}:
        raise CheckpointError(f"{path}: 'optimizer' is not an optimizer state (keys state, param_groups)")
    groups = saved["param_groups"]
    if not isinstance(groups, list) or len(groups) != len(fresh["param_groups"]):
        raise CheckpointError(f"{path}: 'optimizer' must have {len(fresh['param_groups'])} parameter group(s), "
                              f"got {len(groups) if isinstance(groups, list) else type(groups).__name__}")
    for group, new in zip(groups, fresh["param_groups"]):
        if not isinstance(group, dict) or group.get("params") != new["params"]:
            raise CheckpointError(f"{path}: 'optimizer' parameter group does not cover the network's "
                                  f"{len(new['params'])} parameters")
        lr = group.get("lr")
        if isinstance(lr, bool) or not isinstance(lr, (int, float)) or not math.isfinite(lr) or lr < 0:
            raise CheckpointError(f"{path}: 'optimizer' learning rate must be a finite number >= 0, got {lr!r}")
        for key, value in group.items():
            if key not in ("params", "lr") and (key not in new or value != new[key]):
                raise CheckpointError(f"{path}: 'optimizer' setting {key}={value!r} is not the trainer's "
                                      f"({new.get(key, 'no such setting')!r})")
    state = saved["state"]
    if not isinstance(state, dict) or not set(state) <= set(range(len(shapes))):
        raise CheckpointError(f"{path}: 'optimizer' state must be keyed by parameter 0..{len(shapes) - 1}")
    for i, moments in state.items():
        if not isinstance(moments, dict) or set(moments) != {"step", "exp_avg", "exp_avg_sq"}:
            raise CheckpointError(f"{path}: 'optimizer' state of parameter {i} must hold step, exp_avg "
                                  "and exp_avg_sq")
        step = moments["step"]
        if not isinstance(step, torch.Tensor) or step.numel() != 1 or not torch.isfinite(step).all() or step < 0:
            raise CheckpointError(f"{path}: 'optimizer' step of parameter {i} must be one finite count >= 0")
        _check_tensors(path, f"optimizer state {i}", {k: moments[k] for k in ("exp_avg", "exp_avg_sq")},
                       {"exp_avg": shapes[i], "exp_avg_sq": shapes[i]})
        if (moments["exp_avg_sq"] < 0).any():
            raise CheckpointError(f"{path}: 'optimizer' exp_avg_sq of parameter {i} is negative")


def check_state(path, ckpt: dict, trainer) -> None:
    """The tensors of ``ckpt`` (from :func:`read_checkpoint`) fit ``trainer``: the network, its
    snapshots and the optimizer; else :class:`CheckpointError` naming ``path``."""
    shapes = expected_shapes(trainer.game.obs_size, trainer.game.num_actions, trainer.config.hidden)
    if "model" not in ckpt:
        raise CheckpointError(f"{path}: the checkpoint has no 'model'")
    _check_tensors(path, "model", ckpt["model"], shapes)
    for key in ckpt:
        if key == "snapshot" or key.startswith("snapshot_"):
            _check_tensors(path, key, ckpt[key], shapes)
    if "optimizer" not in ckpt:
        raise CheckpointError(f"{path}: the checkpoint has no 'optimizer'")
    order = [tuple(p.shape) for p in trainer.model.parameters()]
    _check_optimizer(path, ckpt["optimizer"], trainer.optimizer, order)
