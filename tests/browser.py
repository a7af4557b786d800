"""Headless Chromium for browser tests (Debian's ``chromium`` + ``chromium-driver``, Selenium).

``start_chrome()`` returns a Selenium WebDriver, or raises ``BrowserUnavailable`` when the
browser, its driver or Selenium is missing.  The ``browser`` fixture in ``conftest.py``
skips on a developer machine without them, and fails under CI (``CI`` set), where
``.ci/run`` installs them.
"""

from __future__ import annotations

import shutil
import tempfile

CHROMIUM_FLAGS = (
    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
    "--disable-quic", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--window-size=1280,900",
)
"""Flags for a closed network: without the background-networking ones Chromium keeps
trying (and failing) to reach Google's hosts."""


class BrowserUnavailable(RuntimeError):
    """Chromium, chromedriver or Selenium is not installed."""


def start_chrome():
    """A headless Chromium WebDriver with a fresh profile (quit it when done)."""
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError as e:
        raise BrowserUnavailable(f"selenium is not installed ({e})") from None
    binary = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    if not binary or not driver:
        raise BrowserUnavailable("chromium and chromedriver are not on PATH "
                                 "(apt-get install chromium chromium-driver)")
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tempfile.mkdtemp(prefix='madang-chrome-')}")
    return webdriver.Chrome(service=Service(driver), options=options)
