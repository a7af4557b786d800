"""What some tests need beyond README's install, checked in one place for tests/ and notebooks/.

README's install (``pip install torch==2.13.0 -e ".[dev]"``) runs README's test command with
every test passing or skipped.  A test that needs more declares it, and nothing else checks:

* a test or module: ``@pytest.mark.requires("onnx")`` / ``pytestmark = pytest.mark.requires(...)``
  (import such tools inside the tests, so that the module imports without them);
* a notebook: ``"madang": {"requires": [...]}`` in its metadata;
* a fixture that needs a tool implies it (:data:`FIXTURES`), so a test using it needs no marker.

Where a requirement is missing the test is skipped with a reason that says how to get it
("needs ...: how"), or fails under CI (``CI`` set to anything but ``""``, ``0``, ``false``,
``no``), where ``.ci/run`` installs everything.  ``pytest -m requires`` selects exactly these
tests.  This file sits at the project root because pytest applies a conftest's hooks only to
the tests below it, and the notebooks are not under tests/.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent
ONNX_WEB_VENDOR = ROOT / "examples" / "onnx-web" / "vendor"


def _modules(*names: str) -> list[str]:
    return [n for n in names if importlib.util.find_spec(n) is None]


def _browser() -> list[str]:
    missing = _modules("selenium")
    if not (shutil.which("chromium") or shutil.which("chromium-browser")):
        missing.append("chromium")
    if not shutil.which("chromedriver"):
        missing.append("chromedriver")
    return missing


def _onnx_web() -> list[str]:
    files = ("ort.wasm.min.mjs", "ort-wasm-simd-threaded.mjs", "ort-wasm-simd-threaded.wasm")
    return [f"vendor/{f}" for f in files if not (ONNX_WEB_VENDOR / f).exists()]


def _rllib_venv() -> list[str]:
    return [] if (ROOT / ".venv-rllib" / "bin" / "python").exists() else [".venv-rllib"]


REQUIREMENTS = {
    # name: (what it is, what is missing now (a list, empty when present), how to get it)
    "onnx": ("the onnx extra", lambda: _modules("onnx", "onnxruntime", "onnxscript"),
             'pip install -e ".[onnx]"'),
    "torchrl": ("the torchrl extra", lambda: _modules("torchrl"), 'pip install -e ".[torchrl]"'),
    "browser": ("headless Chromium", _browser, "apt-get install chromium chromium-driver"),
    "onnxruntime-web": ("onnxruntime-web vendored into examples/onnx-web", _onnx_web,
                        "examples/onnx-web/build.sh (needs npm: apt-get install nodejs npm)"),
    "rllib-venv": ("the RLlib venv", _rllib_venv,
                   'python3 -m venv .venv-rllib && .venv-rllib/bin/pip install torch==2.13.0 -e ".[rllib,dev]"'),
}
"""Every requirement a test may declare: what it is, what of it is missing, and how to get it."""

FIXTURES = {"browser": ("browser",), "exported": ("onnx",)}
"""Fixtures that need a requirement: a test using one needs it too."""


def in_ci() -> bool:
    """Whether this run is CI's (``CI`` set and not false), where nothing may be skipped for lack of a tool."""
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def missing_reason(name: str) -> str | None:
    """None when requirement ``name`` is met, else the skip reason: what is missing and how to get it."""
    if name not in REQUIREMENTS:
        raise ValueError(f"unknown requirement {name!r}; known: {sorted(REQUIREMENTS)}")
    what, check, how = REQUIREMENTS[name]
    missing = check()
    return f"needs {what} (missing: {', '.join(missing)}): {how}" if missing else None


def pytest_configure(config):
    config.addinivalue_line("markers", "requires(*names): needs tools README's install does not bring "
                                       f"({', '.join(REQUIREMENTS)}); see conftest.py")


def _notebook_requirements(path: Path) -> list[str]:
    return list(json.loads(path.read_text()).get("metadata", {}).get("madang", {}).get("requires", []))


def pytest_collection_modifyitems(config, items):
    """Mark the tests that need a requirement through a fixture or their notebook's metadata."""
    for item in items:
        needs = [name for f in getattr(item, "fixturenames", ()) for name in FIXTURES.get(f, ())]
        if item.path.suffix == ".ipynb":
            needs += _notebook_requirements(item.path)
        if needs:
            item.add_marker(pytest.mark.requires(*needs))


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    """Skip (fail under CI) a test whose requirements are missing, before its fixtures start."""
    names = dict.fromkeys(name for marker in item.iter_markers("requires") for name in marker.args)
    reasons = [r for r in map(missing_reason, names) if r is not None]
    if reasons:
        if in_ci():
            pytest.fail("; ".join(reasons) + " (under CI nothing is skipped: .ci/run installs it)", pytrace=False)
        pytest.skip("; ".join(reasons))
