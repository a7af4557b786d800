"""Other people's policies as bots, by path or reference: what ``agents.load`` does with them.

=========  ==========================================  ========================================
kind       what names it                               options
=========  ==========================================  ========================================
onnx       a ``.onnx`` file                            ``game``, ``greedy``
sb3        a ``.zip`` of stable-baselines3 / sb3-contrib  ``game``, ``greedy``
rllib      a directory RLlib wrote (checkpoint)        ``game``, ``greedy``, ``module_id``
python     ``module:attr``                             ``batched``, or the class's / factory's
=========  ==========================================  ========================================

Each kind lives in its own module and imports its heavy library (onnxruntime, SB3, ray)
only when used; a missing one is a ``ValueError`` saying how to install it.  The bots they
return are :class:`agents.base.BaseBot` s named by the path or reference, with the files
they were read from in ``files``.
"""

from __future__ import annotations

import importlib
import inspect
from pathlib import Path

LOADERS = {
    "rllib": ("agents.loaders.rllib_checkpoint", "load_rllib"),
    "onnx": ("agents.loaders.onnx_file", "load_onnx"),
    "sb3": ("agents.loaders.sb3_zip", "load_sb3"),
    "python": ("agents.loaders.python_ref", "load_python"),
}
"""Kind -> (module, function) of its loader."""

SUFFIXES = {".onnx": "onnx", ".zip": "sb3"}
"""File suffix (lower case) -> kind."""


def kind_of(spec) -> str | None:
    """The kind of policy ``spec`` names (a key of :data:`LOADERS`), or None for none of them."""
    if not isinstance(spec, str) or not spec:
        return None
    from .python_ref import is_reference
    from .rllib_checkpoint import is_checkpoint

    if is_checkpoint(spec):
        return "rllib"
    kind = SUFFIXES.get(Path(spec).suffix.lower())
    if kind:
        return kind
    if is_reference(spec) and not Path(spec).exists():
        return "python"
    return None


def load_external(spec: str, **options):
    """The bot of the policy ``spec`` names (see the module docstring), with ``options``.

    Raises ``ValueError`` naming the path or reference and what is missing or wrong.
    """
    kind = kind_of(spec)
    if kind is None:
        raise ValueError(f"{spec!r} names no policy file: expected a .onnx file, a stable-baselines3 .zip, an "
                         "RLlib checkpoint directory or a module:attr reference")
    module, function = LOADERS[kind]
    loader = getattr(importlib.import_module(module), function)
    params = inspect.signature(loader).parameters
    if not any(p.kind is p.VAR_KEYWORD for p in params.values()):
        takes = [k for k in params if k not in ("spec", "path")]
        unknown = sorted(set(options) - set(takes))
        if unknown:
            raise ValueError(f"{spec}: a {kind} policy takes no option {unknown[0]!r} (its options: {takes})")
    return loader(spec, **options)
