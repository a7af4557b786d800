"""The RLlib and Ray tests, run in the RLlib venv: ray pins gymnasium 1.2.2, the main venv has 1.4.

``.ci/run`` builds ``.venv-rllib``; this test runs tests/rllib there, with the adapter option and
conformance tests of the adapters, which also shows that madang works on the gymnasium Ray pins.  It
``requires("rllib-venv")``: without the venv it is skipped on a developer machine and fails under CI.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RLLIB_PYTHON = ROOT / ".venv-rllib" / "bin" / "python"
# The adapters' API and option tests on Ray's gymnasium; the vector env's slot-by-slot
# equivalence with single envs is the rules' business and runs in the main venv only.
RLLIB_TESTS = ["tests/rllib", "tests/test_adapter_options.py", "tests/test_conformance.py::TestAdapters",
               "-k", "not test_vector_env_matches_single_envs"]

pytestmark = [pytest.mark.slow, pytest.mark.integration]


@pytest.mark.requires("rllib-venv")
def test_rllib_suite_passes_in_the_rllib_venv():
    if importlib.util.find_spec("ray") is not None:
        pytest.skip("ray is installed here, so this session collects tests/rllib itself")
    r = subprocess.run([str(RLLIB_PYTHON), "-m", "pytest", "-q", "-p", "no:cacheprovider", *RLLIB_TESTS],
                       cwd=ROOT, capture_output=True, text=True, env={**os.environ, "OMP_NUM_THREADS": "1"})
    assert r.returncode == 0, r.stdout[-8000:] + r.stderr[-2000:]
    assert " passed" in r.stdout.strip().splitlines()[-1]
