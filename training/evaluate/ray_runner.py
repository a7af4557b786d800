"""Shards played as Ray tasks (``madang eval --ray``): the same results as :class:`~training.evaluate.engine.LocalRunner`."""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable

from .engine import Shard, _play


RAY_CONNECT_TIMEOUT_S = 30.0
"""How long :class:`RayRunner` waits for a Ray cluster to answer unless told otherwise (seconds)."""


def call_with_timeout(fn: Callable[[], object], timeout_s: float, what: str):
    """``fn()``'s result, waiting at most ``timeout_s`` seconds for it; ``fn``'s own exception is re-raised.

    ``fn`` runs in a daemon thread, so a call that blocks without end (``ray.init`` on an
    address where nothing answers ignores signals) cannot hold the process: after
    ``timeout_s`` this raises ``ConnectionError`` naming ``what``, and the blocked thread is
    left behind without keeping the process alive.  The wait itself stops at once on
    Ctrl-C (``KeyboardInterrupt``).
    """
    import threading

    box: dict = {}

    def call() -> None:
        try:
            box["value"] = fn()
        except BaseException as e:  # handed to the waiting thread
            box["error"] = e

    thread = threading.Thread(target=call, name=f"madang: {what}", daemon=True)
    thread.start()
    thread.join(timeout_s)
    if thread.is_alive():
        raise ConnectionError(f"{what} did not answer within {timeout_s:g} s")
    if "error" in box:
        raise box["error"]
    return box.get("value")


class _Without(logging.Filter):
    """Drops the log records whose message starts with ``prefix``."""

    def __init__(self, prefix: str):
        super().__init__()
        self.prefix = prefix

    def filter(self, record: logging.LogRecord) -> bool:
        return not record.getMessage().startswith(self.prefix)


def _ray_init(ray, address: str | None, timeout_s: float) -> None:
    """``ray.init(address)``: connecting to a cluster within ``timeout_s`` (:func:`call_with_timeout`).

    A new local Ray (no address, no ``RAY_ADDRESS``) starts in the calling thread: its
    processes die with the thread that starts them (``PR_SET_PDEATHSIG`` on Linux), and
    starting one does not wait on anyone.  A connection runs in a helper thread, where
    ray.init cannot set its SIGTERM handler (``sys.exit``, so that its exit hooks run) and
    warns about it: the handler is set here in the main thread instead, before connecting as
    Ray does, and the warning is dropped.
    """
    import os
    import signal
    import threading

    if address in (None, "local") and not os.environ.get("RAY_ADDRESS"):
        ray.init(address=address, include_dashboard=False, log_to_driver=False)
        return
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(signum))
    quiet = _Without("SIGTERM handler is not set")
    worker_log = logging.getLogger("ray._private.worker")
    worker_log.addFilter(quiet)
    try:
        call_with_timeout(lambda: ray.init(address=address, include_dashboard=False, log_to_driver=False),
                          timeout_s, f"the Ray cluster at {address or os.environ['RAY_ADDRESS']}")
    finally:
        worker_log.removeFilter(quiet)


class RayRunner:
    """Plays shards as Ray tasks, one CPU each, each shard one batch of the core.

    Connects with ``ray.init(address=address)`` unless Ray is already initialized (``None``:
    a running cluster named by ``RAY_ADDRESS``, else a new local one), waiting at most
    ``connect_timeout_s`` seconds for a cluster: one where nothing answers raises
    ``ConnectionError`` then, as do Ray's own connection errors.  Every node needs madang
    installed.  Raises ``ImportError`` if ray is not.
    """

    def __init__(self, address: str | None = None, connect_timeout_s: float = RAY_CONNECT_TIMEOUT_S):
        import ray

        if not ray.is_initialized():
            _ray_init(ray, address, connect_timeout_s)
        self._ray = ray
        self._task = ray.remote(num_cpus=1)(_play_bots)

    def map(self, shards: list[Shard], progress: Callable[[int, int], None] | None = None) -> list:
        """The :func:`_play` output of every shard, in order; ``progress(done, total)`` as they finish."""
        ray = self._ray
        refs: dict[int, object] = {}  # each bot object is sent once
        for shard in shards:
            for b in shard.bots:
                if id(b) not in refs:
                    refs[id(b)] = ray.put(b)
        tasks = [self._task.remote(s.game, s.seeds, s.rng_seed, s.game_config, *(refs[id(b)] for b in s.bots))
                 for s in shards]
        pending, done = list(tasks), 0
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            done += len(ready)
            if progress:
                progress(done, len(tasks))
        return ray.get(tasks)


def _play_bots(game_name: str, seeds, rng_seed: int, game_config: dict, *bots):
    """:func:`_play` with the bots as trailing arguments (Ray resolves them)."""
    return _play(game_name, list(bots), seeds, rng_seed, game_config)
