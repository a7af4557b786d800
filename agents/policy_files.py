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
import pickle
from pathlib import Path

import numpy as np
import torch

from envs.registration import GAMES, game_class

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


MAX_LAYERS = 16
MAX_WIDTH = 8192
MAX_PARAMETERS = 50_000_000
"""Bounds on the network a metadata file may describe (checked before anything is allocated)."""
MAX_NESTING = 32
"""How deep the metadata's objects and lists may nest (a real file nests about 6 deep)."""


def _require(meta: dict, key: str, kind, js: Path):
    if key not in meta:
        raise ValueError(f"{js}: the metadata has no {key!r}")
    value = meta[key]
    if isinstance(value, bool) or not isinstance(value, kind):
        raise ValueError(f"{js}: {key!r} must be {getattr(kind, '__name__', 'a number')}, got {value!r}")
    return value


def nesting_depth(value) -> int:
    """How deep ``value``'s dicts and lists nest (0 for a scalar), without recursion."""
    deepest, stack = 0, [(value, 0)]
    while stack:
        v, depth = stack.pop()
        if isinstance(v, (dict, list)):
            deepest = max(deepest, depth + 1)
            stack.extend((item, depth + 1) for item in (v.values() if isinstance(v, dict) else v))
    return deepest


def read_metadata(js: Path) -> dict:
    """The validated metadata of a policy file: format, game, env id, sizes and a bounded network.

    Raises ``ValueError`` naming ``js`` for anything unreadable, missing, mistyped, too big,
    nested deeper than :data:`MAX_NESTING`, or not matching the installed game.
    """
    try:
        meta = json.loads(js.read_text(encoding="utf-8"))
    except RecursionError:
        raise ValueError(f"{js}: unreadable policy metadata (nested deeper than {MAX_NESTING} levels)") from None
    except (OSError, UnicodeDecodeError, ValueError) as e:
        raise ValueError(f"{js}: unreadable policy metadata ({type(e).__name__}: {e})") from None
    if not isinstance(meta, dict):
        raise ValueError(f"{js}: the metadata must be a JSON object, got {type(meta).__name__}")
    if nesting_depth(meta) > MAX_NESTING:
        raise ValueError(f"{js}: the metadata nests deeper than {MAX_NESTING} levels")
    if meta.get("format_version") != FORMAT_VERSION:
        raise ValueError(f"{js}: format_version {meta.get('format_version')!r} != {FORMAT_VERSION}")
    game = _require(meta, "game", str, js)
    if game not in GAMES:
        raise ValueError(f"{js}: unknown game {game!r}; known games: {sorted(GAMES)}")
    cls = game_class(game)
    if _require(meta, "env_id", str, js) != cls.env_id:
        raise ValueError(f"{js}: trained on {meta['env_id']}, installed env is {cls.env_id}")
    obs_size, num_actions = _require(meta, "obs_size", int, js), _require(meta, "num_actions", int, js)
    if obs_size != cls.obs_size or num_actions != cls.num_actions:
        raise ValueError(
            f"{js}: weights expect observations of size {obs_size} and {num_actions} actions; "
            f"{cls.env_id} has {cls.obs_size} and {cls.num_actions}"
        )
    hidden = _require(meta, "hidden", list, js)
    if not 1 <= len(hidden) <= MAX_LAYERS or any(
        isinstance(h, bool) or not isinstance(h, int) or not 1 <= h <= MAX_WIDTH for h in hidden
    ):
        raise ValueError(f"{js}: 'hidden' must be 1..{MAX_LAYERS} layer widths in 1..{MAX_WIDTH}, got {hidden!r}")
    shapes = expected_shapes(obs_size, num_actions, hidden)
    if sum(int(np.prod(s)) for s in shapes.values()) > MAX_PARAMETERS:
        raise ValueError(f"{js}: a network of widths {hidden} has more than {MAX_PARAMETERS:,} parameters")
    training = meta.get("training_config")
    if training is not None and not (isinstance(training, dict)
                                     and isinstance(training.get("game_config", {}), dict)):
        raise ValueError(f"{js}: 'training_config' must be an object whose 'game_config' is an object")
    return meta


