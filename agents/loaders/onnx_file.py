"""ONNX policies as bots: madang's own exports (with ``NAME.json`` beside) and any other ONNX model.

A model fits when it has one float input of observations, shape (batch, O), optionally a
second input of masks, shape (batch, A), of any type (fed as the env's mask cast to it), and
an output of (batch, A) float scores: logits, log-probabilities or action values.  The bot
plays the legal action with the highest score.  The game comes from ``NAME.json`` (a
``madang export``), else from the ``game`` option, else from the widths O and A, which tell
the three games apart.  A model whose batch size is fixed to 1 runs one row at a time.
Needs onnxruntime (``pip install "madang[onnx]"``), imported only here.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from .common import ScoresBot, check_file, resolve_game

INSTALL_HINT = 'ONNX policies need onnxruntime: pip install "madang[onnx]" (or pip install onnxruntime)'
EXPORT_FORMAT = "madang-onnx-policy"
EXPORT_FORMAT_VERSION = 1
"""The ``format`` and ``format_version`` of ``madang export``'s ``NAME.json``: read here, written by
:mod:`frontends.export.metadata` (which imports them, so the format is defined once, below its writer)."""


def _onnxruntime():
    try:
        import onnxruntime
    except ImportError:
        raise ValueError(INSTALL_HINT) from None
    return onnxruntime


def _width(shape) -> int | None:
    """The last dimension of an ONNX shape if it is a fixed number."""
    return shape[-1] if len(shape) == 2 and isinstance(shape[-1], int) else None


def _numpy_type(onnx_type: str):
    names = {"tensor(float)": np.float32, "tensor(double)": np.float64, "tensor(float16)": np.float16,
             "tensor(bool)": np.bool_, "tensor(int8)": np.int8, "tensor(uint8)": np.uint8,
             "tensor(int32)": np.int32, "tensor(int64)": np.int64}
    return names.get(onnx_type)


def _madang_metadata(path: Path) -> dict | None:
    """The ``madang export`` metadata beside ``path`` (``NAME.json``), or None if there is none."""
    js = path.with_suffix(".json")
    if not js.is_file():
        return None
    try:
        meta = json.loads(js.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError):
        return None  # not madang's metadata: the model is taken as a plain ONNX model
    return meta if isinstance(meta, dict) and meta.get("format") == EXPORT_FORMAT else None


def load_onnx(path: str, game: str | None = None, greedy: bool = True):
    """A bot playing the ONNX model at ``path`` (see the module docstring); ``ValueError`` naming
    the file and what does not fit."""
    p = check_file(path, "ONNX")
    ort = _onnxruntime()
    meta = _madang_metadata(p)
    files = [p] if meta is None else [p, p.with_suffix(".json")]
    if meta is not None:
        from envs.registration import GAMES, game_class

        meta_game = meta.get("game")
        if meta_game not in GAMES:
            raise ValueError(f"{p.with_suffix('.json')}: unknown game {meta_game!r}; known games: {sorted(GAMES)}")
        if meta.get("env_id") != game_class(meta_game).env_id:
            raise ValueError(f"{p.with_suffix('.json')}: exported for {meta.get('env_id')!r}, the installed env is "
                             f"{game_class(meta_game).env_id}")
        if game is not None and game != meta_game:
            raise ValueError(f"{path}: exported for {meta_game} (its .json), not {game}")
        game = meta_game
    options = ort.SessionOptions()
    options.intra_op_num_threads = options.inter_op_num_threads = 1
    try:
        session = ort.InferenceSession(str(p), options, providers=["CPUExecutionProvider"])
    except Exception as e:  # onnxruntime raises its own exception types for a bad file
        raise ValueError(f"{path}: onnxruntime cannot load it ({type(e).__name__}: {str(e)[:300]})") from None
    inputs, outputs = session.get_inputs(), session.get_outputs()
    floats = [i for i in inputs if i.type in ("tensor(float)", "tensor(double)", "tensor(float16)")]
    if not 1 <= len(inputs) <= 2 or not floats or any(len(i.shape) != 2 for i in inputs):
        got = ", ".join(f"{i.name} {i.type} {i.shape}" for i in inputs)
        raise ValueError(f"{path}: a policy model has an observation input (batch, O) of floats and optionally "
                         f"a mask input (batch, A); this one has {got}")
    # The observation input: the one named so, else the float input (the first if both are floats).
    obs_in = next((i for i in inputs if i.name == "observation"), floats[0])
    mask_in = next((i for i in inputs if i is not obs_in), None)
    obs_size = _width(obs_in.shape)
    scored = [o for o in outputs if len(o.shape) == 2 and o.type in ("tensor(float)", "tensor(double)")]
    if not scored:
        got = ", ".join(f"{o.name} {o.type} {o.shape}" for o in outputs)
        raise ValueError(f"{path}: no output of (batch, A) float scores (logits or action values); "
                         f"its outputs: {got}")
    out = next((o for o in scored if o.name == "logits"), scored[0])
    num_actions = _width(out.shape) or (mask_in is not None and _width(mask_in.shape)) or None
    game = resolve_game(str(path), game, obs_size, num_actions)
    mask_type = None if mask_in is None else _numpy_type(mask_in.type)
    if mask_in is not None and mask_type is None:
        raise ValueError(f"{path}: its mask input {mask_in.name} has type {mask_in.type}, "
                         "not a bool, integer or float tensor")
    obs_type = _numpy_type(obs_in.type)
    one_row = obs_in.shape[0] == 1  # a model exported with a fixed batch of 1

    def run(obs, mask):
        feed = {obs_in.name: obs.astype(obs_type)}
        if mask_in is not None:
            feed[mask_in.name] = mask.astype(mask_type)
        return np.asarray(session.run([out.name], feed)[0])

    def scores(obs, mask):
        if one_row:
            return np.concatenate([run(obs[i:i + 1], mask[i:i + 1]) for i in range(len(obs))])
        return run(obs, mask)

    return ScoresBot(str(path), game, scores, files, greedy=greedy, kind="onnx")
