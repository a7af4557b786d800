"""The conformance harness (:mod:`tests.conformance`) over every game under ``envs``."""

from __future__ import annotations

import importlib
import subprocess
import sys

import gymnasium as gym

import envs
from envs.registration import GAMES, game_packages, game_spec
from tests.conformance import harness

TestCore, TestAdapters = harness(GAMES.values())


def test_every_game_under_envs_is_registered():
    """Each game package's ``spec.SPEC`` is registered under the package's name."""
    packages = game_packages()
    assert packages and set(packages) <= set(GAMES)
    for name in packages:
        assert game_spec(name) is importlib.import_module(f"envs.{name}.spec").SPEC


def test_make_without_importing_envs():
    code = (
        "import gymnasium as gym, sys; env = gym.make('envs:madang/Yacht-v0'); "
        "env.reset(seed=0); assert 'envs' in sys.modules; print('ok')"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "ok"


def test_registered_ids():
    for spec in GAMES.values():
        assert spec.env_id in gym.registry
    assert envs.GAMES
