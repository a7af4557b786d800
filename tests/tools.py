"""Optional tools of some tests (the onnx extra, the vendored onnxruntime-web)."""

from __future__ import annotations

import os

import pytest


def require_or_skip(condition: bool, why: str) -> None:
    """Skip a test whose tools are missing on a developer machine; fail under CI (``CI`` set).

    ``.ci/run`` installs every tool the tests need, so a missing one there is a CI bug.
    """
    if condition:
        return
    if os.environ.get("CI"):
        pytest.fail(f"{why} (.ci/run installs it)")
    pytest.skip(why)
