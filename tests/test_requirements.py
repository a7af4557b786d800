"""The project's conftest.py: a test that needs more than README's install skips with how to get
it, and fails under CI instead.  Checked on a throwaway test directory whose conftest adds a
requirement that is never met to the project's table."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

pytestmark = [pytest.mark.slow, pytest.mark.integration]

CONFTEST = f'''
import importlib.util

spec = importlib.util.spec_from_file_location("madang_requirements", {str(ROOT / "conftest.py")!r})
requirements = importlib.util.module_from_spec(spec)
spec.loader.exec_module(requirements)
requirements.REQUIREMENTS["never"] = ("a tool that is never there", lambda: ["it"], "install-it --now")
pytest_configure = requirements.pytest_configure
pytest_collection_modifyitems = requirements.pytest_collection_modifyitems
pytest_runtest_setup = requirements.pytest_runtest_setup
'''

TESTS = '''
import pytest

@pytest.mark.requires("never")
def test_needs_the_tool():
    pass

def test_needs_nothing():
    pass
'''


def _run(tmp_path, ci):
    (tmp_path / "conftest.py").write_text(CONFTEST)
    (tmp_path / "test_it.py").write_text(TESTS)
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    if ci is not None:
        env["CI"] = ci
    return subprocess.run([sys.executable, "-m", "pytest", "-rsfE", "-p", "no:cacheprovider", str(tmp_path)],
                          cwd=tmp_path, env=env, capture_output=True, text=True)


@pytest.mark.parametrize("ci", [None, "false"])
def test_a_missing_requirement_skips_with_how_to_get_it(tmp_path, ci):
    r = _run(tmp_path, ci)
    assert r.returncode == 0, r.stdout
    assert "1 passed, 1 skipped" in r.stdout
    assert "needs a tool that is never there (missing: it): install-it --now" in r.stdout


@pytest.mark.parametrize("ci", ["true"])
def test_a_missing_requirement_fails_under_ci(tmp_path, ci):
    r = _run(tmp_path, ci)
    assert r.returncode == 1, r.stdout
    assert "1 passed, 1 error" in r.stdout  # it fails in its setup, before its fixtures
    assert "needs a tool that is never there (missing: it): install-it --now" in r.stdout


def test_an_unknown_requirement_is_an_error(tmp_path):
    (tmp_path / "conftest.py").write_text(CONFTEST)
    (tmp_path / "test_it.py").write_text('import pytest\n\n@pytest.mark.requires("nevr")\ndef test_x():\n    pass\n')
    r = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", str(tmp_path)],
                       cwd=tmp_path, capture_output=True, text=True)
    assert r.returncode == 1 and "unknown requirement 'nevr'" in r.stdout


def test_the_front_end_notebook_declares_the_onnx_extra():
    import json

    meta = json.loads((ROOT / "notebooks" / "your_front_end.ipynb").read_text())["metadata"]
    assert meta["madang"]["requires"] == ["onnx"]
