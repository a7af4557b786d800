"""Shipped policy files: weights (``.pt``, tensors only) plus metadata (``.json``).

A policy named ``NAME`` lives in ``agents/weights/NAME.pt`` and ``NAME.json``.  The
weights are a plain ``state_dict`` loaded with ``torch.load(weights_only=True)``,
never unpickled objects.  The metadata records the env id and version, the
observation and action sizes, the network shape, the training config and the
evaluation result; loading checks them against the installed game and raises
``ValueError`` on any mismatch.
"""

from __future__ import annotations

import json
from pathlib import Path

import torch

from envs.registration import game_class

from .torch_policy import ActorCritic, PolicyBot

WEIGHTS_DIR = Path(__file__).parent / "weights"
FORMAT_VERSION = 1


def save_policy(model: ActorCritic, path_stem: str | Path, game: str, **metadata) -> tuple[Path, Path]:
    """Write ``<stem>.pt`` (state_dict) and ``<stem>.json`` (metadata); return both paths."""
    stem = Path(path_stem)
    stem.parent.mkdir(parents=True, exist_ok=True)
    cls = game_class(game)
    meta = {
        "format_version": FORMAT_VERSION,
        "game": game,
        "env_id": cls.env_id,
        "obs_size": model.obs_size,
        "num_actions": model.num_actions,
        "hidden": list(model.hidden),
        **metadata,
    }
    pt, js = stem.with_suffix(".pt"), stem.with_suffix(".json")
    torch.save({k: v.detach().cpu().clone() for k, v in model.state_dict().items()}, pt)
    js.write_text(json.dumps(meta, indent=2) + "\n")
    return pt, js


def load_policy(path_stem: str | Path, name: str | None = None, greedy: bool = True) -> PolicyBot:
    """Load a policy bot from ``<stem>.pt`` / ``<stem>.json``, checking it fits the installed env."""
    stem = Path(path_stem)
    pt, js = stem.with_suffix(".pt"), stem.with_suffix(".json")
    if not pt.exists() or not js.exists():
        raise ValueError(f"policy files {pt} and {js} not found")
    meta = json.loads(js.read_text())
    if meta.get("format_version") != FORMAT_VERSION:
        raise ValueError(f"{js}: format_version {meta.get('format_version')} != {FORMAT_VERSION}")
    cls = game_class(meta["game"])
    if meta["env_id"] != cls.env_id:
        raise ValueError(f"{js}: trained on {meta['env_id']}, installed env is {cls.env_id}")
    if meta["obs_size"] != cls.obs_size or meta["num_actions"] != cls.num_actions:
        raise ValueError(
            f"{js}: weights expect observations of size {meta['obs_size']} and "
            f"{meta['num_actions']} actions; {cls.env_id} has {cls.obs_size} and {cls.num_actions}"
        )
    model = ActorCritic(meta["obs_size"], meta["num_actions"], tuple(meta["hidden"]))
    state = torch.load(pt, map_location="cpu", weights_only=True)
    try:
        model.load_state_dict(state)
    except RuntimeError as e:
        raise ValueError(f"{pt}: weights do not match the network in {js}: {e}") from None
    bot = PolicyBot(model, name or stem.name, meta["game"], greedy=greedy)
    bot.metadata = meta
    return bot
