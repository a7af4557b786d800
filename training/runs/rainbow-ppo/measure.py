"""Measure a Rainbow Dice bot against rainbow-greedy the way issue 11 asks (default market).

    .venv/bin/python training/runs/rainbow-ppo/measure.py rainbow-ppo --games 2000 --out measure.json

* solo: the bot and rainbow-greedy on the same seeds; means with 95 % CIs and the ratio
  (its CI from the paired per-seed differences, delta method);
* two players: the bot against rainbow-greedy on the same seeds in both seat orders (a pair);
  games won (ties count 1/2) with a 95 % CI;
* 3 and 4 seats: the bot with rainbow-greedy and rainbow-simple opponents, the bot in every
  seat in turn (same seeds per rotation); its mean, the others' means and its win rate;
* solo with ``copies_per_hand=None`` (unlimited market);
* ms per decision of each bot, at batch 1 and per decision at batch 256.

Every game goes through ``training.evaluate`` (``evaluate_solo``, ``play_match``).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

import agents
from envs.rainbow_dice import RainbowDice
from training.evaluate import Z95, play_match

GREEDY, SIMPLE = "rainbow-greedy", "rainbow-simple"


def ci(x) -> float:
    x = np.asarray(x, dtype=np.float64)
    return float(Z95 * x.std(ddof=1) / np.sqrt(x.size))


def greedy_solo_scores(games: int, seed: int, cache: str | None, **config) -> np.ndarray:
    """rainbow-greedy's solo scores on seeds seed .. seed + games - 1 (the slow half of a solo
    comparison; it does not depend on the bot measured, so it is kept in ``cache``)."""
    path = None
    if cache:
        path = Path(cache) / f"greedy-solo-{games}-{seed}-{json.dumps(config, sort_keys=True)}.json"
        if path.exists():
            return np.array(json.loads(path.read_text()))
    scores = play_match("rainbow_dice", [GREEDY], games, seed, **config)[:, 0]
    if path:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(scores.tolist()))
    return scores


def solo(bot, games: int, seed: int, cache: str | None = None, **config) -> dict:
    a = play_match("rainbow_dice", [bot], games, seed, **config)[:, 0]
    b = greedy_solo_scores(games, seed, cache, **config)
    ratio = a.mean() / b.mean()
    # Delta method on the paired means: var(ratio) ~ var(a - ratio * b) / (n * mean(b)^2).
    ratio_ci = Z95 * (a - ratio * b).std(ddof=1) / np.sqrt(games) / b.mean()
    return {"games": games, "seed": seed, "config": config,
            "bot": {"mean": float(a.mean()), "ci95": ci(a), "sd": float(a.std(ddof=1))},
            GREEDY: {"mean": float(b.mean()), "ci95": ci(b), "sd": float(b.std(ddof=1))},
            "ratio": float(ratio), "ratio_ci95": float(ratio_ci)}


def versus_greedy(bot, pairs: int, seed: int) -> dict:
    first = play_match("rainbow_dice", [bot, GREEDY], pairs, seed)
    second = play_match("rainbow_dice", [GREEDY, bot], pairs, seed)
    mine = np.concatenate([first[:, 0], second[:, 1]])
    theirs = np.concatenate([first[:, 1], second[:, 0]])
    won = np.where(mine > theirs, 1.0, np.where(mine < theirs, 0.0, 0.5))
    return {"pairs": pairs, "games": 2 * pairs, "seed": seed, "win_rate": float(won.mean()), "win_ci95": ci(won),
            "win_rate_first": float(won[:pairs].mean()), "win_rate_second": float(won[pairs:].mean()),
            "ties": int((won == 0.5).sum()), "bot_mean": float(mine.mean()), "bot_ci95": ci(mine),
            "greedy_mean": float(theirs.mean()), "greedy_ci95": ci(theirs)}


def table(bot, others: list, games: int, seed: int) -> dict:
    players = len(others) + 1
    mine, rest, won = [], {n: [] for n in set(others)}, []
    for seat in range(players):
        seats = list(others)
        seats.insert(seat, bot)
        res = play_match("rainbow_dice", seats, games, seed)
        me = res[:, seat]
        opp = np.delete(res, seat, axis=1)
        best = opp.max(axis=1)
        # A shared win counts 1/k among the k winners.
        k = 1 + (opp == me[:, None]).sum(axis=1)
        won.append(np.where(me > best, 1.0, np.where(me == best, 1.0 / k, 0.0)))
        mine.append(me)
        for j, name in enumerate(n for i, n in enumerate(seats) if i != seat):
            rest[name].append(opp[:, j])
    mine, won = np.concatenate(mine), np.concatenate(won)
    return {"players": players, "opponents": others, "games": games * players, "seed": seed,
            "bot_mean": float(mine.mean()), "bot_ci95": ci(mine), "win_rate": float(won.mean()),
            "win_ci95": ci(won), "fair_share": 1 / players,
            "opponent_means": {n: float(np.concatenate(v).mean()) for n, v in rest.items()}}


def ms_per_decision(name: str, seed: int = 0) -> dict:
    bot = agents.load(name)
    game = RainbowDice(num_players=1)
    state = game.init(seed + np.arange(256))
    rng = np.random.default_rng(seed)
    obs, mask = game.observe(state), game.legal_mask(state)
    bot.act(obs[:1], mask[:1], rng)  # warm-up (tables, first torch call)
    t = time.perf_counter()
    for i in range(64):
        bot.act(obs[i : i + 1], mask[i : i + 1], rng)
    single = (time.perf_counter() - t) / 64 * 1000
    t = time.perf_counter()
    bot.act(obs, mask, rng)
    batched = (time.perf_counter() - t) / 256 * 1000
    return {"batch_1_ms": single, "batch_256_ms_per_decision": batched}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("bot")
    p.add_argument("--games", type=int, default=2000)
    p.add_argument("--table-games", type=int, nargs="+", default=[500],
                   help="games per seat rotation at 3 and 4 seats (one number for both, or two)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", help="write the figures to this JSON file")
    p.add_argument("--into", help="also merge them into this shipped policy's metadata (key \"measured\")")
    p.add_argument("--only", nargs="*", help="solo versus tables (= three four) unlimited speed")
    p.add_argument("--greedy-cache", default="runs/greedy-cache",
                   help="directory keeping rainbow-greedy's solo scores per seed range ('' : off)")
    a = p.parse_args()
    bot = agents.load(a.bot)
    parts = a.only or ["solo", "versus", "tables", "unlimited", "speed"]
    parts = [q for part in parts for q in (["three", "four"] if part == "tables" else [part])]
    three_games, four_games = (a.table_games * 2)[:2]
    out: dict = {"bot": a.bot}
    jobs = {
        "solo": ("solo", lambda: solo(bot, a.games, a.seed, a.greedy_cache)),
        "versus": ("two_player_vs_greedy", lambda: versus_greedy(bot, a.games, a.seed)),
        "three": ("three_seats", lambda: table(bot, [GREEDY, SIMPLE], three_games, a.seed)),
        "four": ("four_seats", lambda: table(bot, [GREEDY, SIMPLE, GREEDY], four_games, a.seed)),
        "unlimited": ("solo_unlimited", lambda: solo(bot, a.games, a.seed, a.greedy_cache, copies_per_hand=None)),
        "speed": ("ms_per_decision", lambda: {n: ms_per_decision(n) for n in (a.bot, GREEDY, SIMPLE, "random")}),
    }
    for part in parts:
        key, run = jobs[part]
        out[key] = run()
        print(key, json.dumps(out[key]), flush=True)
        save(out, a.out, a.into)  # after every part, so a long run keeps what it has


def save(out: dict, path: str | None, into: str | None) -> None:
    if path:
        Path(path).write_text(json.dumps(out, indent=2) + "\n")
    if into:
        meta = json.loads(Path(into).read_text())
        meta["measured"] = {**meta.get("measured", {}), **out}
        Path(into).write_text(json.dumps(meta, indent=2) + "\n")


if __name__ == "__main__":
    main()
