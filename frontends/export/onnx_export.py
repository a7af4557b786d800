"""Write a policy network as ONNX and run an ONNX file with onnxruntime (the ``madang[onnx]`` extra)."""

from __future__ import annotations

import logging
import warnings
from pathlib import Path

import numpy as np
import torch

from agents.torch_policy import ActorCritic

from .metadata import INPUTS, OPSET, OUTPUTS

EXTRA_MODULES = ("onnx", "onnxruntime", "onnxscript")
INSTALL_HINT = 'pip install "madang[onnx]" installs the onnx extra (in a source checkout: pip install -e ".[onnx]")'


def require_onnx() -> None:
    """Raise ``ValueError`` naming the missing modules unless onnx, onnxruntime and onnxscript
    (the ``madang[onnx]`` extra) import; :data:`INSTALL_HINT` says how to install them."""
    missing = []
    for module in EXTRA_MODULES:
        try:
            __import__(module)
        except ImportError:
            missing.append(module)
    if missing:
        raise ValueError(f"exporting needs {', '.join(missing)} (the madang[onnx] extra), which "
                         f"{'is' if len(missing) == 1 else 'are'} not installed")


def write_onnx(model: ActorCritic, path: str | Path) -> Path:
    """Export ``model`` to one self-contained ONNX file at ``path`` (opset :data:`OPSET`).

    Inputs ``observation`` (batch, obs_size) float32 and ``action_mask`` (batch, num_actions)
    bool; outputs ``logits`` (batch, num_actions) with illegal actions masked, and ``value``
    (batch,).  The batch size is dynamic.
    """
    require_onnx()
    path = Path(path)
    model = model.cpu().eval()
    obs = torch.zeros(2, model.obs_size)
    mask = torch.ones(2, model.num_actions, dtype=torch.bool)
    batch = torch.export.Dim("batch")
    onnx_logger = logging.getLogger("torch.onnx")
    level = onnx_logger.level
    onnx_logger.setLevel(logging.ERROR)  # not "torchvision is not installed" x4
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            torch.onnx.export(
                model, (obs, mask), str(path), input_names=list(INPUTS), output_names=list(OUTPUTS),
                dynamic_shapes=({0: batch}, {0: batch}), opset_version=OPSET, dynamo=True,
                external_data=False, verbose=False,
            )
    finally:
        onnx_logger.setLevel(level)
    return path


def onnx_session(path: str | Path):
    """An onnxruntime CPU inference session of the ONNX file at ``path`` (one thread)."""
    require_onnx()
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = options.inter_op_num_threads = 1
    return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])


def onnx_forward(session, observation: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(logits, value)`` of an exported policy for a batch of observations and bool masks."""
    logits, value = session.run(list(OUTPUTS), {
        INPUTS[0]: np.ascontiguousarray(observation, dtype=np.float32),
        INPUTS[1]: np.ascontiguousarray(mask, dtype=bool),
    })
    return logits, value
