"""Load any madang bot by name: ``agents.load("yacht-solver")``; list them with ``agents.catalog()``.

A name is looked up among the built-in bots, then the policies that come with the package
(``agents/weights``), then those the user shipped with ``madang ship`` (:func:`user_bots_dir`).
Nothing is ever written into the package.
"""

from __future__ import annotations

import importlib
import inspect
import os
import re
from dataclasses import dataclass
from pathlib import Path

from .base import Bot

_BOTS = {
    "random": ("agents.random_bot", "RandomBot", None, "uniformly random legal action"),
    "gostop-greedy": ("agents.gostop_greedy", "GoStopGreedyBot", "gostop",
                      "captures by card value, blocks near-complete sets, goes only when safe"),
    "gostop-search": ("agents.gostop_search", "GoStopSearchBot", "gostop",
                      "determinized Monte-Carlo search with compiled play-outs: every move on 512 sampled "
                      "deals, Go/Stop by the deal's value, a second look where the top moves are close"),
    "gostop-search-v1": ("agents.gostop_search_v1", "GoStopSearchV1Bot", "gostop",
                         "the first gostop-search, frozen as a reference: sampled deals played out by "
                         "gostop-greedy in Python, greedy prior"),
    "rainbow-greedy": ("agents.rainbow_greedy", "RainbowGreedyBot", "rainbow_dice",
                       "exact expectimax plan of each turn, valuing cards bought and tokens kept"),
    "rainbow-simple": ("agents.rainbow_simple", "RainbowSimpleBot", "rainbow_dice",
                       "keeps the most common value, buys the best marginal card"),
    "yacht-greedy": ("agents.yacht_greedy", "YachtGreedyBot", "yacht",
                     "keeps the most common value, scores the best open category"),
    "yacht-solver": ("agents.yacht_solver", "YachtSolverBot", "yacht",
                     "exact optimal solitaire policy (expected score 169.77)"),
    "yacht-solver-threshold": ("agents.yacht_threshold", "YachtThresholdBot", "yacht",
                               "exact policy for the best chance of reaching a target total (target=200)"),
    "yacht-win": ("agents.yacht_win", "YachtWinBot", "yacht",
                  "plays for the win against expectation-optimal opponents: their exact score "
                  "distributions, threshold values, one turn solved exactly"),
}
"""Bot name -> (module, class, game or None for any game, one-line description)."""


@dataclass(frozen=True)
class BotInfo:
    """What the catalog says about one loadable bot: its name, game (None: any game) and a line."""

    name: str
    game: str | None
    description: str


SHIP_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}")
"""A name ``madang ship`` gives a bot: lower-case letters, digits, ``-`` and ``_``, at most 64."""


def user_bots_dir() -> Path:
    """Where ``madang ship`` puts a user's bots: ``$MADANG_HOME/bots`` when ``MADANG_HOME`` is set,
    else ``bots`` in the per-user data directory of the OS (platformdirs, e.g. ``~/.local/share/madang``)."""
    home = os.environ.get("MADANG_HOME")
    if home:
        return Path(home).expanduser() / "bots"
    import platformdirs

    return Path(platformdirs.user_data_dir("madang", appauthor=False)) / "bots"


def _policies_in(directory: Path) -> list[str]:
    """Names of the policies in ``directory`` (``NAME.pt`` + ``NAME.json``, NAME a :data:`SHIP_NAME`)."""
    try:
        return sorted(p.stem for p in directory.glob("*.json")
                      if SHIP_NAME.fullmatch(p.stem) and p.with_suffix(".pt").is_file())
    except OSError:  # an unreadable or odd MADANG_HOME hides its bots, it does not break the package's
        return []


def package_policies() -> list[str]:
    """Names of the trained policies that come with the package (``agents/weights``)."""
    from .policy_files import WEIGHTS_DIR

    return _policies_in(WEIGHTS_DIR)


def user_policies() -> list[str]:
    """Names of the policies shipped into :func:`user_bots_dir` that the package's bots do not shadow."""
    taken = set(_BOTS) | set(package_policies())
    return [n for n in _policies_in(user_bots_dir()) if n not in taken]


