"""Stable-baselines3 / sb3-contrib zips as bots, read without running any pickled code.

An SB3 zip holds the weights (``policy.pth``, tensors) and a JSON ``data`` file whose
non-JSON entries (the policy class, the spaces, schedules, ``policy_kwargs`` with an
activation class) are cloudpickled, which SB3's own ``load`` unpickles, running whatever
code the file brings.  This loader never does: it reads the readable fields SB3 writes beside
each pickle (the policy class's module and name, the spaces' shapes, ``net_arch`` and the
activation's name), rebuilds the policy from a fixed list of SB3 classes and activations,
and loads the weights with ``torch.load(weights_only=True)``.

Supported: PPO, A2C (``ActorCriticPolicy``), sb3-contrib's MaskablePPO
(``MaskableActorCriticPolicy``) and DQN (``DQNPolicy``), on madang's flat observations and
``Discrete`` actions, with the default features extractor.  The mask is always applied
here: among the legal actions the bot plays the most probable one (DQN: the highest
action value), or with ``greedy=False`` samples from the policy restricted to them.
"""

from __future__ import annotations

import json
import re
import zipfile
from pathlib import Path

import numpy as np

from .common import ScoresBot, check_file, resolve_game

POLICY_CLASSES = {
    ("stable_baselines3.common.policies", "ActorCriticPolicy"): "actor_critic",
    ("sb3_contrib.common.maskable.policies", "MaskableActorCriticPolicy"): "maskable",
    ("stable_baselines3.dqn.policies", "DQNPolicy"): "dqn",
}
"""(module, class) named in the zip -> how the policy is rebuilt (only these classes are built)."""

ACTIVATIONS = ("ReLU", "Tanh", "ELU", "LeakyReLU", "GELU", "SiLU", "Sigmoid", "Softplus", "Mish", "SELU",
               "CELU", "Hardtanh", "Hardswish")
"""``torch.nn`` activation classes a zip's ``policy_kwargs`` may name."""

FLAT_EXTRACTOR = "<class 'stable_baselines3.common.torch_layers.FlattenExtractor'>"
IGNORED_KWARGS = ("optimizer_class", "optimizer_kwargs")  # training only: no optimizer is built
PLAIN_KWARGS = {"ortho_init": bool, "share_features_extractor": bool, "normalize_images": bool,
                "use_sde": bool, "log_std_init": (int, float), "full_std": bool, "use_expln": bool,
                "squash_output": bool}
MAX_DATA_BYTES = 50_000_000


def _read_data(p: Path) -> dict:
    """The zip's ``data`` JSON, without unpickling anything in it."""
    try:
        with zipfile.ZipFile(p) as z:
            if "data" not in z.namelist() or "policy.pth" not in z.namelist():
                raise ValueError(f"{p}: not a stable-baselines3 zip (it has no data or no policy.pth)")
            if z.getinfo("data").file_size > MAX_DATA_BYTES:
                raise ValueError(f"{p}: its data file is larger than {MAX_DATA_BYTES:,} bytes")
            data = json.loads(z.read("data").decode("utf-8"))
    except zipfile.BadZipFile:
        raise ValueError(f"{p}: not a zip file (a stable-baselines3 model is the .zip that model.save writes)") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, RecursionError) as e:
        raise ValueError(f"{p}: unreadable stable-baselines3 data ({type(e).__name__})") from None
    if not isinstance(data, dict):
        raise ValueError(f"{p}: its data file is not a JSON object")
    return data


def _class_name(entry) -> tuple[str, str] | None:
    """(module, class) of a pickled class from the readable fields SB3 writes beside it."""
    if not isinstance(entry, dict):
        return None
    init = re.match(r"<function (\w+)\.__init__ at ", str(entry.get("__init__", "")))
    return (str(entry.get("__module__")), init.group(1)) if init else None


