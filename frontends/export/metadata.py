"""The metadata of an exported policy (``NAME.json``), generated from the game's code.

The observation and action layouts come from the game class (``obs_slices``,
``action_slices``, ``describe_action``), so an export always describes the installed
env, whatever its layout is.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

from agents.loaders.onnx_file import EXPORT_FORMAT, EXPORT_FORMAT_VERSION
from agents.torch_policy import MASKED_LOGIT, PolicyBot
from envs.registration import game_class

OPSET = 18
INPUTS = ("observation", "action_mask")
OUTPUTS = ("logits", "value")
LOGIT_TOLERANCE = 1e-4
"""How far a runtime's logits may be from the recorded ones (absolute) and still conform."""
MASKING_RULE = (
    "action_mask[i, a] is true exactly for the legal actions of row i (the env's mask); the "
    f"network sets the logit of every other action to {MASKED_LOGIT:g}, so argmax and softmax "
    "never pick an illegal action. Every row needs at least one legal action."
)
GREEDY_RULE = "the greedy action is argmax(logits) over the action ids; on a tie the lowest id"


def slices_json(slices: dict[str, slice]) -> list[dict]:
    """Named slices as ``[{"name", "start", "stop"}]`` in layout order."""
    return [{"name": name, "start": sl.start, "stop": sl.stop} for name, sl in slices.items()]


def game_layout(game: str) -> dict:
    """The observation and action layout of ``game`` as JSON-compatible data."""
    cls = game_class(game)
    g = cls()
    return {
        "observation": {
            "size": cls.obs_size, "dtype": "float32", "range": [0.0, 1.0],
            "slices": slices_json(cls.obs_slices),
            "docs": f"docs/rules/{game}.md#observation",
        },
        "action": {
            "size": cls.num_actions, "space": f"Discrete({cls.num_actions})",
            "slices": slices_json(cls.action_slices),
            "names": [g.describe_action(a) for a in range(cls.num_actions)],
            "docs": f"docs/rules/{game}.md#actions",
        },
    }


def _madang_version() -> str | None:
    try:
        return version("madang")
    except PackageNotFoundError:
        return None


def export_metadata(name: str, bot: PolicyBot, num_examples: int) -> dict:
    """``NAME.json`` of the policy bot ``bot`` shipped as ``name``."""
    meta = bot.metadata
    obs_size, num_actions = bot.model.obs_size, bot.model.num_actions
    return {
        "format": EXPORT_FORMAT, "format_version": EXPORT_FORMAT_VERSION,
        "name": name, "madang_version": _madang_version(),
        "game": bot.game, "env_id": meta["env_id"],
        "game_config": (meta.get("training_config") or {}).get("game_config", {}),
        "onnx": {
            "file": f"{name}.onnx", "opset": OPSET,
            "inputs": [
                {"name": INPUTS[0], "dtype": "float32", "shape": ["batch", obs_size]},
                {"name": INPUTS[1], "dtype": "bool", "shape": ["batch", num_actions]},
            ],
            "outputs": [
                {"name": OUTPUTS[0], "dtype": "float32", "shape": ["batch", num_actions]},
                {"name": OUTPUTS[1], "dtype": "float32", "shape": ["batch"]},
            ],
        },
        **game_layout(bot.game),
        "masking": {"rule": MASKING_RULE, "masked_logit": MASKED_LOGIT},
        "greedy": GREEDY_RULE,
        "value": "the critic's estimate of the acting seat's return still to come, in training "
                 "units: divide by training_config.reward_scale for game points",
        "network": {"hidden": list(meta["hidden"]), "activation": "tanh"},
        "training_config": meta.get("training_config"),
        "shipped_evaluation": meta.get("shipped_evaluation"),
        "examples": {"file": f"{name}.examples.json", "count": num_examples,
                     "logit_tolerance": LOGIT_TOLERANCE},
    }
