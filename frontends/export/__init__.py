"""``madang export NAME``: a shipped policy as ONNX, its metadata and conformance vectors.

Writes ``NAME.onnx`` (the policy network), ``NAME.json`` (env id, layouts, masking rule:
:mod:`frontends.export.metadata`) and ``NAME.examples.json`` (positions from real games with
the observation, mask, greedy action and logits: :mod:`agents.conformance`), then runs the
ONNX file with onnxruntime on the examples and reports how well it agrees.  The format is
described in ``docs/export.md``.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from agents.conformance import collect
from agents.registry import available, load, shipped_policies
from agents.torch_policy import PolicyBot

from .metadata import EXPORT_FORMAT, EXPORT_FORMAT_VERSION, export_metadata
from .onnx_export import onnx_forward, onnx_session, require_onnx, write_onnx


@dataclass
class ExportReport:
    """What ``export_policy`` wrote and how onnxruntime agreed with the recorded examples."""

    onnx: Path
    metadata: Path
    examples: Path
    num_examples: int
    greedy_agree: int  # examples where onnxruntime's argmax is the recorded action
    max_logit_diff: float  # largest |onnxruntime logit - recorded logit|


def exportable() -> list[str]:
    """Names of the bots ``export_policy`` can export: the shipped policy networks."""
    return shipped_policies()


def check_exportable(name: str) -> None:
    """Raise ``ValueError`` naming the exportable bots unless ``name`` is one of them."""
    if name in exportable():
        return
    if name in available():
        raise ValueError(
            f"{name} is a heuristic or search bot: it has no policy network, so it cannot be "
            f"exported; the bots that can be exported are the shipped policies: {exportable()}"
        )
    raise ValueError(f"unknown bot {name!r}; the bots that can be exported are: {exportable()}")


MAX_EXAMPLES = 10_000
"""The most conformance vectors one export records (each is a position from a real game)."""


def check_examples(count: int) -> None:
    """Raise ``ValueError`` unless ``count`` is a number of examples in 1..:data:`MAX_EXAMPLES`."""
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_EXAMPLES:
        raise ValueError(f"the number of examples must be in 1..{MAX_EXAMPLES:,}, got {count!r}")


def output_dir(out_dir: str | Path) -> Path:
    """``out_dir`` as a directory to write into, created if missing; ``ValueError`` naming it when it
    is a file, cannot be created (a name too long, a parent that is a file, ...) or is not writable."""
    out = Path(out_dir)
    try:
        if out.exists() and not out.is_dir():
            raise ValueError(f"{out} exists and is not a directory")
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:  # also from exists(): a name too long, a parent that is a file
        raise ValueError(f"cannot create the directory {out}: {e.strerror or e}") from None
    if not os.access(out, os.W_OK | os.X_OK):
        raise ValueError(f"cannot write into the directory {out}")
    return out


def examples_file(name: str, bot, examples) -> dict:
    """The content of ``NAME.examples.json``."""
    return {
        "format": EXPORT_FORMAT, "format_version": EXPORT_FORMAT_VERSION, "name": name,
        "env_id": bot.metadata["env_id"], "examples": [e.as_json() for e in examples],
    }


def export_policy(name: str, out_dir: str | Path = ".", count: int = 100, seed: int = 0) -> ExportReport:
    """Export the shipped policy ``name`` into ``out_dir``; ``ValueError`` if it cannot be exported
    (not a policy, the onnx extra missing, a bad ``count`` or an ``out_dir`` that is no directory)."""
    check_exportable(name)
    require_onnx()
    return export_bot(load(name), name, out_dir, count=count, seed=seed)


def export_bot(bot: PolicyBot, name: str, out_dir: str | Path, count: int = 100, seed: int = 0) -> ExportReport:
    """Export a loaded policy bot (with its ``metadata``) as ``name``: see :func:`export_policy`."""
    check_examples(count)
    out = output_dir(out_dir)
    onnx_path = write_onnx(bot.model, out / f"{name}.onnx")
    game_config = (bot.metadata.get("training_config") or {}).get("game_config", {})
    examples = collect(bot, count=count, seed=seed, game_config=game_config)
    meta_path, ex_path = out / f"{name}.json", out / f"{name}.examples.json"
    meta_path.write_text(json.dumps(export_metadata(name, bot, len(examples)), indent=2) + "\n")
    ex_path.write_text(json.dumps(examples_file(name, bot, examples), separators=(",", ":")) + "\n")

    # Check the file as written against the examples as written (what a front-end reads).
    data = json.loads(ex_path.read_text())["examples"]
    obs = np.array([e["observation"] for e in data], dtype=np.float32)
    mask = np.array([e["mask"] for e in data], dtype=bool)
    logits, _ = onnx_forward(onnx_session(onnx_path), obs, mask)
    recorded = np.array([e["logits"] for e in data], dtype=np.float32)
    agree = int((logits.argmax(axis=1) == np.array([e["action"] for e in data])).sum())
    return ExportReport(onnx_path, meta_path, ex_path, len(data), agree,
                        float(np.abs(logits - recorded).max()))