def _space_sizes(p: Path, data: dict) -> tuple[int, int]:
    obs, act = data.get("observation_space"), data.get("action_space")
    if not isinstance(obs, dict) or "Box" not in str(obs.get(":type:")) or not isinstance(obs.get("_shape"), list) \
            or len(obs["_shape"]) != 1:
        what = obs.get(":type:") if isinstance(obs, dict) else obs
        raise ValueError(f"{p}: the observation space is {what}; madang loads policies trained on its flat "
                         "observations (a Box of shape (O,), the default observation_mode)")
    if not isinstance(act, dict) or "Discrete" not in str(act.get(":type:")) or str(act.get("start", "0")) != "0":
        what = act.get(":type:") if isinstance(act, dict) else act
        raise ValueError(f"{p}: the action space is {what}, not madang's Discrete(A)")
    try:
        return int(obs["_shape"][0]), int(act["n"])
    except (KeyError, TypeError, ValueError):
        raise ValueError(f"{p}: unreadable observation or action space sizes") from None


def _net_arch(p: Path, arch, kind: str):
    from ..policy_files import MAX_LAYERS, MAX_WIDTH

    def widths(v):
        if not isinstance(v, list) or len(v) > MAX_LAYERS or any(
                isinstance(h, bool) or not isinstance(h, int) or not 1 <= h <= MAX_WIDTH for h in v):
            raise ValueError(f"{p}: net_arch must list at most {MAX_LAYERS} layer widths in 1..{MAX_WIDTH}, got {v!r}")
        return v

    if arch is None or isinstance(arch, list):
        return None if arch is None else widths(arch)
    if kind != "dqn" and isinstance(arch, dict) and set(arch) <= {"pi", "vf"}:
        return {k: widths(v) for k, v in arch.items()}
    raise ValueError(f"{p}: unsupported net_arch {arch!r}")


def _policy_kwargs(p: Path, data: dict, kind: str) -> dict:
    """The policy's constructor arguments from the readable fields of ``policy_kwargs``."""
    import torch

    raw = data.get("policy_kwargs") or {}
    if not isinstance(raw, dict):
        raise ValueError(f"{p}: policy_kwargs is not a dict")
    out = {}
    for key, value in raw.items():
        if key.startswith(":") or key in IGNORED_KWARGS:
            continue
        if key == "net_arch":
            out[key] = _net_arch(p, value, kind)
        elif key == "activation_fn":
            m = re.fullmatch(r"<class 'torch\.nn\.modules\.activation\.(\w+)'>", str(value))
            if not m or m.group(1) not in ACTIVATIONS:
                raise ValueError(f"{p}: activation_fn {value} is not one of torch.nn's {', '.join(ACTIVATIONS)}")
            out[key] = getattr(torch.nn, m.group(1))
        elif key == "features_extractor_class":
            if value != FLAT_EXTRACTOR:
                raise ValueError(f"{p}: features extractor {value}: only SB3's default FlattenExtractor is "
                                 "loaded without running the file's pickled code")
        elif key == "features_extractor_kwargs":
            if value:
                raise ValueError(f"{p}: features_extractor_kwargs {value!r} are not supported")
        elif key in PLAIN_KWARGS and kind != "dqn" or key == "normalize_images":
            if isinstance(value, bool) and PLAIN_KWARGS[key] is not bool or not isinstance(value, PLAIN_KWARGS[key]):
                raise ValueError(f"{p}: policy_kwargs {key}={value!r} has the wrong type")
            out[key] = value
        else:
            raise ValueError(f"{p}: policy_kwargs {key}={str(value)[:80]} is not supported (madang rebuilds the "
                             "policy without running pickled code, from net_arch, activation_fn and plain options)")
    if out.get("use_sde"):
        raise ValueError(f"{p}: use_sde policies are for continuous actions, not madang's Discrete ones")
    return out


def _algorithm(kind: str, data: dict) -> str:
    if kind == "dqn":
        return "DQN"
    if kind == "maskable":
        return "MaskablePPO"
    return "PPO" if "clip_range" in data else "A2C"


