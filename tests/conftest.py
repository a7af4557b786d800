"""Shared pytest configuration: hypothesis profiles, torch threads, the browser, export and Pig fixtures.

What a test needs beyond README's install is declared and checked by the project's conftest.py.
"""

import atexit
import os
import shutil
import tempfile

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", deadline=None, derandomize=True, max_examples=40,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", deadline=None, max_examples=40)
settings.load_profile("ci" if os.environ.get("CI") else os.environ.get("HYPOTHESIS_PROFILE", "dev"))

os.environ.setdefault("OMP_NUM_THREADS", "1")

# The suite never reads or writes the bots a user shipped (madang ship): its own madang directory,
# set before the test modules that list the shipped bots are imported.
os.environ["MADANG_HOME"] = tempfile.mkdtemp(prefix="madang-home-")
atexit.register(shutil.rmtree, os.environ["MADANG_HOME"], ignore_errors=True)

import pytest  # noqa: E402


@pytest.fixture(scope="session")
def browser():
    """A headless Chromium WebDriver shared by the browser tests (see tests/browser.py); the tests
    that use it need ``browser`` (the project's conftest.py skips them without it)."""
    from tests.browser import start_chrome

    driver = start_chrome()
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def pig():
    """Pig (``tests/games/pig``) registered with ``envs.register_game`` while a module's tests run,
    and only then (other modules iterate the registry when they are collected); yields its
    descriptor."""
    import envs
    from tests.games.pig import SPEC

    envs.register_game(SPEC)
    yield SPEC
    envs.unregister_game(SPEC.name)


@pytest.fixture(scope="session")
def exported(tmp_path_factory):
    """``exported(name)``: the directory holding ``madang export name`` (exported once per session);
    the tests that use it need the onnx extra (the project's conftest.py skips them without it)."""
    from frontends.cli import main

    root, done = tmp_path_factory.mktemp("exports"), {}

    def get(name: str):
        if name not in done:
            assert main(["export", name, "--out", str(root)]) == 0
            done[name] = root
        return done[name]

    return get


# The RLlib tests need ray, which lives in its own venv (tests/test_rllib_venv.py runs them there).
import importlib.util  # noqa: E402

collect_ignore = [] if importlib.util.find_spec("ray") else ["rllib"]


def pytest_collection_modifyitems(items):
    """A soak is slow too, so that ``-m "not slow"`` (which replaces pyproject's ``-m 'not soak'``)
    leaves the soaks out as well."""
    for item in items:
        if item.get_closest_marker("soak") and not item.get_closest_marker("slow"):
            item.add_marker(pytest.mark.slow)
