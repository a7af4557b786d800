"""The floors of the house (docs/architecture.md), checked on every shipped module's imports.

Each shipped module (a ``.py`` file in a package of the five rooms: ``envs``, ``agents``,
``training``, ``frontends``, ``benchmarks``) is parsed with :mod:`ast`, and every import it
makes, at the top or inside a function, is checked:

* no import from a higher floor (:func:`floor`);
* no import of ``tests`` (the tests are not shipped);
* no import of another room's private name (``from training.cli import _key_values``);
* no import cycle between rooms.

Imports by a constant module name (``importlib.import_module("x.y")``, or an f-string's
constant head ``f"tests.oracles.{game}"``) count as imports too.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ROOMS = ("envs", "agents", "training", "frontends", "benchmarks")

FLOORS = {"envs.core": 1, "envs.adapters": 2, "envs.registration": 2, "envs": 2,
          "agents": 3, "training": 4, "frontends": 5, "benchmarks": 5}
"""The floor of a module: that of its longest listed prefix; a game package ``envs.<game>`` is on
floor 1 with the core (see :func:`floor`).  A module imports only from its own floor or below.
``benchmarks`` shares the top floor with ``frontends``: it may import anything shipped below, and
``madang bench`` (frontends) shows :mod:`benchmarks.throughput`, so benchmarks never import
frontends (the cycle check keeps that arrow one way)."""

EXCEPTIONS = {
    # (importer, imported): why
    ("envs.*.__init__", "envs.adapters.pettingzoo_env"):
        "PettingZoo's convention: a game package's env() builds its AEC env (imported inside env())",
}
"""Known imports from a higher floor, each with its reason (``*``: one dotted component)."""


def floor(module: str) -> int:
    """The floor of ``module`` (a dotted name in one of :data:`ROOMS`)."""
    parts = module.split(".")
    for n in range(len(parts), 0, -1):
        prefix = ".".join(parts[:n])
        if prefix in FLOORS:
            if prefix == "envs" and n < len(parts) and parts[1] not in ("adapters", "registration"):
                return 1  # envs.<game>...: one game's rules, on the core's floor
            return FLOORS[prefix]
    raise ValueError(f"{module} is in no room")


def shipped_modules(root: Path = ROOT) -> dict[str, Path]:
    """Every shipped module under ``root``: dotted name -> file (packages: directories with an
    ``__init__.py``, as setuptools finds them)."""
    out = {}
    for room in ROOMS:
        for path in sorted((root / room).rglob("*.py")):
            rel = path.relative_to(root)
            dirs = rel.parts[:-1]
            if all((root.joinpath(*dirs[:i + 1]) / "__init__.py").is_file() for i in range(len(dirs))):
                name = ".".join(dirs + (() if path.stem == "__init__" else (path.stem,)))
                out[name] = path
    return out


def _dynamic_target(node: ast.Call) -> str | None:
    """The module a ``import_module(...)`` call names by a constant (or an f-string's constant head)."""
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
    if name != "import_module" or not node.args:
        return None
    arg = node.args[0]
    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
        return arg.value
    if isinstance(arg, ast.JoinedStr) and arg.values and isinstance(arg.values[0], ast.Constant):
        head = str(arg.values[0].value).rsplit(".", 1)[0]
        return head or None
    return None


def imports(module: str, path: Path) -> list[tuple[str, list[str], int]]:
    """``(imported module, names taken from it, line)`` for every import in the module's source."""
    package = module if path.stem == "__init__" else module.rpartition(".")[0]
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            out += [(a.name, [], node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module
            out.append((target, [a.name for a in node.names], node.lineno))
        elif isinstance(node, ast.Call):
            target = _dynamic_target(node)
            if target:
                out.append((target, [], node.lineno))
    return out


def _excepted(importer: str, imported: str) -> bool:
    """Whether the import is one of :data:`EXCEPTIONS` (``importer`` ends in ``.__init__`` for a package)."""
    mine = importer.split(".")
    for pattern, target in EXCEPTIONS:
        parts = pattern.split(".")
        if (imported == target and len(mine) == len(parts)
                and all(p in ("*", m) for p, m in zip(parts, mine))):
            return True
    return False


def _is_init(modules: dict, name: str) -> bool:
    return name in modules and modules[name].stem == "__init__"


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def violations(root: Path = ROOT) -> list[str]:
    """Every breach of the floors under ``root``, one line each (empty: the house stands)."""
    modules = shipped_modules(root)
    found, edges = [], {}
    for module, path in modules.items():
        room = module.split(".")[0]
        where = f"{path.relative_to(root)}"
        for target, names, line in imports(module, path):
            top = target.split(".")[0]
            if top == "tests":
                found.append(f"{where}:{line}: imports {target} (nothing shipped imports tests)")
                continue
            if top not in ROOMS:
                continue  # the standard library or a dependency
            if top != room:
                edges.setdefault(room, set()).add(top)
            if floor(target) > floor(module) and not _excepted(module + (".__init__" if _is_init(modules, module)
                                                                          else ""), target):
                found.append(f"{where}:{line}: imports {target} from floor {floor(target)}, "
                             f"above its own floor {floor(module)}")
            if top != room:
                private = [p for p in target.split(".") if _private(p)] + [n for n in names if _private(n)]
                if private:
                    found.append(f"{where}:{line}: imports {private[0]} from {target}, "
                                 f"a private name of another room ({top})")
    found += [f"import cycle between rooms: {' -> '.join(c)}" for c in _cycles(edges)]
    return found


def _cycles(edges: dict[str, set]) -> list[list[str]]:
    """One cycle through each strongly connected group of rooms (Tarjan's algorithm)."""
    index, low, stack, on, groups = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return [g + [g[0]] for g in groups]


def test_the_shipped_modules_respect_the_floors():
    assert len(shipped_modules()) > 100
    problems = violations()
    assert not problems, "\n".join(problems)


def _plant(tmp_path: Path, files: dict[str, str]) -> Path:
    for room in ROOMS:
        (tmp_path / room).mkdir()
        (tmp_path / room / "__init__.py").write_text("")
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.parent != tmp_path and not (path.parent / "__init__.py").exists():
            (path.parent / "__init__.py").write_text("")
        path.write_text(text)
    return tmp_path


@pytest.mark.parametrize("files, expected", [
    ({"envs/core/rules.py": "def f():\n    import agents\n"}, "imports agents from floor 3, above its own floor 1"),
    ({"envs/core/rules.py": "from ..adapters import gym_env\n", "envs/adapters/gym_env.py": ""},
     "imports envs.adapters from floor 2, above its own floor 1"),
    ({"envs/yacht/rules.py": "from envs.registration import GAMES\n"}, "imports envs.registration from floor 2"),
    ({"agents/bot.py": "from training.evaluate import play_match\n"}, "imports training.evaluate from floor 4"),
    ({"training/run.py": "from frontends import cli\n"}, "imports frontends from floor 5"),
    ({"training/run.py": "import benchmarks.throughput\n"}, "imports benchmarks.throughput from floor 5"),
    ({"frontends/cli.py": "import benchmarks.t\n", "benchmarks/t.py": "from frontends.cli import main\n"},
     "import cycle between rooms: benchmarks -> frontends -> benchmarks"),
    ({"benchmarks/b.py": "import importlib\nimportlib.import_module(f'tests.oracles.{x}_numpy')\n"},
     "imports tests.oracles (nothing shipped imports tests)"),
    ({"frontends/x.py": "from tests.play_pages import serving\n"}, "imports tests.play_pages"),
    ({"benchmarks/b.py": "from frontends.cli import _key_values\n"}, "imports _key_values from frontends.cli, a private"),
    ({"benchmarks/b.py": "from agents._hidden import x\n"}, "imports _hidden from agents._hidden, a private"),
    ({"agents/a.py": "import benchmarks.b\n", "benchmarks/b.py": "import agents.a\n"},
     "import cycle between rooms: agents -> benchmarks -> agents"),
])
def test_a_planted_breach_is_found(tmp_path, files, expected):
    problems = violations(_plant(tmp_path, files))
    assert any(expected in p for p in problems), problems


def test_allowed_imports_are_not_breaches(tmp_path):
    root = _plant(tmp_path, {
        "envs/yacht/__init__.py": "def env():\n    from ..adapters.pettingzoo_env import make_aec_env\n",
        "envs/adapters/pettingzoo_env.py": "from ..core import game\nfrom ..yacht import rules\n",
        "envs/core/game.py": "import numpy\nfrom . import _kernels\nfrom ._kernels import _step\n",
        "agents/a.py": "from envs.core.game import Game\n",
        "frontends/cli.py": "import agents, training, envs\nfrom ._common import _x\n",
        "benchmarks/b.py": "import frontends.cli\n",
        "tests/t.py": "from agents._x import y\n",  # tests are not shipped: they import anything
    })
    assert violations(root) == []
