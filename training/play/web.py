"""``madang serve``: a local web app to play every game against the bots (Starlette on uvicorn).

Games live on the server as :class:`~training.play.session.Session` objects under an
unguessable id (``secrets.token_urlsafe``); the page gets only what the person's seat may see
and clicks moves.  The JSON API (every error is ``{"error": message}`` with a 4xx status, and a
failed request changes nothing)::

    GET    /api/games                 games, their seat counts, bots and drawing tables
    POST   /api/games                 {"game", "bots"?: [names], "seat"?: int, "seed"?: int}
                                      -> 201 the new game (the bots before you have moved)
    GET    /api/games/{id}            the game as your seat sees it
    POST   /api/games/{id}/moves      {"action": int} -> the game after your move and the bots'
    DELETE /api/games/{id}            -> 204, the game is gone

Statuses: 400 malformed JSON, wrong field types or options; 404 unknown or expired game;
405 wrong method; 409 a move that is not legal now (or a finished game); 413 a body over
16 KiB; 429 the live-game limit is reached.  Games expire after ``expire_s`` without a
request; at most ``max_games`` live at once.  The server binds to 127.0.0.1 by default.
"""

from __future__ import annotations

import json
import secrets
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.base import BaseHTTPMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

import agents
from envs.registration import GAMES, game_class

from .session import DEFAULT_BOTS, TITLES, Session, seat_range, user_bots

STATIC = Path(__file__).parent / "static"
MAX_BODY = 16 * 1024
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}


class ApiError(Exception):
    """A request the API refuses: an HTTP status (4xx) and a message for the person."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status, self.message = status, message


@dataclass
class _Entry:
    session: Session
    used: float
    lock: threading.Lock = field(default_factory=threading.Lock)


class GameStore:
    """Live games by id, with an inactivity expiry and a cap on how many live at once.

    ``clock`` (seconds, default ``time.monotonic``) is injectable so tests can age games.
    """

    def __init__(self, max_games: int = 200, expire_s: float = 3600.0, clock=time.monotonic):
        if max_games < 1 or expire_s <= 0:
            raise ValueError("max_games must be >= 1 and expire_s > 0")
        self.max_games, self.expire_s, self.clock = max_games, expire_s, clock
        self._games: dict[str, _Entry] = {}
        self._lock = threading.Lock()

    def __len__(self) -> int:
        with self._lock:
            self._purge()
            return len(self._games)

    def _purge(self) -> None:
        cutoff = self.clock() - self.expire_s
        for gid in [g for g, e in self._games.items() if e.used < cutoff]:
            del self._games[gid]

    def reserve(self) -> None:
        """Raise ``ApiError(429)`` when no new game fits (checked before a session is built)."""
        with self._lock:
            self._purge()
            if len(self._games) >= self.max_games:
                raise ApiError(429, f"too many live games (limit {self.max_games}); "
                                    "finish or leave one, or wait for idle games to expire")

    def add(self, session: Session) -> str:
        """Store ``session`` under a new unguessable id and return the id."""
        with self._lock:
            self._purge()
            if len(self._games) >= self.max_games:
                raise ApiError(429, f"too many live games (limit {self.max_games})")
            gid = secrets.token_urlsafe(16)
            self._games[gid] = _Entry(session, self.clock())
            return gid

    def get(self, gid: str) -> _Entry:
        """The live game ``gid`` (its clock restarted), or ``ApiError(404)``."""
        with self._lock:
            self._purge()
            entry = self._games.get(gid)
            if entry is None:
                raise ApiError(404, "no such game (unknown id, or it expired after "
                                    f"{self.expire_s / 60:g} idle minutes); start a new one")
            entry.used = self.clock()
            return entry

    def remove(self, gid: str) -> None:
        """Forget the game ``gid`` (``ApiError(404)`` if there is none)."""
        self.get(gid)
        with self._lock:
            self._games.pop(gid, None)


async def _json_body(request: Request, allowed: dict[str, type], required: tuple[str, ...]) -> dict:
    """The request's JSON object with only ``allowed`` keys of the given types, or ``ApiError(4xx)``."""
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise ApiError(413, f"request body over {MAX_BODY} bytes")
    try:
        body = json.loads(raw or b"null")
    except (ValueError, UnicodeDecodeError) as e:
        raise ApiError(400, f"malformed JSON: {e}") from None
    if not isinstance(body, dict):
        raise ApiError(400, f"the body must be a JSON object, got {type(body).__name__}")
    unknown = sorted(set(body) - set(allowed))
    if unknown:
        raise ApiError(400, f"unknown field(s) {unknown}; allowed: {sorted(allowed)}")
    missing = [k for k in required if k not in body]
    if missing:
        raise ApiError(400, f"missing field(s) {missing}")
    for key, kind in allowed.items():
        if key not in body or (body[key] is None and key not in required):
            continue
        value = body[key]
        ok = isinstance(value, kind) and not (kind is int and isinstance(value, bool))
        if kind is list:
            ok = ok and all(isinstance(v, str) for v in value)
        if not ok:
            want = {int: "an integer", str: "a string", list: "a list of strings"}[kind]
            raise ApiError(400, f"{key} must be {want}, got {json.dumps(value)}")
    return body


