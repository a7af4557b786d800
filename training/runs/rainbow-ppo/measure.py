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

import numpy as np

import agents
from envs.rainbow_dice import RainbowDice
from training.evaluate import Z95, play_match

GREEDY, SIMPLE = "rainbow-greedy", "rainbow-simple"


def ci(x) -> float:
    x = np.asarray(x, dtype=np.float64)
    return float(Z95 * x.std(ddof=1) / np.sqrt(x.size))


def solo(bot, games: int, seed: int, **config) -> dict:
    a = play_match("rainbow_dice", [bot], games, seed, **config)[:, 0]
    b = play_match("rainbow_dice", [GREEDY], games, seed, **config)[:, 0]
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
    p.add_argument("--table-games", type=int, default=500, help="games per seat rotation at 3 and 4 seats")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", help="write the figures to this JSON file")
    p.add_argument("--into", help="also merge them into this shipped policy's metadata (key \"measured\")")
    p.add_argument("--only", nargs="*", help="solo versus tables unlimited speed")
    a = p.parse_args()
    bot = agents.load(a.bot)
    parts = set(a.only or ["solo", "versus", "tables", "unlimited", "speed"])
    out: dict = {"bot": a.bot}
    if "solo" in parts:
        out["solo"] = solo(bot, a.games, a.seed)
        print("solo", json.dumps(out["solo"]), flush=True)
    if "versus" in parts:
        out["two_player_vs_greedy"] = versus_greedy(bot, a.games, a.seed)
        print("2p", json.dumps(out["two_player_vs_greedy"]), flush=True)
    if "tables" in parts:
        out["three_seats"] = table(bot, [GREEDY, SIMPLE], a.table_games, a.seed)
        print("3p", json.dumps(out["three_seats"]), flush=True)
        out["four_seats"] = table(bot, [GREEDY, SIMPLE, GREEDY], a.table_games, a.seed)
        print("4p", json.dumps(out["four_seats"]), flush=True)
    if "unlimited" in parts:
        out["solo_unlimited"] = solo(bot, a.games, a.seed, copies_per_hand=None)
        print("solo unlimited", json.dumps(out["solo_unlimited"]), flush=True)
    if "speed" in parts:
        out["ms_per_decision"] = {n: ms_per_decision(n) for n in (a.bot, GREEDY, SIMPLE, "random")}
        print("speed", json.dumps(out["ms_per_decision"]), flush=True)
    if a.out:
        with open(a.out, "w") as f:
            json.dump(out, f, indent=2)
            f.write("\n")
    if a.into:
        with open(a.into) as f:
            meta = json.load(f)
        meta["measured"] = {**meta.get("measured", {}), **out}
        with open(a.into, "w") as f:
            json.dump(meta, f, indent=2)
            f.write("\n")


if __name__ == "__main__":
    main()
