"""``madang serve``: a local web app to play every game against the bots (Starlette on uvicorn).

Games live on the server as :class:`~frontends.play.session.Session` objects under an
unguessable id (``secrets.token_urlsafe``); the page gets only what the person's seat may see
and clicks moves.  The JSON API (every error is ``{"error": message}``, and a failed request
changes nothing)::

    GET    /api/games                 games (in registry order), their titles, summaries, score
                                      labels, boards, seat counts, bots and drawing tables
    POST   /api/games                 {"game", "bots"?: [names], "seat"?: int, "seed"?: int or
                                      decimal string} -> 201 the new game (the bots before you
                                      have moved)
    GET    /api/games/{id}            the game as your seat sees it
    POST   /api/games/{id}/moves      {"action": int} -> the game after your move and the bots'
    DELETE /api/games/{id}            -> 204, the game is gone and its slot free

A game's ``seed`` is a decimal string, shown from the start when you chose it and at the end
otherwise.  Statuses: 400 malformed JSON (nesting too deep included), wrong field types or
options, or a Host this server does not serve; 403 a request from another site's page (its
``Origin``); 404 unknown or expired game; 405 wrong method; 408 a body slower than
``body_timeout_s``; 409 a move that is not legal now (or a finished game, or a game whose
previous move is still being played); 413 a body over 16 KiB (refused by its Content-Length
before reading, or when a chunked body reaches the limit); 415 a POST not sent as
``application/json``; 429 the live-game limit is reached; 503 with ``Retry-After`` when the
bots have ``max_pending`` moves to play already.

Bot work (building a game, a move and the bots' replies) runs on a pool of its own threads
(:class:`~frontends.play.bot_pool.BotPool`); the page and its files are served from memory
and a game is read from the JSON kept after its last move, so neither waits for the bots.
``madang serve`` lets every bot play a first move before it takes requests
(:func:`warm_all`), so that the first move of any game is as fast as the later ones; an app
without that warms each bot on its first game, once, under a lock.  Games expire after ``expire_s`` without a request;
at most ``max_games`` live at once.  The server binds to 127.0.0.1 by default.
"""

from __future__ import annotations

import contextlib
import json
import re
import sys
import time
from pathlib import Path

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

import agents
from envs.core.match import OpponentError
from envs.registration import GAMES, game_class, game_spec

from .body import BODY_TIMEOUT_S, MAX_BODY, parse_object, read_body
from .bot_pool import DEFAULT_MAX_PENDING, DEFAULT_WORKERS, BotPool
from .guard import LOOPBACK_NAMES, WILDCARD_HOSTS, Guard, allowed_hosts
from ..games import default_bot, game_bots
from .session import Session, seat_range, user_bots, warm_up
from .store import ApiError, GameStore

STATIC = Path(__file__).parent / "static"
MEDIA_TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
               ".css": "text/css; charset=utf-8"}


def _static_files() -> dict[str, tuple[bytes, str]]:
    """The page's files, read once: name -> (bytes, media type)."""
    return {p.name: (p.read_bytes(), MEDIA_TYPES[p.suffix]) for p in STATIC.iterdir() if p.suffix in MEDIA_TYPES}


def _seed(value) -> int | None:
    """The seed of a new-game body: an int, or its decimal string (exact beyond 2**53); like
    every madang seed, any int, reduced modulo 2**64 by the session."""
    if isinstance(value, str):
        if not re.fullmatch(r"-?[0-9]{1,40}", value):
            raise ApiError(400, f"seed must be an int or its decimal string, got {value[:30]!r}")
        return int(value)
    return value


def warm_all(warn=print) -> None:
    """Every bot the server offers plays a first move of each of its games (see ``warm_up``).

    A bot that cannot be loaded (a damaged policy file of the user's) is reported with
    ``warn(message)`` and skipped; a game asked of it later is refused with its reason.
    """
    for game in GAMES:
        for name in game_bots(game):
            try:
                warm_up(game, [name])
            except (ValueError, OpponentError) as e:
                warn(f"madang: warning: the bot {name!r} cannot play {game}: {e}")


