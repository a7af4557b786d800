"""Load any madang bot by name: ``agents.load("yacht-solver")``; list them with ``agents.catalog()``."""

from __future__ import annotations

import importlib
import inspect
import json
from dataclasses import dataclass

from .base import Bot

_BOTS = {
    "random": ("agents.random_bot", "RandomBot", None, "uniformly random legal action"),
    "gostop-greedy": ("agents.gostop_greedy", "GoStopGreedyBot", "gostop",
                      "captures by card value, blocks near-complete sets, goes only when safe"),
    "gostop-search": ("agents.gostop_search", "GoStopSearchBot", "gostop",
                      "determinized Monte-Carlo search: sampled deals played out by gostop-greedy, greedy prior"),
    "rainbow-greedy": ("agents.rainbow_greedy", "RainbowGreedyBot", "rainbow_dice",
                       "exact expectimax plan of each turn, valuing cards bought and tokens kept"),
    "rainbow-simple": ("agents.rainbow_simple", "RainbowSimpleBot", "rainbow_dice",
                       "keeps the most common value, buys the best marginal card"),
    "yacht-greedy": ("agents.yacht_greedy", "YachtGreedyBot", "yacht",
                     "keeps the most common value, scores the best open category"),
    "yacht-solver": ("agents.yacht_solver", "YachtSolverBot", "yacht",
                     "exact optimal solitaire policy (expected score 169.77)"),
}
"""Bot name -> (module, class, game or None for any game, one-line description)."""


@dataclass(frozen=True)
class BotInfo:
    """What the catalog says about one loadable bot: its name, game (None: any game) and a line."""

    name: str
    game: str | None
    description: str


def shipped_policies() -> list[str]:
    """Names of the trained policies shipped in ``agents/weights`` (``NAME.pt`` + ``NAME.json``)."""
    from .policy_files import WEIGHTS_DIR

    return sorted(p.stem for p in WEIGHTS_DIR.glob("*.json") if p.with_suffix(".pt").exists())


def _policy_info(name: str) -> BotInfo:
    from .policy_files import WEIGHTS_DIR

    try:
        meta = json.loads((WEIGHTS_DIR / f"{name}.json").read_text())
    except (OSError, ValueError):
        return BotInfo(name, None, "shipped policy (unreadable metadata)")
    if meta.get("description"):
        return BotInfo(name, meta.get("game"), str(meta["description"]))
    hidden = "x".join(str(h) for h in meta.get("hidden", []))
    line = f"PPO policy ({hidden} MLP) shipped in agents/weights"
    ev = meta.get("shipped_evaluation") or {}
    if "bot_b" in ev and "mean" in ev and "games" in ev:
        line += f"; {ev['mean']:+.2f} per game against {ev['bot_b']} over {ev['games']} seat-swapped games"
    elif "mean" in ev and "games" in ev:
        line += f"; {ev['mean']:.2f} mean over {ev['games']} evaluation games"
    return BotInfo(name, meta.get("game"), line)


def catalog(game: str | None = None) -> list[BotInfo]:
    """Every loadable bot (heuristics, solvers, shipped policies), sorted by name.

    With ``game`` (a game module name such as ``"gostop"``), only the bots that play it,
    including the bots that play any game (``random``).
    """
    infos = [BotInfo(n, g, d) for n, (_, _, g, d) in _BOTS.items()]
    infos += [_policy_info(n) for n in shipped_policies() if n not in _BOTS]
    if game is not None:
        infos = [b for b in infos if b.game in (None, game)]
    return sorted(infos, key=lambda b: b.name)


def available(game: str | None = None) -> list[str]:
    """Names of every bot ``load`` knows, sorted; with ``game``, those that play that game."""
    return [b.name for b in catalog(game)]


_PATH_NAME = ("path_stem", "name")  # the arguments load() gives load_policy itself


def _check_options(name: str, factory, options: dict, fixed=()) -> dict:
    """``options`` if ``factory`` takes them all (besides the ``fixed`` arguments the loader
    passes itself), else ``ValueError`` naming the bot and the option."""
    params = inspect.signature(factory).parameters
    if any(p.kind is p.VAR_KEYWORD for p in params.values()):
        return options
    takes = [k for k, p in params.items()
             if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) and k not in fixed]
    unknown = sorted(set(options) - set(takes))
    if unknown:
        raise ValueError(f"bot {name!r} takes no option {unknown[0]!r} (its options: {takes or 'none'})")
    return options


def load(name: str, **options) -> Bot:
    """Return a new bot instance by name or by the path of policy files; ``options`` go to it.

    Shipped policies (e.g. ``yacht-ppo``) load their weights from ``agents/weights`` with
    ``torch.load(weights_only=True)``; ``greedy=False`` makes them sample.  A user's own
    policy loads from a path: ``NAME.pt`` / ``NAME.json``, their common stem, or a run
    directory of ``madang train`` (its ``policy.pt`` / ``policy.json``); the bot is named by
    that path.  Other policies load by path or reference too (:mod:`agents.loaders`): an
    ONNX file, a stable-baselines3 zip, an RLlib checkpoint directory or ``module:attr``.
    Names take precedence over paths.  Raises ``ValueError`` for an unknown
    name (listing the known ones) and for bad policy files (naming the file).
    """
    if isinstance(name, str) and name in _BOTS:
        module, cls = _BOTS[name][:2]
        factory = getattr(importlib.import_module(module), cls)
        return factory(**_check_options(name, factory, options))
    if isinstance(name, str) and name in shipped_policies():
        from .policy_files import WEIGHTS_DIR, load_policy

        return load_policy(WEIGHTS_DIR / name, name=name, **_check_options(name, load_policy, options, _PATH_NAME))
    if isinstance(name, str) and name:
        from .loaders import kind_of, load_external

        if kind_of(name):  # an ONNX file, an SB3 zip, an RLlib checkpoint or module:attr
            return load_external(name, **options)
        from .policy_files import load_policy, policy_stem

        stem = policy_stem(name)
        if stem is not None:
            return load_policy(stem, name=name, **_check_options(name, load_policy, options, _PATH_NAME))
    raise ValueError(f"unknown bot {name!r}; available bots: {available()} "
                     "(or the path of policy files: NAME.pt + NAME.json, a run directory, a .onnx file, "
                     "an SB3 .zip, an RLlib checkpoint, or module:attr)")
