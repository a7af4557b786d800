"""gostop-search against gostop-greedy: per-decision time and a seat-swapped match.

Usage::

    python -m benchmarks.gostop_search --timing-deals 40 --batch 1 64 --deals 2000 --seed 0 \\
        [--bot-option determinizations=32 ...]

Timing plays ``--timing-deals`` deals against ``gostop-greedy`` in batches of each
``--batch`` size (the bot alternates seats) and times every ``act`` call of the search bot:
the time per decision is the total time of the calls over the decisions they made (a call at
batch 64 decides for every live game at once).  Decisions with one legal action cost almost
nothing and are counted, as an env counts them; the table also gives the time per decision
with two or more legal actions.  Wall-clock and CPU times are both shown: on a shared machine
wall-clock time includes waiting for the CPU.

The match is ``agents.gostop_arena.play_match`` over ``--deals`` deals played in both
seatings; the 95 % interval uses the spread of the per-deal means over both seatings.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

import agents
from agents.base import Bot
from agents.gostop_arena import play_match
from agents.play import play_out
from envs.gostop import GoStop
from envs.gostop.observation import View

from .solo_scores import _pairs

Z95 = 1.959964
KINDS = ("play", "hand_choice", "stock_choice", "go_stop")


class _Timed(Bot):
    """Wraps a bot and records, per ``act`` call, wall and CPU seconds and the decisions made."""

    def __init__(self, bot: Bot):
        self.bot, self.name, self.game = bot, bot.name, bot.game
        self.calls: list[tuple[float, float, np.ndarray, np.ndarray]] = []

    def act(self, observation, mask, rng):
        wall, cpu = time.perf_counter(), time.process_time()
        actions = self.bot.act(observation, mask, rng)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        self.calls.append((wall, cpu, View(observation).decision, np.asarray(mask).sum(axis=1)))
        return actions


def decision_times(bot: Bot, batch: int, deals: int, seed: int = 0) -> dict:
    """Time ``bot`` over ``deals`` deals against gostop-greedy played ``batch`` at a time."""
    game, greedy, timed = GoStop(), agents.load("gostop-greedy"), _Timed(bot)
    rng = np.random.default_rng(seed)
    for start in range(0, deals, batch):
        n = min(batch, deals - start)
        state = game.init(seed + start + np.arange(n))
        seat = (start + np.arange(n)) % 2  # the search bot's seat
        play_out(game, state, [timed, greedy], rng, np.stack([seat, 1 - seat], axis=1))
    wall = np.array([c[0] for c in timed.calls])
    cpu = np.array([c[1] for c in timed.calls])
    rows = np.array([c[2].size for c in timed.calls])
    searched = np.array([(c[3] > 1).sum() for c in timed.calls])
    out = {
        "batch": batch, "deals": deals, "calls": len(timed.calls), "decisions": int(rows.sum()),
        "ms_per_decision": 1000 * wall.sum() / rows.sum(),
        "cpu_ms_per_decision": 1000 * cpu.sum() / rows.sum(),
        "ms_per_decision_with_a_choice": 1000 * wall.sum() / max(int(searched.sum()), 1),
        "ms_per_call": 1000 * wall.mean(), "max_ms_per_call": 1000 * wall.max(),
    }
    if batch == 1:  # one decision per call: split by kind
        kind = np.concatenate([c[2] for c in timed.calls])
        for k, name in enumerate(KINDS):
            if (kind == k).any():
                out[f"ms_{name}"] = 1000 * wall[kind == k].mean()
    return out


def match_table(bot_name: str, bot: Bot, deals: int, seed: int) -> str:
    """A Markdown table of a seat-swapped match of ``bot`` against gostop-greedy."""
    r = play_match(bot, "gostop-greedy", deals, seed=seed).as_dict()
    ci = Z95 * r["mean_points_se_pairs"]
    lines = [
        f"{r['deals']} deals ({deals} deals x 2 seatings, {r['skipped']} chongtong deals dealt again), seed {seed}",
        "",
        "| bot | points per deal | 95 % CI | win rate | nagari | deals with a Go | won after Go | lost after Go |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for i, (name, sign) in enumerate(((bot_name, 1), ("gostop-greedy", -1))):
        wins = r["wins"] if i == 0 else r["losses"]
        lines.append(
            f"| {name} | {sign * r['mean_points']:+.2f} | ± {ci:.2f} | {wins / r['deals']:.3f} | "
            f"{r['nagari'] / r['deals']:.3f} | {r['go'][i]} | {r['go_won'][i]} | {r['go_lost'][i]} |"
        )
    return "\n".join(lines)


def main(argv=None) -> int:
    """Command-line entry (see the module docstring)."""
    p = argparse.ArgumentParser(description="gostop-search timing and match against gostop-greedy")
    p.add_argument("--timing-deals", type=int, default=40)
    p.add_argument("--batch", type=int, nargs="*", default=[1, 64])
    p.add_argument("--deals", type=int, default=2000, help="match deals (each in both seatings); 0 skips")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--bot-option", nargs="*", metavar="KEY=VALUE", help="gostop-search options")
    args = p.parse_args(argv)
    options = _pairs(args.bot_option)
    print(f"gostop-search options: {options or 'defaults'}")
    for b in args.batch:
        print(json.dumps(decision_times(agents.load("gostop-search", **options), b, args.timing_deals,
                                        args.seed)))
    if args.deals:
        print(match_table("gostop-search", agents.load("gostop-search", **options), args.deals, args.seed))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
