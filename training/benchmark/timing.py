"""Decision time at batch 1: every bot of a game timed in one run, side by side, interleaved game by game."""

from __future__ import annotations

import os
import time

import numpy as np

from envs.core.rng import seed_range
from envs.registration import game_class

MIN_DECISIONS = 200


def _one_game(game, bot, seed: int, rng) -> tuple[int, int, int]:
    """One game at batch 1 with ``bot`` in every seat: (decisions, CPU ns, wall ns) of its ``act`` calls."""
    state = game.init(seed_range(seed, 1))
    decisions = cpu = wall = 0
    while not state.done[0]:
        obs, mask = game.observe(state), game.legal_mask(state)
        c, w = time.process_time_ns(), time.perf_counter_ns()
        action = bot.act(obs, mask, rng)
        cpu += time.process_time_ns() - c
        wall += time.perf_counter_ns() - w
        decisions += 1
        game.step(state, np.asarray(action, dtype=np.int64))
    return decisions, cpu, wall


def decision_times(game_name: str, bots: dict, min_decisions: int = MIN_DECISIONS, seed: int = 0) -> dict:
    """Mean CPU and wall milliseconds per ``act`` call at batch 1 of every bot in ``bots`` (name -> bot).

    The bots play whole games against themselves (every seat), at the game's smallest table;
    round after round each bot plays the next seeded game until it has made
    ``min_decisions`` decisions, so that all of them meet the same machine load.  Each bot first
    acts once, untimed, so that tables built on first use are not counted.  Returns
    ``{"bots": {name: {"decisions", "cpu_ms", "wall_ms"}}, "load_average": [before, after]}``.
    """
    cls = game_class(game_name)
    game = cls(num_players=cls.min_players)
    warm = game.init(seed_range(seed, 1))
    for bot in bots.values():  # untimed: tables a bot builds on its first call are not a decision's cost
        bot.act(game.observe(warm), game.legal_mask(warm), np.random.default_rng(seed))
    totals = {name: [0, 0, 0] for name in bots}
    before = os.getloadavg()
    k = 0
    while any(t[0] < min_decisions for t in totals.values()):
        for name, bot in bots.items():
            if totals[name][0] < min_decisions:
                d, c, w = _one_game(game, bot, seed + k, np.random.default_rng(seed + k))
                totals[name] = [totals[name][0] + d, totals[name][1] + c, totals[name][2] + w]
        k += 1
    after = os.getloadavg()
    return {"game": game_name, "players": cls.min_players,
            "bots": {name: {"decisions": d, "cpu_ms": c / d / 1e6, "wall_ms": w / d / 1e6}
                     for name, (d, c, w) in totals.items()},
            "load_average": [[round(x, 2) for x in before], [round(x, 2) for x in after]]}