def _catalog_entry(name: str, extra: dict) -> dict:
    """What the page knows about the game ``name``, from its descriptor and view module: its
    title, summary, score label and board (None: the page's generic board of the text view
    and the move buttons), its seats, the bots it may seat (``extra``: the operator's own,
    offered to every game they play) and the view's ``reference`` tables."""
    spec = game_spec(name)
    low, high = seat_range(name)
    described = {b.name: b.description for b in agents.catalog(name)}
    return {
        "name": name, "title": spec.title, "summary": spec.summary, "score_label": spec.score_label,
        "board": spec.board, "min_seats": low, "max_seats": high, "default_bot": default_bot(name),
        "bots": [{"name": b, "description": described.get(b, f"{b}: the game's own bot")} for b in game_bots(name)] + [
            {"name": n, "description": f"served policy ({getattr(b, 'kind', None) or type(b).__name__})"}
            for n, b in extra.items() if getattr(b, "game", None) in (None, name)],
        "reference": game_class(name).view_module.reference(),
    }


def create_app(max_games: int = 200, expire_s: float = 3600.0, clock=time.monotonic, *,
               hosts=LOOPBACK_NAMES, any_ip: bool = False, workers: int = DEFAULT_WORKERS,
               max_pending: int = DEFAULT_MAX_PENDING, body_timeout_s: float = BODY_TIMEOUT_S,
               extra_bots: dict | None = None) -> Starlette:
    """The ASGI app: the page at ``/``, its files under ``/static``, the JSON API under ``/api``.

    ``hosts`` (and ``any_ip``) are the Host names it answers to (:class:`~.guard.Guard`);
    ``workers`` and ``max_pending`` size the bot pool (:class:`~.bot_pool.BotPool`).
    ``extra_bots`` (name -> bot, :func:`.session.user_bots`) are offered besides the catalog's
    bots: the operator's own policies.  Clients can only pick bots by these names, never load
    a path or module themselves.
    """
    store = GameStore(max_games, expire_s, clock)
    pool = BotPool(workers, max_pending)
    extra = dict(extra_bots or {})
    files = _static_files()

    def snapshot(session: Session):
        return lambda gid: json.dumps({"id": gid, **session.public()}).encode()

    def json_bytes(data: bytes, status: int = 200) -> Response:
        return Response(data, status_code=status, media_type="application/json")

    async def index(request: Request):
        data, kind = files["index.html"]
        return Response(data, media_type=kind)

    async def static(request: Request):
        name = request.path_params["name"]
        if name not in files:
            raise ApiError(404, f"no file {name!r}")
        data, kind = files[name]
        return Response(data, media_type=kind)

    catalog = [_catalog_entry(name, extra) for name in GAMES]
    catalog_json = json.dumps({"games": catalog, "limits": {"max_games": store.max_games,
                                                            "expire_s": store.expire_s}}).encode()

    async def list_games(request: Request):
        return json_bytes(catalog_json)

    async def new_game(request: Request):
        raw = await read_body(request, MAX_BODY, body_timeout_s)
        body = parse_object(raw, {"game": (str,), "bots": (list,), "seat": (int,), "seed": (int, str)}, ("game",))
        game = body["game"]
        if game not in GAMES:
            raise ApiError(400, f"unknown game {game[:40]!r}; games: {', '.join(sorted(GAMES))}")
        bots = body.get("bots")
        bots = [default_bot(game)] if bots is None else bots
        seed = _seed(body.get("seed"))
        store.reserve()

        def build() -> Session:
            try:
                known = set(game_bots(game))
                warm_up(game, [b for b in dict.fromkeys(bots) if b in known])
                return Session(game, bots, body.get("seat") or 0, seed, extra_bots=extra)
            except (ValueError, OpponentError) as e:  # a bot that fails its first moves
                raise ApiError(400, str(e)) from None

        session = await pool.run(build)
        gid = store.add(session, snapshot(session))
        return json_bytes(store.get(gid).snapshot, 201)

    async def show_game(request: Request):
        return json_bytes(store.get(request.path_params["gid"]).snapshot)

    async def make_move(request: Request):
        gid = request.path_params["gid"]
        store.get(gid)  # 404 before reading a body for a game that is not there
        raw = await read_body(request, MAX_BODY, body_timeout_s)
        body = parse_object(raw, {"action": (int,)}, ("action",))
        entry = store.get(gid)

        def play() -> bytes:
            try:
                entry.session.play(body["action"])
            except (ValueError, OpponentError) as e:  # the person's move, or a bot's answer to it
                raise ApiError(409, str(e)) from None
            entry.snapshot = snapshot(entry.session)(gid)
            return entry.snapshot

        return json_bytes(await pool.run(play, entry))

    async def end_game(request: Request):
        store.remove(request.path_params["gid"])
        return Response(status_code=204)

    async def api_error(request: Request, exc: ApiError):
        return JSONResponse({"error": exc.message}, status_code=exc.status, headers=exc.headers)

    async def http_error(request: Request, exc: HTTPException):
        return JSONResponse({"error": exc.detail}, status_code=exc.status_code, headers=exc.headers)

    @contextlib.asynccontextmanager
    async def lifespan(app):
        yield
        pool.close()

    app = Starlette(
        middleware=[Middleware(Guard, hosts=frozenset(hosts), any_ip=any_ip)],
        routes=[
            Route("/", index, methods=["GET"]),
            Route("/static/{name}", static, methods=["GET"]),
            Route("/api/games", list_games, methods=["GET"]),
            Route("/api/games", new_game, methods=["POST"]),
            Route("/api/games/{gid}", show_game, methods=["GET"]),
            Route("/api/games/{gid}", end_game, methods=["DELETE"]),
            Route("/api/games/{gid}/moves", make_move, methods=["POST"]),
        ],
        exception_handlers={ApiError: api_error, HTTPException: http_error},
        lifespan=lifespan,
    )
    app.state.store = store
    app.state.pool = pool
    return app


