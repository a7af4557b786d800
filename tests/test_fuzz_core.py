"""No input through the public core API ends the process: a fuzz test in subprocesses.

``tests/fuzz_core.py`` throws hostile inputs at every public call of one game (mutated state
fields at every dtype extreme, malformed arrays, states of other configurations and games,
wrong ``where`` / index / seat / action / seed / observation arguments) and checks that each
call works or raises ``ValueError`` with the state unchanged.  Each game runs in a process
of its own, so a crash (an exit by a signal) fails the test with the case that caused it
instead of taking pytest down.  The CI-sized run uses a fresh, a mid-game and a finished
batch; the soak (``-m soak``) more states, every game of the batch and every element.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from envs.registration import GAMES

FUZZ = Path(__file__).with_name("fuzz_core.py")

pytestmark = [pytest.mark.slow, pytest.mark.integration]


def _fuzz(game_name: str, *extra: str, timeout: float | None = None) -> dict:
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    r = subprocess.run([sys.executable, str(FUZZ), game_name, *extra], capture_output=True, text=True, env=env,
                       cwd=FUZZ.parent.parent, timeout=timeout)
    lines = r.stdout.strip().splitlines()
    if r.returncode < 0:
        name = signal.Signals(-r.returncode).name
        pytest.fail(f"the process died by {name} in the case: {lines[-1] if lines else '(none)'}\n{r.stderr[-2000:]}")
    assert lines, r.stderr[-3000:]
    summary = json.loads(lines[-1])
    assert r.returncode == 0 and not summary["failures"], "\n".join(summary["failures"][:40]) or r.stderr[-3000:]
    return summary


@pytest.mark.parametrize("game_name", sorted(GAMES))
def test_public_core_api_survives_hostile_inputs(game_name):
    assert _fuzz(game_name, timeout=1200)["cases"] > 10_000


@pytest.mark.soak
@pytest.mark.parametrize("game_name", sorted(GAMES))
def test_public_core_api_survives_hostile_inputs_soak(game_name):
    _fuzz(game_name, "--soak")