def _parameter_bound(obs_size: int, num_actions: int, arch) -> int:
    """An upper bound on the parameters of the policy, before building it."""
    nets = list(arch.values()) if isinstance(arch, dict) else [arch or [64, 64]] * 2
    total = 0
    for widths in nets:
        sizes = [obs_size, *widths, num_actions]
        total += sum(a * b + b for a, b in zip(sizes, sizes[1:]))
    return 2 * total


def load_sb3(path: str, game: str | None = None, greedy: bool = True):
    """A bot playing the SB3 model in the zip at ``path`` (see the module docstring).

    ``ValueError`` names the file and what is missing or unsupported.
    """
    p = check_file(path, "stable-baselines3 zip")
    try:
        import torch
        from gymnasium import spaces
        from stable_baselines3.common.save_util import load_from_zip_file
    except ImportError:
        raise ValueError("SB3 policies need stable-baselines3: pip install stable-baselines3") from None
    data = _read_data(p)
    named = _class_name(data.get("policy_class"))
    kind = POLICY_CLASSES.get(named)
    if kind is None:
        raise ValueError(f"{path}: its policy class is {named or 'unreadable'}; madang rebuilds "
                         f"{', '.join(c for _, c in POLICY_CLASSES)} (PPO, A2C, MaskablePPO, DQN) without "
                         "running the file's pickled code, and no other class")
    obs_size, num_actions = _space_sizes(p, data)
    game = resolve_game(str(path), game, obs_size, num_actions)
    kwargs = _policy_kwargs(p, data, kind)
    from ..policy_files import MAX_PARAMETERS

    if _parameter_bound(obs_size, num_actions, kwargs.get("net_arch")) > MAX_PARAMETERS:
        raise ValueError(f"{path}: a network of widths {kwargs.get('net_arch')} has more than {MAX_PARAMETERS:,} parameters")
    if kind == "dqn" and not greedy:
        raise ValueError(f"{path}: a DQN policy has action values, no distribution to sample from: use greedy=true")
    if kind == "maskable":
        from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy as cls
    elif kind == "dqn":
        from stable_baselines3.dqn.policies import DQNPolicy as cls
    else:
        from stable_baselines3.common.policies import ActorCriticPolicy as cls
    try:
        _, params, _ = load_from_zip_file(p, load_data=False, device="cpu")  # torch.load(weights_only=True)
    except Exception as e:  # torch refuses pickled objects; a damaged archive fails in zipfile or torch
        raise ValueError(f"{path}: unreadable weights in policy.pth ({type(e).__name__}: {str(e)[:200]})") from None
    state = params.get("policy")
    if not isinstance(state, dict) or not all(isinstance(t, torch.Tensor) for t in state.values()):
        raise ValueError(f"{path}: policy.pth is not a state dict of tensors")
    if any(t.is_floating_point() and not torch.isfinite(t).all() for t in state.values()):
        raise ValueError(f"{path}: the weights hold NaN or infinite values")
    policy = cls(spaces.Box(0.0, 1.0, (obs_size,), np.float32), spaces.Discrete(num_actions),
                 lambda _: 0.0, **kwargs)
    try:
        policy.load_state_dict(state)
    except RuntimeError as e:
        raise ValueError(f"{path}: the weights do not match a {named[1]} with {kwargs or 'default options'} "
                         f"({str(e).splitlines()[0][:200]})") from None
    policy.set_training_mode(False)

    @torch.no_grad()
    def scores(obs, mask):
        x = torch.from_numpy(obs)
        if kind == "dqn":
            return policy.q_net(x).numpy()
        return policy.get_distribution(x).distribution.logits.numpy()

    bot = ScoresBot(str(path), game, scores, [p], greedy=greedy, kind=f"sb3-{_algorithm(kind, data).lower()}")
    bot.algorithm = _algorithm(kind, data)
    return bot
