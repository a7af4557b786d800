"""Where a bot loses points against the exact solver in solitaire Yacht."""

from __future__ import annotations

import numpy as np

from envs.core.rng import normalize_seed, seed_range

from .engine import _bot


def yacht_regret(bot, num_games: int, seed: int = 0) -> dict:
    """Where a bot loses points against the exact solver in solitaire Yacht.

    For every decision the bot makes, the regret is the solver's expected final score of
    its best action minus that of the bot's action.  The regrets add up, in expectation,
    to the optimum minus the bot's mean score.  Returns the regret per game split into
    reroll and category decisions, the share of each that lose more than 0.01 points,
    and the regret per game of each round.
    """
    from agents.yacht_solver import YachtSolverBot
    from envs.yacht import SCORE_START, Yacht

    bot = _bot(bot)
    solver = YachtSolverBot()
    game = Yacht(num_players=1)
    state = game.init(seed_range(seed, num_games))
    rng = np.random.default_rng(normalize_seed(seed))
    total = {"reroll": 0.0, "score": 0.0}
    count = {"reroll": 0, "score": 0}
    lossy = {"reroll": 0, "score": 0}
    by_round = np.zeros(12)
    while not state.done.all():
        live = np.flatnonzero(~state.done)
        sub = state.take(live)
        obs, mask = game.observe(sub), game.legal_mask(sub)
        actions = bot.act(obs, mask, rng)
        q = np.where(mask, solver.action_values(obs), -np.inf)
        regret = q.max(axis=1) - q[np.arange(live.size), actions]
        scoring = actions >= SCORE_START
        for kind, rows in (("score", scoring), ("reroll", ~scoring)):
            total[kind] += float(regret[rows].sum())
            count[kind] += int(rows.sum())
            lossy[kind] += int((regret[rows] > 0.01).sum())
        np.add.at(by_round, sub.round.astype(np.int64) - 1, regret)
        game.step(sub, actions)
        state.put(live, sub)
    return {
        "games": num_games,
        "mean_score": float(game.totals(state)[:, 0].mean()),
        "regret_per_game": (total["reroll"] + total["score"]) / num_games,
        "reroll_regret_per_game": total["reroll"] / num_games,
        "score_regret_per_game": total["score"] / num_games,
        "lossy_reroll_share": lossy["reroll"] / max(count["reroll"], 1),
        "lossy_score_share": lossy["score"] / max(count["score"], 1),
        "regret_per_game_by_round": (by_round / num_games).round(3).tolist(),
    }
