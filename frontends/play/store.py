"""The play server's live games: :class:`GameStore` (ids, expiry, a cap) and :class:`ApiError`.

Every game is an :class:`Entry`: its session, the JSON the person's seat is shown (encoded once
per move, so reading a game costs no bot time), and whether a move is being played.  The web
app touches entries from its event loop only; the worker threads of the bot pool write an
entry's session and snapshot while its ``busy`` flag keeps every other move out.
"""

from __future__ import annotations

import secrets
import threading
import time
from dataclasses import dataclass

from .session import Session


class ApiError(Exception):
    """A request the API refuses: an HTTP status (4xx, or 503 when busy) and a message for the person.

    ``headers`` go with the answer (``Retry-After`` on a 503); ``close`` ends the connection
    after the answer (for a body that was not read to its end).
    """

    def __init__(self, status: int, message: str, headers: dict[str, str] | None = None, close: bool = False):
        super().__init__(message)
        self.status, self.message = status, message
        self.headers = dict(headers or {})
        if close:
            self.headers["Connection"] = "close"


@dataclass
class Entry:
    """One live game: its session, the JSON its seat sees (bytes), when it was last used, and
    ``busy`` (a move of it is being played)."""

    session: Session
    snapshot: bytes
    used: float
    busy: bool = False


class GameStore:
    """Live games by id, with an inactivity expiry and a cap on how many live at once.

    ``clock`` (seconds, default ``time.monotonic``) is injectable so tests can age games.
    Expiry never removes a game while a move of it is being played.
    """

    def __init__(self, max_games: int = 200, expire_s: float = 3600.0, clock=time.monotonic):
        if max_games < 1 or expire_s <= 0:
            raise ValueError("max_games must be >= 1 and expire_s > 0")
        self.max_games, self.expire_s, self.clock = max_games, expire_s, clock
        self._games: dict[str, Entry] = {}
        self._lock = threading.Lock()

    def __len__(self) -> int:
        with self._lock:
            self._purge()
            return len(self._games)

    def _purge(self) -> None:
        cutoff = self.clock() - self.expire_s
        for gid in [g for g, e in self._games.items() if e.used < cutoff and not e.busy]:
            del self._games[gid]

    def reserve(self) -> None:
        """Raise ``ApiError(429)`` when no new game fits (checked before a session is built)."""
        with self._lock:
            self._purge()
            if len(self._games) >= self.max_games:
                raise ApiError(429, f"too many live games (limit {self.max_games}); "
                                    "finish or leave one, or wait for idle games to expire")

    def add(self, session: Session, snapshot) -> str:
        """Store ``session`` under a new unguessable id; ``snapshot(gid)`` gives its JSON bytes."""
        with self._lock:
            self._purge()
            if len(self._games) >= self.max_games:
                raise ApiError(429, f"too many live games (limit {self.max_games}); "
                                    "finish or leave one, or wait for idle games to expire")
            gid = secrets.token_urlsafe(16)
            self._games[gid] = Entry(session, snapshot(gid), self.clock())
            return gid

    def get(self, gid: str) -> Entry:
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
        """Forget the game ``gid`` (``ApiError(404)`` if there is none); its slot is free at once.

        A move still being played finishes on the forgotten session and is thrown away.
        """
        with self._lock:
            self._purge()
            if self._games.pop(gid, None) is None:
                raise ApiError(404, "no such game (unknown id, or it expired after "
                                    f"{self.expire_s / 60:g} idle minutes); start a new one")