def check_address(host: str, port: int) -> None:
    """Raise ``ValueError`` unless the server could listen on ``host:port`` now: a port in
    1..65535, a host name that resolves, and an address that is free (tried by binding it)."""
    import socket

    if isinstance(port, bool) or not isinstance(port, int) or not 1 <= port <= 65535:
        raise ValueError(f"--port must be in 1..65535, got {port!r}")
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as e:
        raise ValueError(f"--host {host!r} is not an address of this machine ({e})") from None
    family, kind, proto, _, address = infos[0]
    try:
        with socket.socket(family, kind, proto) as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds
            s.bind(address)
    except OSError as e:
        raise ValueError(f"cannot listen on {host}:{port}: {e.strerror or e}") from None


def serve(host: str = "127.0.0.1", port: int = 8000, max_games: int = 200, expire_s: float = 3600.0,
          bots=()) -> int:
    """Run the app on uvicorn until Ctrl-C; returns the exit status (check the address first:
    :func:`check_address`), 2 if one of ``bots`` does not load.

    The server answers to ``host`` and the loopback names (any IP address too when ``host``
    is a wildcard such as ``0.0.0.0``), and warms the bots up before it takes requests.
    ``bots`` are the operator's own policies (paths or ``module:attr``), offered besides the
    catalog's.
    """
    import uvicorn

    try:
        extra = user_bots(bots)
    except ValueError as e:
        print(f"madang: error: {e}", file=sys.stderr)
        print("hint: --bot takes the path of a policy file or module:attr (docs/bots.md)", file=sys.stderr)
        return 2
    app = create_app(max_games, expire_s, hosts=allowed_hosts(host), any_ip=host in WILDCARD_HOSTS,
                     extra_bots=extra)
    print("madang: warming up the bots ...", flush=True)
    warm_all()
    print(f"madang: open http://{host}:{port}/ to play (Ctrl-C stops the server)", flush=True)
    uvicorn.run(app, host=host, port=port, log_level="warning")
    return 0
