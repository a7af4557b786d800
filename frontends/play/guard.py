"""What the play server refuses before any route runs, and the headers every answer carries.

:class:`Guard` (ASGI middleware) answers, with a JSON ``{"error": ...}``:

* 400 when the ``Host`` header names a host the server does not serve (DNS rebinding: a
  hostile name that resolves to this machine reaches the server, but with its own name);
* 403 when an ``Origin`` header names another site (a page the person happens to visit);
* 415 when a POST's body is not declared ``application/json`` (a page's plain form or
  ``text/plain`` fetch needs no permission from the browser; a JSON one does).

:func:`allowed_hosts` is the set of host names a server bound to ``--host`` answers to.
"""

from __future__ import annotations

import ipaddress
import json
import socket

from starlette.datastructures import Headers

LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})
WILDCARD_HOSTS = frozenset({"", "0.0.0.0", "::"})
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}


def allowed_hosts(host: str) -> frozenset[str]:
    """Host names a server listening on ``host`` answers to: ``host`` and the loopback names.

    A wildcard bind (``0.0.0.0``, ``::``) answers to this machine's own names instead of
    ``host``; give :class:`Guard` ``any_ip=True`` for it, so that its addresses work too.
    """
    names = set(LOOPBACK_NAMES) | {host.strip("[]").lower()}
    if host in WILDCARD_HOSTS:
        names.discard(host)
        for name in (socket.gethostname(), socket.getfqdn()):
            names.add(name.lower())
    return frozenset(names)


def host_name(host_header: str) -> str:
    """The name in a Host header, without its port: ``[::1]:8000`` -> ``::1``."""
    h = host_header.strip().lower()
    if h.startswith("["):
        return h[1:].split("]", 1)[0]
    if h.count(":") == 1:
        return h.split(":", 1)[0]
    return h


def _is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


class Guard:
    """ASGI middleware: the Host, Origin and Content-Type checks above, and the security headers.

    ``hosts`` are the accepted host names (:func:`allowed_hosts`); ``any_ip`` also accepts any
    IP address literal (a wildcard bind, where the machine's addresses are not known up front).
    """

    def __init__(self, app, hosts: frozenset[str] = LOOPBACK_NAMES, any_ip: bool = False):
        self.app, self.hosts, self.any_ip = app, frozenset(h.lower() for h in hosts), any_ip

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        refusal = self.refusal(scope)

        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                have = {k.lower() for k, _ in message.get("headers", [])}
                extra = [(k.lower().encode(), v.encode()) for k, v in SECURITY_HEADERS.items()
                         if k.lower().encode() not in have]
                message = {**message, "headers": list(message.get("headers", [])) + extra}
            await send(message)

        if refusal is None:
            return await self.app(scope, receive, send_with_headers)
        status, text = refusal
        body = json.dumps({"error": text}).encode()
        await send_with_headers({"type": "http.response.start", "status": status, "headers": [
            (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
            (b"connection", b"close")]})
        await send_with_headers({"type": "http.response.body", "body": body})

    def refusal(self, scope) -> tuple[int, str] | None:
        """(status, message) for a request this server refuses, or None."""
        headers = Headers(scope=scope)
        host = headers.get("host", "")
        name = host_name(host)
        if name not in self.hosts and not (self.any_ip and _is_ip(name)):
            return 400, (f"this server does not answer to the host {host!r}; "
                         f"open it as http://127.0.0.1 or by the address it was started on")
        origin = headers.get("origin")
        if origin is not None and origin.lower() not in (f"http://{host.lower()}", f"https://{host.lower()}"):
            return 403, f"requests from another site ({origin}) are refused"
        if scope["method"] == "POST":
            kind = headers.get("content-type", "").split(";", 1)[0].strip().lower()
            if kind != "application/json":
                return 415, f"the body must be sent as application/json, got {kind or 'no Content-Type'!r}"
        return None
