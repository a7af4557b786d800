"""Python policies named ``module:attr`` as bots.

``attr`` (dotted for nested names) may be

* a bot class (anything with an ``act`` method): instantiated with the options;
* a bot instance: used as it is (it takes no options);
* a plain function ``(obs, mask, rng) -> actions``: exactly three positional parameters
  without defaults.  It may act on a batch ((B, O), (B, A) -> (B,) actions) or on one
  observation ((O,), (A,) -> one action).  Unless the option ``batched`` says which, the
  first call tells: the function gets the batch; B actions back means batched; anything
  else (one action, or an error) and it gets the first row alone, and one action back
  means per observation.  The choice then holds for the bot's life;
* any other callable: a factory, called with the options, that returns a bot or such a
  function.

The module is imported from the Python path, or from the current directory.  The bot is
named by the ``module:attr`` string; its game is the object's ``game`` attribute, if any.
"""

from __future__ import annotations

import importlib
import inspect
import os
import re
import sys
from pathlib import Path

import numpy as np

from envs.registration import GAMES

from ..base import BaseBot, as_batch

PATTERN = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*:[A-Za-z_]\w*(\.[A-Za-z_]\w*)*")
"""What a ``module:attr`` reference looks like."""


def is_reference(spec: str) -> bool:
    """Whether ``spec`` has the form ``module:attr`` (dotted names on both sides)."""
    return bool(PATTERN.fullmatch(spec))


def _import(spec: str, module_name: str):
    cwd = os.getcwd()
    added = cwd not in sys.path and "" not in sys.path
    if added:  # the current directory, after everything installed
        sys.path.append(cwd)
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as e:
        if e.name and (module_name == e.name or module_name.startswith(e.name + ".")):
            raise ValueError(f"{spec}: no module named {e.name!r} on the Python path or in the current "
                             f"directory ({cwd})") from None
        raise ValueError(f"{spec}: importing {module_name} failed: {e}") from None
    except Exception as e:  # the user's module failed while importing
        raise ValueError(f"{spec}: importing {module_name} failed: {type(e).__name__}: {e}") from None
    finally:
        if added:
            sys.path.remove(cwd)


def _is_policy_function(obj) -> bool:
    """A function of exactly three positional parameters without defaults: (obs, mask, rng)."""
    if inspect.isclass(obj):
        return False
    try:
        params = inspect.signature(obj).parameters.values()
    except (TypeError, ValueError):
        return False
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    required = [p for p in positional if p.default is p.empty]
    return len(required) == 3 and not any(p.kind is p.VAR_POSITIONAL for p in params)


def _game_of(spec: str, obj) -> str | None:
    game = getattr(obj, "game", None)
    if game is not None and game not in GAMES:
        raise ValueError(f"{spec}: its game attribute is {game!r}, not one of {sorted(GAMES)} or None")
    return game


def _actions(spec: str, out, rows: int) -> np.ndarray:
    """``out`` as (rows,) int64 actions, or ``ValueError`` naming the bot."""
    arr = np.asarray(out)
    if arr.shape != (rows,) or arr.dtype.kind not in "iub":
        raise ValueError(f"bot {spec!r} returned {arr.dtype} actions of shape {arr.shape}; "
                         f"({rows},) integer actions expected")
    return arr.astype(np.int64)


def _one_action(out):
    arr = np.asarray(out)
    return int(arr) if arr.shape == () and arr.dtype.kind in "iu" else None


def _describe(out, error) -> str:
    if error is not None:
        return f"{type(error).__name__}: {error}"
    arr = np.asarray(out)
    return f"{arr.dtype} of shape {arr.shape}"


