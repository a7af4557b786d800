"""The onnx-web example: headless Chromium loads each exported policy with onnxruntime-web."""

from __future__ import annotations

import functools
import json
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from agents.registry import shipped_policies

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "onnx-web"
VENDORED = ("ort.wasm.min.mjs", "ort-wasm-simd-threaded.mjs", "ort-wasm-simd-threaded.wasm")
PAGE_TIMEOUT_S = 120  # a generous limit for a slow CI machine, not a performance assert
pytestmark = [pytest.mark.requires("onnxruntime-web"), pytest.mark.slow, pytest.mark.browser, pytest.mark.integration]  # and, through its fixtures, onnx and browser


class _Handler(SimpleHTTPRequestHandler):
    """Serves the example folder, with ``/models/`` mapped to the export directory."""

    models: Path

    def translate_path(self, path):
        clean = path.split("?", 1)[0].split("#", 1)[0]
        if clean.startswith("/models/"):
            return str(self.models / Path(clean).name)
        return super().translate_path(path)

    def log_message(self, *args):  # keep the test output clean
        pass


@pytest.fixture(scope="module")
def site(exported):
    """Base URL of a localhost HTTP server for the page and every exported policy (wasm needs http)."""
    models = {exported(name) for name in shipped_policies()}
    assert len(models) == 1
    handler = type("Handler", (_Handler,), {"models": models.pop()})
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(handler, directory=str(EXAMPLE)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.mark.parametrize("name", shipped_policies())
def test_page_checks_the_conformance_vectors(browser, site, name):
    from selenium.webdriver.support.ui import WebDriverWait

    browser.get(f"{site}/index.html?policy={name}")
    WebDriverWait(browser, PAGE_TIMEOUT_S).until(
        lambda d: d.find_element("id", "status").get_attribute("data-state") == "done")
    result = json.loads(browser.find_element("id", "result").text)
    assert result.get("error") is None, result
    assert result["policy"] == name and result["examples"] == 100
    assert result["greedy_agree"] == 100 and result["mismatches"] == []
    assert result["max_logit_diff"] <= result["logit_tolerance"] == 1e-4
    assert result["passed"] is True
    assert browser.find_element("id", "status").text.startswith("PASS")
