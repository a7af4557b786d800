"""Run a suite for one policy and summarize the result (the ``madang benchmark`` engine).

A result is a JSON-compatible dict (format :data:`FORMAT`): the suite id, the madang version,
the rules and seeds hashes, the policy's identity, the summary figures and the raw values a
paired comparison needs (every solo game's score; every deal pair's totals against every
rung).  :func:`summarize` recomputes the summary from the raw values alone.
"""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

import numpy as np

import agents
from training.evaluate import play_match, seat_swapped_match, solo_optimum

from .identity import madang_version, policy_identity, rules_hash, seeds_hash
from .stats import elo_on_ladder, mean_ci
from .suites import Suite

FORMAT = "madang-benchmark-result"
FORMAT_VERSION = 1


def _load_average() -> list[float] | None:
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return None


def _pair_values(m) -> dict:
    """A seat-swapped match's raw values per deal pair (the candidate is bot A)."""
    pairs, idx = m.pairs, m.pair_index

    def per_pair(x):
        return np.bincount(idx, weights=x, minlength=pairs)

    def ints(x):
        x = np.asarray(x)
        return [int(v) for v in x] if np.all(x == np.round(x)) else [float(v) for v in x]

    a, b = m.values_a, m.values_b
    return {"points": ints(per_pair(a)), "opponent": ints(per_pair(b)), "wins": ints(per_pair(a > b)),
            "decided": ints(per_pair(a != b)), "games": ints(per_pair(np.ones_like(a)))}


def play(suite: Suite, bot, spec: str, limit: int | None = None, progress=None) -> dict:
    """Play ``suite`` with ``bot`` (loaded from ``spec``); return the result (see the module docstring).

    ``limit`` plays only the first ``limit`` games (solo) or deal pairs per rung: a quick
    check, marked ``complete: false``, never a suite result.  A rung that is the policy
    itself (the same ``spec``, or the same identity hash: a copy) is skipped.  ``progress(done,
    total)`` follows the shards.
    """
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 1):
        raise ValueError(f"the number of games must be a positive int, got {limit!r}")
    if hasattr(bot, "check_game"):
        bot.check_game(suite.game)
    n = suite.games if limit is None else min(limit, suite.games)
    cpu, wall = time.process_time(), time.perf_counter()
    options = dict(shard_games=suite.shard_games, progress=progress, **suite.game_config)
    if suite.solo:
        scores = play_match(suite.game, [bot], n, suite.seed, **options)[:, 0]
        values: dict = {"scores": [int(s) if s == round(s) else float(s) for s in scores]}
    rung_bots = {r: agents.load(r) for r in suite.ladder}
    ladder = [policy_identity(r, b) for r, b in rung_bots.items()]
    identity = policy_identity(spec, bot)
    if not suite.solo:
        values = {}
        for k, (rung, rung_bot) in enumerate(rung_bots.items()):
            if rung == spec or ladder[k]["sha256"] == identity["sha256"]:
                continue
            m = seat_swapped_match(suite.game, bot, rung_bot, n, seed=suite.rung_seed(k), **options)
            values[rung] = _pair_values(m)
    fingerprint = rules_hash(suite.game, suite.players, suite.game_config)
    result = {
        "format": FORMAT, "format_version": FORMAT_VERSION,
        "suite": suite.id, "game": suite.game, "madang_version": madang_version(),
        "rules_hash": fingerprint, "rules_match": fingerprint == suite.rules_hash,
        "seeds_hash": seeds_hash(suite),
        "policy": identity,
        "ladder": [{"name": r["name"], "sha256": r["sha256"]} for r in ladder],
        "ladder_match": (all(suite.ladder_sha256.get(r["name"]) == r["sha256"] for r in ladder)
                         if suite.ladder_sha256 else None),
        "complete": n == suite.games, "games_per_unit": n,
        "values": values,
        "run": {"cpu_s": round(time.process_time() - cpu, 1), "wall_s": round(time.perf_counter() - wall, 1),
                "load_average": _load_average()},
    }
    result["summary"] = summarize(suite, result)
    return result


def summarize(suite: Suite, result: dict) -> dict:
    """The summary figures of a result, from its raw values alone."""
    values = result["values"]
    if suite.solo:
        scores = np.asarray(values["scores"], np.float64)
        mean, ci = mean_ci(scores, np.ones_like(scores))
        out = {"games": int(scores.size), "mean": mean, "ci95": ci, "target": suite.target,
               "target_met": bool(ci <= suite.target)}
        optimum = solo_optimum(suite.game)
        if optimum is not None:
            out["optimum"] = optimum
            out["fraction_of_optimum"] = mean / optimum
        return out
    rungs, totals = [], {k: [] for k in ("points", "opponent", "wins", "decided", "games")}
    elo_scores, elo_ratings = [], []
    for rung, v in values.items():
        for k in totals:
            totals[k].extend(v[k])
        rungs.append(_rung_summary(rung, v))
        if rung in suite.ladder_elo:
            elo_scores.append((rungs[-1]["score_points"], rungs[-1]["games"]))
            elo_ratings.append(suite.ladder_elo[rung])
    out = _rung_summary(None, totals)
    del out["rung"]
    out["target"], out["win_target"] = suite.target, suite.win_target
    out["target_met"] = bool(out["points_ci95"] <= suite.target and out["win_ci95"] <= suite.win_target)
    complete_ladder = bool(suite.ladder_elo) and len(elo_ratings) == len(values)
    out["elo"] = elo_on_ladder(elo_scores, elo_ratings) if complete_ladder and elo_ratings else None
    out["rungs"] = rungs
    return out


def _rung_summary(rung, v: dict) -> dict:
    points, opponent = np.asarray(v["points"], np.float64), np.asarray(v["opponent"], np.float64)
    wins, decided, games = (np.asarray(v[k], np.float64) for k in ("wins", "decided", "games"))
    mean, ci = mean_ci(points, games)
    margin, margin_ci = mean_ci(points - opponent, games)
    rate, rate_ci = mean_ci(wins, decided)
    n_games, n_wins, n_decided = int(games.sum()), int(wins.sum()), int(decided.sum())
    return {"rung": rung, "pairs": int(points.size), "games": n_games, "points": mean, "points_ci95": ci,
            "margin": margin, "margin_ci95": margin_ci, "wins": n_wins, "losses": n_decided - n_wins,
            "draws": n_games - n_decided, "decided_win_rate": rate, "win_ci95": rate_ci,
            "score_points": n_wins + 0.5 * (n_games - n_decided)}


def result_filename(result: dict) -> str:
    """``SUITE--POLICY.json``: the file name ``--out`` gives a result (the policy's file or reference name)."""
    spec = result["policy"]["spec"]
    stem = re.sub(r"[^\w.-]+", "_", Path(spec.rstrip("/\\")).name or spec).strip("_") or "policy"
    return f"{result['suite']}--{stem}.json"
