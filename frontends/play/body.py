"""Reading a request's JSON body with bounds: its size, the time it takes, its shape.

:func:`read_body` never holds more than ``max_bytes`` of a body: it refuses a larger
``Content-Length`` before reading anything and stops reading a chunked body at the limit
(413); a client that announces more than it sends gets 408 after ``timeout_s``.  Both close
the connection.  :func:`parse_object` turns the bytes into a JSON object with only the
allowed fields, each of its type, or refuses with 400 (deep nesting included).
"""

from __future__ import annotations

import asyncio
import json
import re
import time

from starlette.requests import Request

from .store import ApiError

MAX_BODY = 16 * 1024
BODY_TIMEOUT_S = 10.0


async def read_body(request: Request, max_bytes: int = MAX_BODY, timeout_s: float = BODY_TIMEOUT_S) -> bytes:
    """The whole request body, or ``ApiError`` (400 bad length, 408 too slow, 413 too large)."""
    length = request.headers.get("content-length")
    if length is not None:
        if not re.fullmatch(r"[0-9]+", length.strip()):
            raise ApiError(400, f"bad Content-Length {length!r}", close=True)
        if int(length) > max_bytes:
            raise ApiError(413, f"request body over {max_bytes} bytes", close=True)
    deadline = time.monotonic() + timeout_s
    chunks, size = [], 0
    while True:
        try:
            message = await asyncio.wait_for(request.receive(), max(deadline - time.monotonic(), 0.0))
        except asyncio.TimeoutError:
            raise ApiError(408, f"the request body did not arrive within {timeout_s:g} s", close=True) from None
        if message["type"] == "http.disconnect":
            raise ApiError(400, "the client went away before the body arrived", close=True)
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > max_bytes:
            raise ApiError(413, f"request body over {max_bytes} bytes", close=True)
        chunks.append(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks)


def describe(value) -> str:
    """A short, safe description of a JSON value for an error message (never deep)."""
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    text = json.dumps(value)
    return text if len(text) <= 40 else text[:37] + "..."


def parse_object(raw: bytes, allowed: dict[str, tuple[type, ...]], required: tuple[str, ...]) -> dict:
    """The JSON object in ``raw`` with only ``allowed`` keys, each of one of its types, or ``ApiError(400)``.

    A value of ``None`` counts as absent for a field that is not required.  ``int`` never
    accepts a boolean; ``list`` means a list of strings.
    """
    try:
        body = json.loads(raw or b"null")
    except RecursionError:
        raise ApiError(400, "malformed JSON: nested too deeply") from None
    except (ValueError, UnicodeDecodeError) as e:
        raise ApiError(400, f"malformed JSON: {e}") from None
    if not isinstance(body, dict):
        raise ApiError(400, f"the body must be a JSON object, got {type(body).__name__}")
    unknown = sorted(set(body) - set(allowed))
    if unknown:
        raise ApiError(400, f"unknown field(s) {[describe(k) for k in unknown[:5]]}; allowed: {sorted(allowed)}")
    missing = [k for k in required if k not in body]
    if missing:
        raise ApiError(400, f"missing field(s) {missing}")
    for key, kinds in allowed.items():
        if key not in body or (body[key] is None and key not in required):
            continue
        value = body[key]
        ok = isinstance(value, kinds) and not isinstance(value, bool)
        if isinstance(value, list):
            ok = ok and all(isinstance(v, str) for v in value)
        if not ok:
            want = " or ".join({int: "an integer", str: "a string", list: "a list of strings"}[k] for k in kinds)
            raise ApiError(400, f"{key} must be {want}, got {describe(value)}")
    return body
