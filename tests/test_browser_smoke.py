"""The headless Chromium the browser tests share starts and loads a page."""

import pytest

pytestmark = [pytest.mark.slow, pytest.mark.browser]


def test_browser_loads_a_data_page(browser):
    browser.get("data:text/html,<title>ok</title><p id=x>hello</p>")
    assert browser.title == "ok"
    assert browser.find_element("id", "x").text == "hello"
