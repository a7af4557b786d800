"""Run every compiled kernel once through the public API, then print numba's cache statistics.

Used by ``tests/test_compile_cache.py`` in fresh processes.  Prints one JSON object:
``{"kernels": {name: {"hits": n, "misses": n}}, "import_s": s, "first_use_s": s}`` for
every dispatcher in ``envs.core.kernels``, ``envs.<game>.kernels`` and ``envs.<game>.checks``
(the checked calls' one-dispatch kernels) that was called, and
every game's state check kernel (``envs.<game>.checks.CHECKER``).
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import time

start = time.perf_counter()
import numpy as np  # noqa: E402

from envs.core.sampling import sample_legal  # noqa: E402
from envs.registration import GAMES, game_class  # noqa: E402

import_s = time.perf_counter() - start


def exercise(name: str) -> None:
    """A few random games of ``name`` through every entry point of the batched API."""
    cls = game_class(name)
    game = cls(num_players=2)
    rng = np.random.default_rng(0)
    state = game.init(np.arange(8))
    for step in range(60):
        mask = game.legal_mask(state)
        game.observe(state)
        game.observe(state, 1)
        actions = sample_legal(mask, rng)
        if step % 3 == 2:
            game.step_where(state, np.arange(0, 8, 2), actions[::2])
        else:
            game.step(state, actions, check=step % 3 == 0)  # the checked kernels and the trusted ones
        game.legal_mask(state, check=False)
        game.observe(state, check=False)
        game.reset_where(state, state.done)
    try:
        game.step(state, np.full(8, -1))
    except ValueError:
        pass
    if name == "gostop":  # entry points with kernels of their own: given deals, setup checks
        from envs.gostop.deal import classify

        orders = np.argsort(rng.random((4, 48)), axis=1)
        classify(orders)
        game.deal(orders, np.array([0, 1, 0, 1]))


def stats() -> dict:
    """Cache hits and misses of every kernel that has been compiled or loaded in this process."""
    from numba.core.registry import CPUDispatcher

    out = {}
    for module in ["envs.core.kernels", *(f"envs.{g}.{m}" for g in GAMES for m in ("kernels", "checks"))]:
        if importlib.util.find_spec(module) is None:
            continue
        mod = importlib.import_module(module)
        for attr, obj in vars(mod).items():
            if isinstance(obj, CPUDispatcher) and obj.__module__ == module and obj.signatures:
                out[f"{module}.{attr}"] = {"hits": sum(obj.stats.cache_hits.values()),
                                           "misses": sum(obj.stats.cache_misses.values())}
    for game in GAMES:  # the state check kernels (compiled on first use)
        module = f"envs.{game}.checks"
        obj = importlib.import_module(module).CHECKER._compiled
        if isinstance(obj, CPUDispatcher):
            out[f"{module}.CHECKER"] = {"hits": sum(obj.stats.cache_hits.values()),
                                        "misses": sum(obj.stats.cache_misses.values())}
    return out


if __name__ == "__main__":
    start = time.perf_counter()
    for game_name in sorted(GAMES):
        exercise(game_name)
    first_use_s = time.perf_counter() - start
    print(json.dumps({"kernels": stats(), "import_s": import_s, "first_use_s": first_use_s}))
