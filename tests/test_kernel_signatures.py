"""No kernel takes a game's state as loose arrays (issue 22: one state object in the kernels).

Every numba kernel under ``envs/`` and ``tests/games/`` is found with :mod:`ast`: a function
decorated with ``njit`` / ``numba.njit`` / ``jit`` / the project's ``kernel`` (bare or called),
or a function handed to one of them or to ``StateChecker`` (``kernel(inline=True)(_check)``,
``StateChecker(FIELDS, _check_buffer, ...)``).  A kernel fails when it

* takes more than :data:`MAX_PARAMETERS` parameters, or
* takes two or more state arrays: parameters named as a field of some game's state (its
  ``checks.FIELDS`` names and its ``kernels.Arrays`` names) that the kernel uses as arrays
  (indexes, or reads an attribute of, such as ``.shape``).  A scalar named after the field it
  came from (``layout`` for ``layout[i]``, ``key`` for a stream's key) is not a state array.

The kernels take the state as its one buffer and rebuild the fields with the game's ``unpack``
(``envs/core/kernels.py`` describes the frame); helpers take the unpacked ``s`` and indices.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCANNED = ("envs", "tests/games")
MAX_PARAMETERS = 8
DECORATORS = {"njit", "jit", "kernel"}
"""Names (bare or as ``numba.<name>``) that compile a function, as a decorator or when called on it."""
WRAPPERS = DECORATORS | {"StateChecker"}
"""Calls whose function arguments are compiled (``StateChecker`` compiles its check function)."""

ALLOWED: dict = {
    # (file, kernel): why.  The test fails on an entry that no longer breaks a rule, so the
    # list only shrinks.  Empty: every kernel takes the state's buffer.
}


def game_packages() -> list[str]:
    """The dotted names of every game package under :data:`SCANNED` (a package with ``checks.py``)."""
    return sorted(".".join(p.parent.relative_to(ROOT).parts) for d in SCANNED for p in (ROOT / d).rglob("checks.py"))


def state_field_names() -> frozenset[str]:
    """Every name a game's state field goes by: its ``checks.FIELDS`` name, and the name its
    ``kernels.Arrays`` (what ``unpack`` gives) calls it."""
    names = set()
    for package in game_packages():
        names.update(name for name, _, _ in importlib.import_module(f"{package}.checks").FIELDS)
        names.update(importlib.import_module(f"{package}.kernels").Arrays._fields)
    return frozenset(names)


def _called_name(node) -> str | None:
    """``f`` for ``f``, ``m.f``, ``f(...)`` and ``m.f(...)``; None otherwise."""
    if isinstance(node, ast.Call):
        node = node.func
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def kernels_of(tree: ast.Module) -> list[ast.FunctionDef]:
    """The functions of a parsed module that numba compiles (see the module docstring)."""
    functions = {f.name: f for f in ast.walk(tree) if isinstance(f, ast.FunctionDef)}
    found = {name for name, f in functions.items() if any(_called_name(d) in DECORATORS for d in f.decorator_list)}
    for call in ast.walk(tree):
        if isinstance(call, ast.Call) and _called_name(call.func) in WRAPPERS:
            found.update(a.id for a in call.args if isinstance(a, ast.Name) and a.id in functions)
    return [functions[name] for name in sorted(found)]


def _array_names(fn: ast.FunctionDef) -> set[str]:
    """Names the body of ``fn`` indexes (``x[i]``) or reads an attribute of (``x.shape``)."""
    return {node.value.id for node in ast.walk(fn)
            if isinstance(node, (ast.Subscript, ast.Attribute)) and isinstance(node.value, ast.Name)}


def problems(path: Path, fields: frozenset[str]) -> dict[str, str]:
    """``{kernel name: what is wrong}`` for every kernel of the file ``path`` that breaks a rule."""
    out = {}
    for fn in kernels_of(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        params = [a.arg for a in fn.args.posonlyargs + fn.args.args + fn.args.kwonlyargs]
        params += [a.arg for a in (fn.args.vararg, fn.args.kwarg) if a is not None]
        loose = [p for p in params if p in fields and p in _array_names(fn)]
        if len(params) > MAX_PARAMETERS:
            out[fn.name] = f"takes {len(params)} parameters (at most {MAX_PARAMETERS})"
        elif len(loose) >= 2:
            out[fn.name] = f"takes the state arrays {', '.join(loose)} loose (take the buffer or the unpacked state)"
    return out


def scanned_files() -> list[Path]:
    return sorted(p for d in SCANNED for p in (ROOT / d).rglob("*.py"))


def test_every_game_package_is_scanned():
    assert {"envs.yacht", "envs.rainbow_dice", "envs.gostop", "tests.games.pig"} <= set(game_packages())
    assert {"to_move", "done", "rng_key", "key", "sheets", "scores", "hands"} <= state_field_names()


def test_no_kernel_takes_the_state_as_loose_arrays():
    fields = state_field_names()
    found = {(str(p.relative_to(ROOT)), name): why for p in scanned_files() for name, why in problems(p, fields).items()}
    kernels = {(str(p.relative_to(ROOT)), fn.name) for p in scanned_files()
               for fn in kernels_of(ast.parse(p.read_text(encoding="utf-8")))}
    assert {("envs/yacht/kernels.py", "step"), ("envs/gostop/kernels.py", "_fill"),  # the scan sees kernels of
            ("envs/rainbow_dice/checks.py", "_check"), ("envs/core/kernels.py", "step_all"),  # every kind
            ("tests/games/pig/checks.py", "_check_buffer"), ("tests/games/pig/kernels.py", "step_one")} <= kernels
    unexpected = {k: why for k, why in found.items() if k not in ALLOWED}
    assert not unexpected, "\n".join(f"{f}: {name} {why}" for (f, name), why in unexpected.items())
    stale = set(ALLOWED) - set(found)
    assert not stale, f"allowed but no longer breaking a rule (remove from ALLOWED): {sorted(stale)}"


PLANTED = '''
import numba
from numba import njit
from envs.core.kernels import kernel


@kernel(inline=True)
def pass_turn(i, seat, to_move, round_, sheets):
    to_move[i] = seat
    round_[i] += 1
    return sheets[i, seat, 0]


@numba.njit(cache=True)
def wide(a, b, c, d, e, f, g, h, k):
    return a


def _check(lo, hi, skip, done, rng_counter):
    return done[lo], rng_counter.shape[0]


check = kernel(inline=True)(_check)


@njit
def scalars(key, counter, layout, played):
    return key + counter + layout + played


@kernel
def fine(i, s, rewards, cfg):
    s.to_move[i] = 0


def not_compiled(to_move, done):
    return to_move[0], done[0]
'''


@pytest.mark.parametrize("decorated", [True, False])
def test_the_scan_catches_a_planted_violation(tmp_path, decorated):
    path = tmp_path / "planted.py"
    path.write_text(PLANTED if decorated else PLANTED.replace("@kernel(inline=True)\ndef pass_turn",
                                                              "def pass_turn"))
    found = problems(path, state_field_names())
    expected = {"wide", "_check"} | ({"pass_turn"} if decorated else set())
    assert set(found) == expected
    assert "9 parameters" in found["wide"] and "done, rng_counter" in found["_check"]
    if decorated:
        assert "to_move, round_, sheets" in found["pass_turn"]
