"""A Go-Stop search bot (default ``gostop-search``) against an opponent (default ``gostop-greedy``):
per-decision time and a seat-swapped match.

Usage::

    python -m benchmarks.gostop_search --timing-deals 40 --batch 1 64 --deals 2000 --seed 0 \\
        [--shards 8] [--bot-option determinizations=32 ...] [--bot gostop-search-v1] [--opponent gostop-search-v1]

Timing plays ``--timing-deals`` deals against ``gostop-greedy`` in batches of each
``--batch`` size (the bot alternates seats) and times every ``act`` call of the search bot:
the time per decision is the total time of the calls over the decisions they made (a call at
batch 64 decides for every live game at once).  Decisions with one legal action cost almost
nothing and are counted, as an env counts them; the table also gives the time per decision
with two or more legal actions.  Wall-clock and CPU times are both shown: on a shared machine
wall-clock time includes waiting for the CPU.

The match is :func:`training.evaluate.seat_swapped_match` over ``--deals`` deals played in
both seatings (the one evaluation path of ``madang eval``); the standard error and the 95 %
interval come from the spread of the deal pairs' totals.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

import agents
from agents.base import Bot
from agents.play import play_out
from envs.gostop import GoStop
from envs.gostop.observation import View
from training.evaluate import Z95, seat_swapped_match

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


def pooled(shards: list) -> dict:
    """One match's figures from the seat-swapped matches of disjoint deal ranges (A's side).

    The mean is over all games; its standard error combines the shards' (independent)
    errors, each from the spread of its deal pairs' totals."""
    games = sum(m.games for m in shards)
    out = {"games": games, "pairs": sum(m.pairs for m in shards)}
    out["mean"] = sum(m.mean_a * m.games for m in shards) / games
    out["se"] = float(np.sqrt(sum((m.games / games * m.ci95_a / Z95) ** 2 for m in shards)))
    for k in ("wins", "losses", "draws", "nagari"):
        out[k] = sum(getattr(m, k) for m in shards)
    for side in ("go_a", "go_b"):
        gos = [getattr(m, side) for m in shards]
        called = sum(g.called_go for g in gos)
        out[side] = {k: sum(getattr(g, k) for g in gos)
                     for k in ("deals", "called_go", "gos", "won_after_go", "lost_after_go", "nagari_after_go")}
        out[side]["points_after_go"] = sum(g.points_after_go * g.called_go for g in gos) / max(called, 1)
    return out


def match_table(bot: Bot, deals: int, seed: int, shards: int = 1, opponent: str = "gostop-greedy") -> str:
    """A Markdown table of a seat-swapped match of ``bot`` against ``opponent``.

    The ``deals`` deals (seeds ``seed`` ..) are played in ``shards`` consecutive ranges, one
    :func:`seat_swapped_match` each; each range's figures are printed as a JSON line as it
    finishes (a long run reports as it goes)."""
    size = -(-deals // shards)
    results = []
    for start in range(0, deals, size):
        m = seat_swapped_match("gostop", bot, opponent, min(size, deals - start), seed=seed + start)
        results.append(m)
        print(json.dumps(dict(m.as_dict(), seed=seed + start)), flush=True)
    r = pooled(results)
    decided = r["wins"] + r["losses"]
    lines = [
        f"{r['games']} deals ({deals} deals x 2 seatings, plus {r['games'] - 2 * deals} decided before any "
        f"decision), seeds {seed}..{seed + deals - 1}",
        "",
        "| bot | points per deal | s.e. | 95 % CI | won / decided | nagari | deals with a Go | Go calls "
        "| won after Go | lost after Go | points after Go |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, sign, wins, go in ((results[0].bot_a, 1, r["wins"], r["go_a"]),
                                 (results[0].bot_b, -1, r["losses"], r["go_b"])):
        lines.append(
            f"| {name} | {sign * r['mean']:+.2f} | {r['se']:.2f} | ± {Z95 * r['se']:.2f} | "
            f"{wins / max(decided, 1):.3f} | {r['nagari'] / r['games']:.3f} | {go['called_go']} | {go['gos']} | "
            f"{go['won_after_go']} | {go['lost_after_go']} | {go['points_after_go']:+.2f} |"
        )
    return "\n".join(lines)


def bot_option(item: str) -> tuple[str, object]:
    """One ``--bot-option KEY=VALUE`` as ``(KEY, VALUE)``, VALUE decoded as JSON where it parses
    (``32``, ``0.5``); ``argparse.ArgumentTypeError`` for an item without ``KEY=``."""
    key, eq, value = item.partition("=")
    if not eq or not key:
        raise argparse.ArgumentTypeError(f"expects KEY=VALUE (e.g. determinizations=32), got {item!r}")
    try:
        return key, json.loads(value)
    except ValueError:
        return key, value


def main(argv=None) -> int:
    """Command-line entry (see the module docstring)."""
    p = argparse.ArgumentParser(description="Go-Stop search timing and match")
    p.add_argument("--bot", default="gostop-search", help="the bot timed and matched")
    p.add_argument("--opponent", default="gostop-greedy", help="its opponent in the match")
    p.add_argument("--timing-deals", type=int, default=40)
    p.add_argument("--batch", type=int, nargs="*", default=[1, 64])
    p.add_argument("--deals", type=int, default=2000, help="match deals (each in both seatings); 0 skips")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--shards", type=int, default=1, help="play the match in this many deal ranges, "
                   "printing each one's figures as it finishes")
    p.add_argument("--bot-option", nargs="*", type=bot_option, metavar="KEY=VALUE", help="the bot's options")
    args = p.parse_args(argv)
    options = dict(args.bot_option or [])
    print(f"{args.bot} options: {options or 'defaults'}")
    for b in args.batch:
        print(json.dumps(decision_times(agents.load(args.bot, **options), b, args.timing_deals,
                                        args.seed)))
    if args.deals:
        print(match_table(agents.load(args.bot, **options), args.deals, args.seed, args.shards, args.opponent))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
