"""Shared pytest configuration: hypothesis profiles and torch threads."""

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", deadline=None, derandomize=True, max_examples=40,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", deadline=None, max_examples=40)
settings.load_profile("ci" if os.environ.get("CI") else os.environ.get("HYPOTHESIS_PROFILE", "dev"))

os.environ.setdefault("OMP_NUM_THREADS", "1")

import pytest  # noqa: E402


@pytest.fixture(scope="session")
def browser():
    """A headless Chromium WebDriver shared by the browser tests (see tests/browser.py)."""
    from browser import BrowserUnavailable, start_chrome

    try:
        driver = start_chrome()
    except BrowserUnavailable as e:
        if os.environ.get("CI"):
            raise
        pytest.skip(f"no headless browser here: {e}")
    yield driver
    driver.quit()