def shipped_policies() -> list[str]:
    """Names of every policy ``load`` finds by name: the package's, then the user's (:func:`user_bots_dir`)."""
    return sorted(package_policies() + user_policies())


def _named_policy(name: str) -> Path | None:
    """The stem of the policy files of the bot ``name``: the package's first, then the user's."""
    from .policy_files import WEIGHTS_DIR

    if name in package_policies():
        return WEIGHTS_DIR / name
    if name in user_policies():
        return user_bots_dir() / name
    return None


def ship_destination(name: str, force: bool = False) -> Path:
    """The stem ``madang ship`` writes the bot ``name`` to, in :func:`user_bots_dir`.

    Raises ``ValueError`` for a name that is not a :data:`SHIP_NAME`, that of a built-in bot
    or of a policy that comes with the package (those are found first, so a user's bot of that
    name could never load), or that of a bot the user shipped before, unless ``force``.
    """
    if not isinstance(name, str) or not SHIP_NAME.fullmatch(name):
        raise ValueError(f"{name!r} is not a bot name: use 1 to 64 lower-case letters, digits, - and _, "
                         "starting with a letter or digit")
    if name in _BOTS or name in package_policies():
        raise ValueError(f"{name!r} is a bot that comes with madang: it cannot be replaced (and a bot of "
                         "yours of that name would never load)")
    stem = user_bots_dir() / name
    if not force and (stem.with_suffix(".pt").exists() or stem.with_suffix(".json").exists()):
        raise ValueError(f"you already shipped a bot named {name!r} ({stem}.pt): --force replaces it")
    return stem


def _number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _policy_info(name: str) -> BotInfo:
    from .policy_files import read_metadata

    stem = _named_policy(name)
    where = "shipped in agents/weights" if name in package_policies() else f"shipped by you to {stem.parent}"
    try:
        meta = read_metadata(stem.with_suffix(".json"))
    except ValueError:
        return BotInfo(name, None, f"policy {where} (its metadata does not load)")
    if isinstance(meta.get("description"), str) and meta["description"]:
        return BotInfo(name, meta["game"], meta["description"])
    hidden = "x".join(str(h) for h in meta["hidden"])
    line = f"PPO policy ({hidden} MLP) {where}"
    ev = meta.get("shipped_evaluation")
    ev = ev if isinstance(ev, dict) else {}
    if _number(ev.get("mean")) and _number(ev.get("games")):
        if isinstance(ev.get("bot_b"), str):
            line += f"; {ev['mean']:+.2f} per game against {ev['bot_b']} over {ev['games']} seat-swapped games"
        else:
            line += f"; {ev['mean']:.2f} mean over {ev['games']} evaluation games"
    return BotInfo(name, meta["game"], line)


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


class BotOptionError(ValueError):
    """An option that the bot being loaded does not take (the message lists those it takes)."""


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
        raise BotOptionError(f"bot {name!r} takes no option {unknown[0]!r} (its options: {takes or 'none'})")
    return options


def load(name: str, **options) -> Bot:
    """Return a new bot instance by name or by the path of policy files; ``options`` go to it.

    Shipped policies load their weights with ``torch.load(weights_only=True)``: the package's
    own (e.g. ``yacht-ppo``, in ``agents/weights``), then those shipped with ``madang ship``
    (in :func:`user_bots_dir`); ``greedy=False`` makes them sample.  A user's own
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
    stem = _named_policy(name) if isinstance(name, str) else None
    if stem is not None:
        from .policy_files import load_policy

        return load_policy(stem, name=name, **_check_options(name, load_policy, options, _PATH_NAME))
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


def resolve_bot(spec) -> Bot:
    """agents' entry point in the ``madang.bot_resolvers`` group (pyproject.toml), through which the
    envs turn an ``opponents`` entry into a bot without importing agents: a name, path or
    ``module:attr`` string is :func:`load`-ed, anything else goes through
    :func:`~agents.loaders.python_ref.as_bot` (a bot as it is, a plain function ``(obs, mask, rng) ->
    actions`` wrapped).  ``ValueError`` for what is none of these."""
    if isinstance(spec, str):
        return load(spec)
    from .loaders.python_ref import as_bot

    return as_bot(spec)