def expected_shapes(obs_size: int, num_actions: int, hidden) -> dict[str, tuple]:
    """The ``state_dict`` shapes of ``ActorCritic(obs_size, num_actions, hidden)``, without building it."""
    shapes, width = {}, obs_size
    for i, h in enumerate(hidden):
        shapes[f"trunk.{2 * i}.weight"], shapes[f"trunk.{2 * i}.bias"] = (h, width), (h,)
        width = h
    shapes.update({"policy.weight": (num_actions, width), "policy.bias": (num_actions,),
                   "value.weight": (1, width), "value.bias": (1,)})
    return shapes


def _read_weights(pt: Path, shapes: dict) -> dict:
    """The tensors of ``pt`` (``torch.load(weights_only=True)``), checked against ``shapes``."""
    try:
        state = torch.load(pt, map_location="cpu", weights_only=True)
    except pickle.UnpicklingError:
        # torch's message suggests weights_only=False, which would run the file's code: never.
        raise ValueError(
            f"{pt}: not a tensors-only state dict (it holds pickled objects, which madang never loads)"
        ) from None
    except Exception as e:
        raise ValueError(f"{pt}: unreadable weights file ({type(e).__name__})") from None
    if not isinstance(state, dict) or set(state) != set(shapes):
        got = sorted(map(str, state)) if isinstance(state, dict) else type(state).__name__
        raise ValueError(f"{pt}: the weights do not match the network in the metadata (tensors {got})")
    for k, shape in shapes.items():
        t = state[k]
        if not isinstance(t, torch.Tensor) or tuple(t.shape) != shape or not t.is_floating_point():
            what = f"{tuple(t.shape)} {t.dtype}" if isinstance(t, torch.Tensor) else type(t).__name__
            raise ValueError(f"{pt}: the weights do not match the network in the metadata "
                             f"(tensor {k} is {what}, a float tensor of shape {shape} expected)")
        if not torch.isfinite(t).all():
            raise ValueError(f"{pt}: tensor {k} holds NaN or infinite weights")
    return state


def load_policy(path_stem: str | Path, name: str | None = None, greedy: bool = True) -> PolicyBot:
    """Load a policy bot from ``<stem>.pt`` / ``<stem>.json``, checking it fits the installed env.

    The metadata is validated first (network size bounded), then the weights are read with
    ``torch.load(weights_only=True)`` and checked tensor by tensor before any model is
    built.  Every problem raises ``ValueError`` naming the file.
    """
    stem = Path(path_stem)
    pt, js = stem.with_suffix(".pt"), stem.with_suffix(".json")
    if not pt.is_file() or not js.is_file():
        raise ValueError(f"policy files {pt} and {js} not found")
    meta = read_metadata(js)
    state = _read_weights(pt, expected_shapes(meta["obs_size"], meta["num_actions"], meta["hidden"]))
    model = ActorCritic(meta["obs_size"], meta["num_actions"], tuple(meta["hidden"]))
    model.load_state_dict({k: v.float() for k, v in state.items()})
    bot = PolicyBot(model, name or stem.name, meta["game"], greedy=greedy)
    bot.metadata = meta
    bot.files = (pt, js)  # what a benchmark result hashes as the policy's identity
    return bot


def policy_stem(path: str | Path) -> Path | None:
    """The ``<stem>`` of the policy files a path names, or None if it does not look like one.

    Accepted: ``<stem>`` itself, ``<stem>.pt`` or ``<stem>.json``, or a run directory holding
    ``policy.pt`` / ``policy.json`` (what ``madang train`` writes).
    """
    p = Path(path)
    if p.is_dir():
        return p / "policy"
    if p.suffix in (".pt", ".json"):
        return p.with_suffix("")
    if p.with_suffix(".pt").exists() or p.with_suffix(".json").exists() or len(p.parts) > 1:
        return p
    return None
