"""Every game runs with numba's JIT disabled (``NUMBA_DISABLE_JIT=1``, for debugging the kernels
as Python) and plays exactly the games the compiled kernels play."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.no_jit_workload import GAMES, digest

WORKLOAD = Path(__file__).with_name("no_jit_workload.py")

pytestmark = [pytest.mark.slow, pytest.mark.integration]


def test_every_game_runs_as_python_and_plays_the_compiled_games():
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1", "OMP_NUM_THREADS": "1"}
    r = subprocess.run([sys.executable, "-W", "error", str(WORKLOAD)], capture_output=True, text=True, env=env,
                       cwd=WORKLOAD.parent.parent, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    as_python = json.loads(r.stdout.strip().splitlines()[-1])
    assert as_python == {name: digest(name) for name in sorted(GAMES)}
