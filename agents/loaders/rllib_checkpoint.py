"""RLlib checkpoints (new API stack) as bots: an Algorithm checkpoint or an RLModule directory.

The path may be what ``algo.save()`` writes (the module is read from
``learner_group/learner/rl_module/<module_id>``), a multi-module ``rl_module`` directory,
or one RLModule's directory (``module.save_to_path()``).  ``module_id`` picks the module
when there are several (default: ``default_policy``, or the only one).  The module must take
madang's flat observations (a ``Box``) or RLlib's masked dict (``observations`` and
``action_mask``, what :func:`envs.adapters.rllib.masking_module` trains) and have
``Discrete`` actions; the bot plays the legal action with the largest
``action_dist_inputs`` (the logits), or samples with ``greedy=False``.

Needs ray (``pip install "madang[rllib]"``, in a virtual environment of its own), imported
only here.  RLlib writes its checkpoints with pickle, and loading one runs that code, as
RLlib's own ``from_checkpoint`` does: load only checkpoints you trust.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .common import ScoresBot, resolve_game

INSTALL_HINT = ('RLlib checkpoints need ray: pip install "madang[rllib]", in a virtual environment of its own '
                "(ray pins its gymnasium; see docs/integrations.md)")
CTOR_FILE = "class_and_ctor_args.pkl"
MODULES_DIR = Path("learner_group", "learner", "rl_module")


def is_checkpoint(path) -> bool:
    """Whether ``path`` is a directory RLlib wrote (an Algorithm or RLModule checkpoint)."""
    p = Path(path)
    return p.is_dir() and ((p / "rllib_checkpoint.json").is_file() or (p / CTOR_FILE).is_file())


def module_dir(path: Path, module_id: str | None) -> Path:
    """The directory of the one RLModule to load under ``path`` (see the module docstring)."""
    base = path / MODULES_DIR if (path / MODULES_DIR).is_dir() else path
    ids = sorted(d.name for d in base.iterdir() if d.is_dir() and (d / CTOR_FILE).is_file())
    if not ids:
        if module_id is not None:
            raise ValueError(f"{path}: a single RLModule checkpoint has no module {module_id!r} inside")
        if not (base / CTOR_FILE).is_file():
            raise ValueError(f"{path}: no RLModule checkpoint found (no {CTOR_FILE} in {base})")
        return base
    if module_id is None:
        module_id = "default_policy" if "default_policy" in ids else ids[0] if len(ids) == 1 else None
        if module_id is None:
            raise ValueError(f"{path}: the checkpoint holds the modules {ids}; pick one with module_id=ID")
    if module_id not in ids:
        raise ValueError(f"{path}: no module {module_id!r} in the checkpoint (its modules: {ids})")
    return base / module_id


def load_rllib(path: str, game: str | None = None, greedy: bool = True, module_id: str | None = None):
    """A bot playing the RLModule of the checkpoint at ``path`` (see the module docstring);
    ``ValueError`` names the path and what does not fit."""
    p = Path(path)
    if not p.is_dir():
        raise ValueError(f"{path}: no such RLlib checkpoint directory")
    try:
        import torch
        from gymnasium import spaces
        from ray.rllib.core.rl_module.rl_module import RLModule
    except ImportError:
        raise ValueError(INSTALL_HINT) from None
    where = module_dir(p, module_id)
    try:
        module = RLModule.from_checkpoint(str(where))
    except Exception as e:  # RLlib raises many kinds for a damaged or foreign checkpoint
        raise ValueError(f"{path}: RLlib cannot load the module in {where} ({type(e).__name__}: {str(e)[:300]})") from None
    obs_space, act_space = getattr(module, "observation_space", None), getattr(module, "action_space", None)
    if not isinstance(act_space, spaces.Discrete):
        raise ValueError(f"{path}: the module's action space is {act_space}, not madang's Discrete(A)")
    masked = isinstance(obs_space, spaces.Dict) and {"observations", "action_mask"} <= set(obs_space.spaces)
    flat = obs_space["observations"] if masked else obs_space
    if not isinstance(flat, spaces.Box) or len(flat.shape) != 1:
        raise ValueError(f"{path}: the module's observation space is {obs_space}; madang loads modules on its flat "
                         "observations or on RLlib's masked dict (observations, action_mask)")
    game = resolve_game(str(path), game, int(flat.shape[0]), int(act_space.n))
    module.eval()

    @torch.no_grad()
    def scores(obs, mask):
        x = torch.from_numpy(obs)
        batch = {"obs": {"observations": x, "action_mask": torch.from_numpy(mask.astype(np.float32))} if masked else x}
        out = module.forward_inference(batch)
        if "action_dist_inputs" not in out:
            raise ValueError(f"{path}: the module's forward_inference gives no action_dist_inputs (logits)")
        return out["action_dist_inputs"].numpy()

    files = sorted(f for f in where.rglob("*") if f.is_file())
    return ScoresBot(str(path), game, scores, files, greedy=greedy, kind="rllib")