def create_app(max_games: int = 200, expire_s: float = 3600.0, clock=time.monotonic,
               extra_bots: dict | None = None) -> Starlette:
    """The ASGI app: the page at ``/``, its files under ``/static``, the JSON API under ``/api``.

    ``extra_bots`` (name -> bot, :func:`.session.user_bots`) are offered besides the catalog's
    bots: the operator's own policies.  Clients can only pick bots by these names, never load
    a path or module themselves.
    """
    store = GameStore(max_games, expire_s, clock)
    extra = dict(extra_bots or {})

    def bot_list(game: str) -> list[dict]:
        own = [{"name": n, "description": f"served policy ({getattr(b, 'kind', None) or type(b).__name__})"}
               for n, b in extra.items() if getattr(b, "game", None) in (None, game)]
        return [{"name": b.name, "description": b.description} for b in agents.catalog(game)] + own

    def game_json(gid: str, session: Session) -> dict:
        return {"id": gid, **session.public()}

    async def index(request: Request):
        return FileResponse(STATIC / "index.html", headers=SECURITY_HEADERS)

    async def list_games(request: Request):
        games = []
        for name in sorted(GAMES, key=lambda g: list(TITLES).index(g)):
            low, high = seat_range(name)
            games.append({
                "name": name, "title": TITLES[name], "min_seats": low, "max_seats": high,
                "default_bot": DEFAULT_BOTS[name],
                "bots": bot_list(name),
                "reference": game_class(name).view_module.reference(),
            })
        return JSONResponse({"games": games, "limits": {"max_games": store.max_games,
                                                        "expire_s": store.expire_s}})

    async def new_game(request: Request):
        body = await _json_body(request, {"game": str, "bots": list, "seat": int, "seed": int}, ("game",))
        game = body["game"]
        if game not in GAMES:
            raise ApiError(400, f"unknown game {game!r}; games: {', '.join(sorted(GAMES))}")
        bots = body.get("bots")
        bots = [DEFAULT_BOTS[game]] if bots is None else bots
        store.reserve()
        try:
            session = await run_in_threadpool(Session, game, bots, body.get("seat") or 0, body.get("seed"),
                                              extra_bots=extra)
        except ValueError as e:
            raise ApiError(400, str(e)) from None
        gid = store.add(session)
        return JSONResponse(game_json(gid, session), status_code=201)

    async def show_game(request: Request):
        gid = request.path_params["gid"]
        entry = store.get(gid)

        def show() -> dict:
            with entry.lock:  # waits for a move in progress, off the event loop
                return game_json(gid, entry.session)

        return JSONResponse(await run_in_threadpool(show))

    async def make_move(request: Request):
        gid = request.path_params["gid"]
        entry = store.get(gid)
        body = await _json_body(request, {"action": int}, ("action",))

        def play() -> dict:
            with entry.lock:
                try:
                    entry.session.play(body["action"])
                except ValueError as e:
                    raise ApiError(409, str(e)) from None
                return game_json(gid, entry.session)

        return JSONResponse(await run_in_threadpool(play))

    async def end_game(request: Request):
        store.remove(request.path_params["gid"])
        return Response(status_code=204)

    async def api_error(request: Request, exc: ApiError):
        return JSONResponse({"error": exc.message}, status_code=exc.status)

    async def http_error(request: Request, exc: HTTPException):
        return JSONResponse({"error": exc.detail}, status_code=exc.status_code, headers=exc.headers)

    async def headers(request: Request, call_next):
        response = await call_next(request)
        for k, v in SECURITY_HEADERS.items():
            response.headers.setdefault(k, v)
        return response

    app = Starlette(
        middleware=[Middleware(BaseHTTPMiddleware, dispatch=headers)],
        routes=[
            Route("/", index),
            Route("/api/games", list_games, methods=["GET"]),
            Route("/api/games", new_game, methods=["POST"]),
            Route("/api/games/{gid}", show_game, methods=["GET"]),
            Route("/api/games/{gid}", end_game, methods=["DELETE"]),
            Route("/api/games/{gid}/moves", make_move, methods=["POST"]),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ],
        exception_handlers={ApiError: api_error, HTTPException: http_error},
    )
    app.state.store = store
    return app


def serve(host: str = "127.0.0.1", port: int = 8000, max_games: int = 200, expire_s: float = 3600.0,
          bots=()) -> int:
    """Run the app on uvicorn until Ctrl-C, offering the policies ``bots`` (paths or ``module:attr``)
    besides the catalog's; returns the exit status (2 if one of them does not load)."""
    import uvicorn

    try:
        extra = user_bots(bots)
    except ValueError as e:
        print(f"madang: error: {e}", file=sys.stderr)
        print("hint: --bot takes the path of a policy file or module:attr (docs/bots.md)", file=sys.stderr)
        return 2
    print(f"madang: open http://{host}:{port}/ to play (Ctrl-C stops the server)", flush=True)
    uvicorn.run(create_app(max_games, expire_s, extra_bots=extra), host=host, port=port, log_level="warning")
    return 0
