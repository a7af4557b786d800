"""The ``info`` fields of every adapter: the same keys from the first step of a game to its last.

Every info of a game carries the game's *result fields* (the keys of its result:
``scores`` in the dice games, ``winner`` and ``payout`` in Go-Stop), ``reason`` and
``reason_code``.  Until the game ends they hold neutral values (scores all 0, ``winner``
-1, ``payout`` 0, ``reason`` ``""``, ``reason_code`` 0); at the end, the result.  Each field
keeps one type: a result's None for a number (Go-Stop's ``winner`` after a nagari) reads
-1 in infos, and a payout is a float throughout if ``illegal_penalty`` is fractional.  So
Gymnasium's ``SyncVectorEnv``, which types each info array by its first value, can stack
them (``game.result()`` and positions keep None).

Two info modes (adapter config ``info_mode``):

* ``"full"`` (default): values as the game reports them (lists, None, strings).
* ``"numeric"``: every value a number or a fixed-shape numeric array, for tools that turn
  infos into tensors (TorchRL): a non-empty list of numbers becomes a numeric array, any
  other list (of records, like Go-Stop's ``skipped_deals``, or empty) its length, None
  becomes -1, and ``reason`` is left out (it is also given as ``reason_code``).
"""

from __future__ import annotations

import numpy as np

INFO_MODES = ("full", "numeric")

_ADAPTER_REASONS = ("", "illegal")
_TABLES: dict[tuple, tuple[tuple[str, ...], dict]] = {}


def _reason_table() -> tuple[tuple[str, ...], dict]:
    """``(REASONS, REASON_CODES)`` for the games registered now (built once per registry)."""
    from ..registration import GAMES

    key = tuple(GAMES.values())
    table = _TABLES.get(key)
    if table is None:
        names = list(_ADAPTER_REASONS)
        for spec in key:
            names += [r for r in spec.result_reasons if r not in names]
        codes = {r: i for i, r in enumerate(names)}
        codes[None] = 0  # a result without a reason
        table = _TABLES[key] = (tuple(names), codes)
    return table


def __getattr__(name: str):
    """``REASONS``: ``info["reason_code"]`` is the index of ``info["reason"]`` in it.

    0 (``""``): the game is still running, or ended without a named reason (the dice games).
    1: lost by an illegal action (``illegal_action="lose"``).  Then every registered game's
    ``result_reasons`` (its descriptor's), in registration order: 2..5 how a Go-Stop deal
    ended.  ``REASON_CODES``: reason -> code (``None`` -> 0).  Both follow the registry.
    """
    if name == "REASONS":
        return _reason_table()[0]
    if name == "REASON_CODES":
        return dict(_reason_table()[1])
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def check_info_mode(info_mode: str) -> str:
    """``info_mode`` if it is one of :data:`INFO_MODES`, else ``ValueError``."""
    if info_mode not in INFO_MODES:
        raise ValueError(f"info_mode must be one of {INFO_MODES}, got {info_mode!r}")
    return info_mode


def reason_code(reason) -> int:
    """The code of a result's ``reason`` (``REASONS``); ``ValueError`` for an unknown one."""
    names, codes = _reason_table()
    try:
        return codes[reason]
    except (KeyError, TypeError):
        raise ValueError(f"unknown result reason {reason!r}; known: {list(names[1:])}") from None


def _numeric(value):
    """One info value in numeric mode (see the module docstring)."""
    if value is None:
        return -1
    if isinstance(value, (list, tuple)):
        if value and all(isinstance(v, (int, float, np.number)) and not isinstance(v, bool) for v in value):
            ints = all(isinstance(v, (int, np.integer)) for v in value)
            return np.asarray(value, dtype=np.int64 if ints else np.float64)
        return len(value)
    if isinstance(value, str):
        raise ValueError(f"numeric info mode: no number for the string {value!r}")
    return value


def convert(fields: dict, info_mode: str) -> dict:
    """``fields`` (a result or a reset info) as the info mode gives them."""
    if info_mode == "full":
        return dict(fields)
    return {k: _numeric(v) for k, v in fields.items() if k != "reason"}


class ResultFields:
    """The result fields of one game's infos, neutral or final, in one info mode.

    ``penalty`` is the env's ``illegal_penalty``: a forfeit's payout, so it fixes the payout's
    type (an int unless the penalty is fractional).
    """

    def __init__(self, game, info_mode: str = "full", penalty: float = 1.0):
        self.info_mode = check_info_mode(info_mode)
        # The keys of a finished game's result, read off a fresh game (forfeit_result needs no end);
        # with the env's penalty, a forfeit's payout fixes the payout's type.
        template = game.forfeit_result(game.init([0]), 0, 0, penalty)
        neutral = {k: _neutral(k, v) for k, v in template.items()}
        self._types = {k: type(v) for k, v in neutral.items() if isinstance(v, (int, float))}
        neutral.update(reason="", reason_code=0)
        self._neutral = convert(neutral, info_mode)
        self._dtypes = {k: np.asarray(v).dtype for k, v in convert(template, "numeric").items()}
        self._dtypes["reason_code"] = np.dtype(np.int64)

    @property
    def keys(self) -> list[str]:
        """The field names, in order."""
        return list(self._neutral)

    def neutral(self) -> dict:
        """The fields of a game that has not ended (fresh values)."""
        return {k: (v.copy() if isinstance(v, np.ndarray) else list(v) if isinstance(v, list) else v)
                for k, v in self._neutral.items()}

    def final(self, result: dict) -> dict:
        """The fields of a finished game with ``result`` (``reason`` may be absent: ``""``)."""
        result = {k: (-1 if v is None else self._types[k](v)) if k in self._types else v
                  for k, v in result.items()}
        fields = {**self.neutral(), **convert(result, self.info_mode)}
        fields["reason_code"] = reason_code(result.get("reason"))
        return fields

    def batch(self, n: int, finished: dict[int, dict] | None = None) -> dict:
        """The fields of ``n`` games as arrays (vector env infos): game ``i`` neutral, or final
        with ``finished[i]``.  Numbers give numeric arrays, lists and strings (full mode)
        object arrays, as Gymnasium's ``SyncVectorEnv`` stacks them."""
        finished = finished or {}
        rows = [self.final(finished[i]) if i in finished else None for i in range(n)]
        out = {}
        for k, neutral in self._neutral.items():
            values = [neutral if r is None else r[k] for r in rows]
            if isinstance(neutral, (int, float, np.ndarray)):
                out[k] = np.array(values, dtype=self._dtypes[k]).reshape(n, *np.shape(neutral))
            else:
                arr = np.empty(n, dtype=object)
                for i, v in enumerate(values):
                    arr[i] = list(v) if isinstance(v, list) else v
                out[k] = arr
        return out


def _neutral(key: str, value):
    """The value of result field ``key`` before the game ends (``value``: one from a result)."""
    if key == "winner":  # a seat, or -1 when there is none
        return -1
    if isinstance(value, (list, tuple)):
        return [type(v)(0) for v in value]
    if isinstance(value, (bool, np.bool_)):
        return False
    if isinstance(value, (int, float, np.number)):
        return type(value)(0)
    return None