class PythonBot(BaseBot):
    """A Python object with ``act`` (a bot) or a plain policy function, as a checked bot.

    ``batched``: for a function, ``True`` (it acts on batches), ``False`` (on one
    observation) or ``None`` (the first call tells, see the module docstring).
    """

    def __init__(self, spec: str, inner, game: str | None, files=(), batched: bool | None = None):
        self.name, self.game, self.inner, self.files = spec, game, inner, tuple(files)
        self.kind = "python"
        self._function = not callable(getattr(inner, "act", None))
        self.batched = batched

    def act(self, observations, masks, rng):
        obs, m = as_batch(observations, masks)
        if not self._function:
            return _actions(self.name, self.inner.act(obs, m, rng), len(obs))
        if self.batched is None:
            return self._first_call(obs, m, rng)
        if self.batched:
            return _actions(self.name, self.inner(obs, m, rng), len(obs))
        return self._per_row(obs, m, rng)

    def _per_row(self, obs, m, rng) -> np.ndarray:
        out = np.empty(len(obs), dtype=np.int64)
        for i in range(len(obs)):
            a = _one_action(self.inner(obs[i], m[i], rng))
            if a is None:
                raise ValueError(f"bot {self.name!r}, called on one observation, did not return one integer action")
            out[i] = a
        return out

    def _first_call(self, obs, m, rng) -> np.ndarray:
        batch_out = batch_error = None
        try:
            batch_out = self.inner(obs, m, rng)
        except Exception as e:  # the function may act on one observation only: try that next
            batch_error = e
        if batch_error is None and np.asarray(batch_out).shape == (len(obs),):
            self.batched = True
            return _actions(self.name, batch_out, len(obs))
        row_out = row_error = None
        try:
            row_out = self.inner(obs[0], m[0], rng)
        except Exception as e:
            row_error = e
        if row_error is None and _one_action(row_out) is not None:
            self.batched = False
            return np.concatenate([[_one_action(row_out)], self._per_row(obs[1:], m[1:], rng)]).astype(np.int64)
        raise ValueError(
            f"bot {self.name!r}: a policy function returns ({len(obs)},) integer actions for a batch or one "
            f"integer action for one observation; on the batch it gave {_describe(batch_out, batch_error)}, "
            f"on one observation {_describe(row_out, row_error)}")


def as_bot(obj, name: str | None = None):
    """``obj`` as a bot: itself if it has an ``act`` method, a plain function ``(obs, mask, rng) ->
    actions`` (batched or per observation) wrapped as :class:`PythonBot` named ``name`` (default: the
    function's name); ``ValueError`` for anything else."""
    if callable(getattr(obj, "act", None)):
        return obj
    if _is_policy_function(obj):
        label = name or getattr(obj, "__qualname__", None) or type(obj).__name__
        try:
            source = inspect.getsourcefile(obj)
        except TypeError:
            source = None
        return PythonBot(label, obj, _game_of(label, obj), [Path(source)] if source else [])
    raise ValueError(f"{obj!r} is not a bot: it has no act(observations, masks, rng) method and is not a "
                     "function (obs, mask, rng) -> actions")


def load_python(spec: str, batched: bool | None = None, **options) -> PythonBot:
    """The bot that ``module:attr`` names (see the module docstring); ``options`` go to a class or
    factory.  ``ValueError`` names the reference and what was tried."""
    if not is_reference(spec):
        raise ValueError(f"{spec!r} is not a module:attr reference (e.g. mybots:KeepSixes)")
    if batched is not None and not isinstance(batched, bool):
        raise ValueError(f"{spec}: batched must be true or false, got {batched!r}")
    module_name, attr = spec.split(":")
    module = _import(spec, module_name)
    obj = module
    for part in attr.split("."):
        if not hasattr(obj, part):
            public = sorted(n for n in vars(module) if not n.startswith("_"))
            raise ValueError(f"{spec}: module {module_name} has no attribute {attr!r} (it has: {public[:20]})")
        obj = getattr(obj, part)
    source = inspect.getsourcefile(module) if hasattr(module, "__file__") else None
    files = [Path(source)] if source else []

    def build(factory, what: str):
        try:
            return factory(**options)
        except TypeError as e:
            raise ValueError(f"{spec}: calling the {what} with options {options} failed: {e}") from None

    if inspect.isclass(obj):
        if not callable(getattr(obj, "act", None)):
            raise ValueError(f"{spec}: class {obj.__name__} has no act(observations, masks, rng) method")
        inner = build(obj, "bot class")
    elif callable(getattr(obj, "act", None)):
        if options:
            raise ValueError(f"{spec} is a bot instance: it takes no options, got {sorted(options)}")
        inner = obj
    elif _is_policy_function(obj):
        if options:
            raise ValueError(f"{spec} is a policy function (obs, mask, rng): it takes no options besides "
                             f"batched, got {sorted(options)}")
        inner = obj
    elif callable(obj):
        inner = build(obj, "factory")
        if not callable(getattr(inner, "act", None)) and not _is_policy_function(inner):
            raise ValueError(f"{spec}: the factory returned {type(inner).__name__}, neither a bot (an object with "
                             "act) nor a function (obs, mask, rng) -> actions")
    else:
        raise ValueError(f"{spec} is a {type(obj).__name__}: not a bot, a bot class, a factory, or a function "
                         "(obs, mask, rng) -> actions")
    if batched is not None and callable(getattr(inner, "act", None)):
        raise ValueError(f"{spec}: batched applies to policy functions; a bot's act always takes a batch")
    return PythonBot(spec, inner, _game_of(spec, inner), files, batched)
