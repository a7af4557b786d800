"""The play server's bot work on threads of its own, bounded: :class:`BotPool`."""

from __future__ import annotations

import asyncio
import os
from concurrent.futures import ThreadPoolExecutor

from .store import ApiError, Entry

DEFAULT_WORKERS = min(4, os.cpu_count() or 1)
DEFAULT_MAX_PENDING = 64


class BotPool:
    """Runs bot work (building a game, a person's move with the bots' replies) on ``workers``
    threads of its own, so the page, its files and reading a game never wait behind the bots.

    At most ``max_pending`` jobs are admitted at once (running or queued); one more is refused
    with ``ApiError(503)`` and ``Retry-After: retry_after_s``.  A job for a game (``entry``)
    is refused with ``ApiError(409)`` while another job of that game is in flight, so each game
    has at most one move in flight.  Call :meth:`run` from the event loop only.
    """

    def __init__(self, workers: int = DEFAULT_WORKERS, max_pending: int = DEFAULT_MAX_PENDING,
                 retry_after_s: int = 2):
        if workers < 1 or max_pending < 1 or retry_after_s < 1:
            raise ValueError("workers, max_pending and retry_after_s must be >= 1")
        self.workers, self.max_pending, self.retry_after_s = workers, max_pending, retry_after_s
        self._executor = ThreadPoolExecutor(workers, thread_name_prefix="madang-bots")
        self.pending = 0

    async def run(self, job, entry: Entry | None = None):
        """The result of ``job()`` run on a pool thread (its exception, if it raises)."""
        if entry is not None and entry.busy:
            raise ApiError(409, "a move of this game is still being played; wait for its answer")
        if self.pending >= self.max_pending:
            raise ApiError(503, f"the server is busy ({self.pending} bot moves waiting); "
                                f"try again in {self.retry_after_s} s",
                           {"Retry-After": str(self.retry_after_s)})
        loop = asyncio.get_running_loop()
        self.pending += 1
        if entry is not None:
            entry.busy = True

        def finished() -> None:
            self.pending -= 1
            if entry is not None:
                entry.busy = False

        def on_done(_future) -> None:
            try:
                loop.call_soon_threadsafe(finished)
            except RuntimeError:  # the loop is closed: the server has stopped
                pass

        future = self._executor.submit(job)
        future.add_done_callback(on_done)
        return await asyncio.wrap_future(future)

    def close(self) -> None:
        """Stop taking jobs; the running ones finish."""
        self._executor.shutdown(wait=False, cancel_futures=True)
